// The known integer range of each symbol at each control-flow block of one SDFG (issue 10,
// "symbol ranges"), cached per SDFG by the AnalysisManager. Three sources:
//  - a loop variable inside its LoopRegion: the header as loop_bounds() reads it (the first
//    value and the last one the condition admits, ordered by the step's sign);
//  - a symbol assigned on exactly one interstate edge (and by no loop header), at the blocks
//    that run only after that edge has run (dominance; before it the symbol may hold a
//    caller's or a nested SDFG's mapped-in value): the range of the right-hand side, when it
//    is an integer expression affine in symbols of known range;
//  - a free symbol of the SDFG that is exactly a dimension of a container's shape: >= 0
//    (DaCe's sizes are non-negative; the ISL helpers' default, >= 1, is not assumed).
// Nested SDFGs are other SDFGs: they have their own entry and see nothing of their parent.
// Map parameters are not included: a map's range is on its entry, and ranges of symbols that
// live inside a state would make the analysis depend on every map edit.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "ir/sdfg.h"
#include "ir/symbolic/expr.h"
#include "transform/loop_bounds.h"

namespace dace::transform {

// Inclusive bounds, lo <= value <= hi; nullptr = unknown on that side.
struct SymbolRange {
  sym::Expr lo = nullptr;
  sym::Expr hi = nullptr;
};

class SymbolRanges {
 public:
  using Table = std::map<std::string, SymbolRange>;

  static SymbolRanges compute(const ir::SDFG& sdfg);

  // The symbols with at least one known bound while `block` runs (a block of this SDFG at any
  // depth, not inside a nested SDFG); empty for a block the analysis does not know.
  const Table& at(const ir::ControlFlowBlock& block) const;
  // One symbol at `block`; nullopt when neither bound is known there.
  std::optional<SymbolRange> of(const ir::ControlFlowBlock& block, const std::string& symbol) const;
  // The header of `loop` as loop_bounds() reads it, read once per computation. A loop this
  // entry does not know (not a block of this SDFG) is read now.
  std::optional<LoopBounds> loop(const ir::LoopRegion& loop) const;

 private:
  // Keys are addresses, used only for lookup; tables are ordered by name.
  std::unordered_map<const ir::ControlFlowBlock*, Table> at_;
  std::unordered_map<const ir::LoopRegion*, std::optional<LoopBounds>> loops_;
  friend class SymbolRangesBuilder;
};

}  // namespace dace::transform
