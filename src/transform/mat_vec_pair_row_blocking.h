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
// Pattern: the first MatMul. Legal when it reads a 2-D array A and a vector x whole and
// writes a transient vector t whole, t's access node feeds only the second MatMul (as its
// left operand, whole), which reads the same container A whole from an access node and
// writes a vector y whole (no WCR); element types all float32 or all float64; the data in
// CPU memory; both nodes outside any scope; A and x written nowhere in the state (their
// rows are now read later, interleaved with the writes of y); y distinct from A, x and t,
// and its only access node in the state is the second MatMul's output (the zeroing must be
// the first write of y in the state). The sum into y is reassociated across blocks (as
// BLAS's own blocking and DaCe's WCR sums are). Property `block_rows` (default 16, >= 1).
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
