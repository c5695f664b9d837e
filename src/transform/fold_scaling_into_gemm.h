// FoldScalingIntoGemm (libdace's own; DaCe 1.0.2 has no such class): a MatMul whose product
// is only read by a map computing `C = alpha * P + beta * C` becomes one Gemm node with
// properties alpha and beta that reads C through `_cin` and writes it through `_c` in place.
//
// Why: NumPy's `C[:] = alpha * A @ B + beta * C` (gemm) otherwise runs the BLAS product into
// an NI x NJ temporary and then a pass over the temporary and C; BLAS's own ?gemm takes
// alpha and beta and updates C in place, so the temporary and the pass go.
//
// alpha and beta become what Gemm's properties hold in DaCe: a number, or a name (a Scalar
// container or a symbol) that DaCe's OpenBLAS/cuBLAS expansions write into their call as
// `double(alpha)`. DaCe 1.0.2's pure expansion compares alpha with 1 through sympy and fails
// on a name, so a Gemm with a named factor gets implementation "OpenBLAS" (what DaCe's
// auto_optimize picks on a CPU with OpenBLAS); a MatMul asking for "pure" is refused then.
//
// A matrix-vector product (`A @ x` or `x @ A`) scaled the same way becomes a Gemv instead
// (`_A`, `_x`, transA for x @ A, y read through `_cin` and written through `_y` in place; host
// maps only). A vector-vector product is refused: DaCe's Dot takes no alpha and beta.
//
// The map may write a transient that is then copied whole into C (`v[:] = v + alpha * (y @ A)`:
// the map reads v, so simplify keeps DaCe's temporary); the temporary and its copy go too (host
// maps only). C still must not be an operand of the product.
//
// Rounding: the same products; BLAS computes alpha * sum + beta * c, the map did the same
// with the sum rounded to the temporary first (no reassociation beyond BLAS's blocking).
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class FoldScalingIntoGemm : public SingleStateTransformation {
 public:
  std::string_view name() const override { return "FoldScalingIntoGemm"; }
  // Descriptors: the product's temporary and the map's intermediates are erased.
  Modifies modifies() const override {
    return Modifies::Nodes | Modifies::Scopes | Modifies::Memlets | Modifies::Descriptors;
  }

 protected:
  size_t pattern_size() const override { return 1; }  // the MatMul node
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;
};

}  // namespace dace::transform
