// SymbolPropagation (newer DaCe's pass of that name, passes/symbol_propagation.py; DaCe 1.0.2
// has none): a symbol whose value is the same expression on every path into a state is
// replaced by that expression in the state and in the conditions and assignments of its
// out-edges. Unlike ConstantPropagation it does not resolve values through other known
// symbols first, nor remove assignments (RemoveUnusedSymbols and ConstantPropagation clean up).
//
// Values: what the edges into a state assign, carried forward through states; the first
// visit of a state ignores in-edges from states not visited yet (loops). A value is dropped
// (the symbol unknown from there on) when
// - two in-edges carry different values, or one carries none (the symbol keeps an older value
//   or an argument's on that path; newer DaCe ignores such a path, we do not);
// - it reads a data container (data may change between the assignment and the use; newer DaCe
//   drops only subscripts and views) or does not parse;
// - an edge on the way assigns a symbol the value reads (`i = i + 1` itself included: after
//   the edge, `i + 1` no longer means the assigned value).
//
// Not part of simplify: our history must replay in DaCe 1.0.2 (`dace_history_check.py`, ctest
// cli.contract), which cannot deserialize a SymbolPropagation entry. It is a registered pass
// (`dace optimize --apply SymbolPropagation`). Like ConstantPropagation it works on the root
// SDFG when its control flow is states only.
#pragma once
#include <map>
#include <string>

#include "transform/pass.h"
#include "transform/symbol_values.h"

namespace dace::transform {

class SymbolPropagation : public Pass {
 public:
  std::string_view name() const override { return "SymbolPropagation"; }
  Modifies modifies() const override { return Modifies::Symbols | Modifies::Edges | Modifies::Nodes; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;
};

// Per state slot, the symbols whose value on entry is known, as expression text.
StateSymbolValues propagated_symbol_values(const ir::SDFG& sdfg);

}  // namespace dace::transform
