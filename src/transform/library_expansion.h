// Library-node expansions chosen per node (DaCe's ExpandTransformation,
// dace/transformation/transformation.py): a library node is replaced by what its
// implementation expands to, and the step is recorded in the history under the expansion's
// class name (DaCe's `SpecializeMatMul`, ...), so DaCe replays it with its own class.
// Which expansion applies to a node is decided by the node's `implementation` property,
// else the class's default implementation (DaCe's `default_implementation`).
//
// The expansions that rewrite the SDFG live here. Implementations that become code rather
// than SDFG nodes ("pure" loop nests, "OpenBLAS"/"MKL" calls of Gemm, Gemv, Dot, Reduce,
// Transpose, ...) are chosen by code generation from the same property when the node is
// lowered; a node whose implementation has no SDFG-level expansion here is not matched.
//
// SpecializeMatMul (MatMul's only implementation, "specialize", its default): by the ranks of
// the operands with size-one dimensions squeezed (as DaCe's _get_matmul_operands):
//   2 x 2      -> Gemm `<name>gemm` (alpha; beta, or 1 with a sum WCR on the output, which
//                 also drops `cin`; cin when the node has a `_cin` input)
//   2|3 x 3    -> BatchedMatMul `<name>bmm`
//   2 x 1      -> Gemv `<name>gemv`, connectors _a, _b, _c -> _A, _x, _y
//   1 x 2      -> Gemv `<name>gemvt` with transA, connectors _a, _b, _c -> _x, _A, _y
//   1 x 1      -> Dot `<name>dot`, connectors _a, _b, _c -> _x, _y, _result
// alpha and beta carried over (Gemm as above). The new node takes the old one's edges and
// is added last, the old one removed (DaCe's order, so later history ids agree). Refused:
// another implementation, missing connectors, ranks DaCe does not specialize (it raises).
#pragma once
#include <memory>

#include "transform/pass.h"
#include "transform/transformation.h"

namespace dace::transform {

class SpecializeMatMul : public SingleStateTransformation {
 public:
  std::string_view name() const override { return "SpecializeMatMul"; }
  Modifies modifies() const override { return Modifies::Tasklets | Modifies::Memlets; }

 protected:
  size_t pattern_size() const override { return 1; }  // _match_node
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;
};

// DaCe's SDFG.expand_library_nodes(recursive=False) for the expansions above and Gemm's PBLAS
// implementation (ExpandGemmPBLAS, expand_gemm_pblas.h): every library node whose
// implementation has one is expanded, repeatedly (a specialized node may match again), each
// step recorded under its expansion's name.
class ExpandLibraryNodes : public Pass {
 public:
  std::string_view name() const override { return "ExpandLibraryNodes"; }
  // What SpecializeMatMul changes and what ExpandGemmPBLAS adds (access nodes, transients,
  // the symbols Px and Py).
  Modifies modifies() const override;
  bool records_itself() const override { return true; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;
};

}  // namespace dace::transform
