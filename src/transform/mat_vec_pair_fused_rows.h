// MatVecPairFusedRows (libdace's own; DaCe 1.0.2 has no such class): two matrix-vector
// products over the same matrix, `t = A @ x` followed by `y = t @ A` (= A^T t; NPBench's
// atax), become one pass over the rows of A, parallel over chunks of rows, each chunk adding
// into a partial y of its own, summed at the end:
//
//   partial[:, :] = 0                   (P x N, P = ceil(M / chunk_rows); a map of its own)
//   for c in 0 : P (a Default map: parallel at the top level), rows c*R .. min(c*R + R, M) - 1:
//     for each group of 4 rows i .. i + 3 of the chunk (Sequential):
//       d_r = 0; for j: d_r += A[i + r, j] * x[j], r = 0..3                     (WCR sums)
//       for j: partial[c, j] += d_0 * A[i, j] + ... + d_3 * A[i + 3, j]          (WCR sum)
//     the chunk's last L mod 4 rows alike, one at a time
//   y = Reduce(partial, axes [0], sum, identity 0)
//
// Why: both products are memory-bound (two flops per element of A); as two library calls they
// stream A from memory twice, here once (the second read of a row is from cache, a row is
// N elements); four rows per pass divide the passes over x and over the partial row per row
// of A by four. The threads are our own (one fork per call): gemv per block of rows, as
// MatVecPairRowBlocking does, wakes OpenBLAS's thread team for every block. The inner loops
// are stride-1 over j and vectorize (a WCR sum may reassociate, codegen's wcr.cpp). The
// partial sums take P * N elements: at most N * (M / chunk_rows + 1).
//
// Pattern and legality: match_mat_vec_pair (mat_vec_pair_match.h), and t is used nowhere
// else in the SDFG (no other access node in any state, not named by interstate code): t is no
// longer written and its descriptor goes. The sums are reassociated: t[i] over j in another
// order, y over rows (chunk by chunk, then over chunks), as DaCe's WCR sums allow. Property
// `chunk_rows` (default 128, >= 1).
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class MatVecPairFusedRows : public SingleStateTransformation {
 public:
  MatVecPairFusedRows();
  std::string_view name() const override { return "MatVecPairFusedRows"; }
  Modifies modifies() const override {
    return Modifies::Descriptors | Modifies::AccessNodes | Modifies::Scopes | Modifies::Tasklets | Modifies::Memlets;
  }

 protected:
  size_t pattern_size() const override { return 1; }  // the first MatMul
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;

 private:
  int64_t chunk_rows_ = 128;
};

}  // namespace dace::transform
