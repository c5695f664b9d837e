// ConstantPropagation (DaCe's pass of that name, dace/transformation/passes/
// constant_propagation.py): a symbol that has one known value on every path into a state —
// assigned on interstate edges from constants and other symbols, never from data — is
// replaced by that value in the state (memlets, map ranges, Python tasklet code, nested-SDFG
// symbol mappings) and in the conditions and assignments of the state's out-edges. Where the
// value is the same in every state that uses it, the assignments of the symbol are removed,
// and so is its declaration once nothing refers to it.
//
// The analysis is DaCe's: states are visited in topological order until nothing changes; the
// values coming in on each edge are those of its source state updated by the edge's
// assignments (right-hand sides with the source's known values substituted); two edges with
// different values make the symbol unknown, as does an assignment whose value names the symbol
// itself or a data container, or an edge that reassigns a symbol the value reads. A symbol used
// in a data descriptor's shape is replaced only when every state sees the same value.
//
// With `recursive`, nested SDFGs follow (DaCe's recursion): each starts with the constants its
// symbol mapping holds, and a symbol propagated everywhere inside leaves the mapping. Control
// flow with loop regions or conditional blocks is left alone, as DaCe 1.0.2 skips its pass on
// such SDFGs. Narrower than DaCe (both keep the program's meaning): a symbol that also occurs
// where we do not rewrite (C++ tasklets, library-node properties, consume scopes) keeps its
// assignments.
#pragma once
#include <map>
#include <string>

#include "transform/pass.h"
#include "transform/symbol_values.h"

namespace dace::transform {

class ConstantPropagation : public Pass {
 public:
  ConstantPropagation() { props_.bind_bool("recursive", &recursive_); }
  std::string_view name() const override { return "ConstantPropagation"; }
  Modifies modifies() const override { return Modifies::Symbols | Modifies::Edges | Modifies::Nodes | Modifies::Descriptors; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;

 private:
  bool recursive_ = true;  // DaCe's property: also propagate into nested SDFGs
};

// Per state slot of `sdfg` (a region of states only), the symbols with a known value on entry
// (value text) — the analysis above; empty when the control flow is not states only.
StateSymbolValues known_symbol_values(const ir::SDFG& sdfg);

}  // namespace dace::transform
