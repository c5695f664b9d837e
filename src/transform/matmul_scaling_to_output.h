// MatMulScalingToOutput (libdace's own; DaCe 1.0.2 has no such class): moves a scalar factor
// from a MatMul operand to its result. `T = s * X` (a map of one multiplication writing a
// transient read only by the MatMul) followed by `R = T @ Y` becomes `T' = X @ Y` followed
// by `R = s * T'`: the same map, now over the product's shape, reading the product.
//
// Why: NumPy's and DaCe's `C = alpha * A @ B + beta * C` (gemm) scales A (NI x NK) in a
// pass of its own before the product; moved behind the product, the scaling is a map over
// the result that MapFusion merges into the map consuming it (`+ beta * C`), so one pass
// over memory and one NI x NK temporary go. DaCe's Gemm takes alpha and beta only as
// constants, while here they are runtime scalars, so the factor cannot go into the BLAS
// call itself without leaving DaCe's SDFG vocabulary.
//
// Exact in real arithmetic; in floating point `s * sum(x * y)` rounds differently from
// `sum((s * x) * y)` (a reassociation, as BLAS's own blocking and DaCe's default
// -ffast-math allow).
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class MatMulScalingToOutput : public SingleStateTransformation {
 public:
  std::string_view name() const override { return "MatMulScalingToOutput"; }
  Modifies modifies() const override { return Modifies::Descriptors | Modifies::Scopes | Modifies::Memlets; }

 protected:
  size_t pattern_size() const override { return 1; }  // the MatMul node
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;
};

}  // namespace dace::transform
