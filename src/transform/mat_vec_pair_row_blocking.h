// MatVecPairRowBlocking (libdace's own; DaCe 1.0.2 has no such class): two matrix-vector
// products over the same matrix, `t = A @ x` followed by `y = t @ A` (= A^T t; NPBench's
// atax), run block of rows by block of rows, so that each block of A is read from memory
// once and from cache the second time:
//
//   y[:] = 0
//   for ib in 0:M:block_rows (a Sequential map):
//     t[ib:ib+B] = A[ib:ib+B, :] @ x              (the first MatMul, on the block)
//     p = t[ib:ib+B] @ A[ib:ib+B, :]              (the second, into a transient p)
//     y += p                                      (a map with a WCR sum)
//
// Why: both products are memory-bound (two flops per element of A); as two library calls
// they stream A twice, which is the whole cost once A exceeds the cache. Each MatMul stays a
// library node and still becomes one ?gemv per block.
//
// Pattern and legality: match_mat_vec_pair (mat_vec_pair_match.h); y is set to zero first and
// accumulated, so its only access node in the state must be the second MatMul's output. The
// sum into y is reassociated across blocks (as BLAS's own blocking and DaCe's WCR sums are).
// Property `block_rows` (default 16, >= 1). MatVecPairFusedRows, which auto_optimize runs,
// splits the rows over threads instead.
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class MatVecPairRowBlocking : public SingleStateTransformation {
 public:
  MatVecPairRowBlocking();
  std::string_view name() const override { return "MatVecPairRowBlocking"; }
  Modifies modifies() const override { return Modifies::Descriptors | Modifies::AccessNodes | Modifies::Scopes | Modifies::Tasklets | Modifies::Memlets; }

 protected:
  size_t pattern_size() const override { return 1; }  // the first MatMul
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;

 private:
  int64_t block_rows_ = 16;
};

}  // namespace dace::transform
