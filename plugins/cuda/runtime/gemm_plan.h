// How a strided row-major product C = alpha * A * B + beta * C becomes one column-major
// cuBLAS gemm call (docs/cuda.md "Matrix products"). Shared by the runtime, which passes
// the plan to cublas<t>gemm, and the emulated device, which runs the same plan on the host
// (so the emulated results check the plan too).
//
// Element (i, j) of an operand is at i * rs + j * cs (elements). A column-major matrix with
// leading dimension ld has (i, j) at i + j * ld, so an operand with rs == 1 is one as it is
// (op N, ld = cs), and one with cs == 1 is the transpose of one (op T, ld = rs). C must be
// one of the two: with cs == 1 the plan computes C^T = B^T A^T instead.
#pragma once
#include <algorithm>
#include <cstdint>

namespace dace::cuda {

struct MatrixView {
  bool transposed = false;  // op T
  int64_t ld = 1;
};

// The column-major view of a rows x cols operand, or false when neither stride is unit.
inline bool column_major_view(int64_t rows, int64_t cols, int64_t rs, int64_t cs, MatrixView& out) {
  const int64_t r = std::max<int64_t>(rows, 1), c = std::max<int64_t>(cols, 1);
  if ((rs == 1 || rows <= 1) && (cols <= 1 || cs >= r)) {
    out = MatrixView{false, cols <= 1 ? r : cs};
    return true;
  }
  if ((cs == 1 || cols <= 1) && (rows <= 1 || rs >= c)) {
    out = MatrixView{true, rows <= 1 ? c : rs};
    return true;
  }
  return false;
}

struct GemmPlan {
  bool trans_a = false, trans_b = false;  // of the first and second operand of the call
  int64_t m = 0, n = 0, k = 0;
  const void* a = nullptr;
  const void* b = nullptr;
  int64_t lda = 1, ldb = 1, ldc = 1;
};

// The call computing C (m x n) = A (m x k) * B (k x n) with the given strides, or false.
inline bool plan_gemm(int64_t m, int64_t n, int64_t k, const void* a, int64_t a_rs, int64_t a_cs, const void* b,
                      int64_t b_rs, int64_t b_cs, int64_t c_rs, int64_t c_cs, GemmPlan& plan) {
  MatrixView va, vb, vc;
  if (column_major_view(m, n, c_rs, c_cs, vc) && !vc.transposed) {
    if (!column_major_view(m, k, a_rs, a_cs, va) || !column_major_view(k, n, b_rs, b_cs, vb)) return false;
    plan = GemmPlan{va.transposed, vb.transposed, m, n, k, a, b, va.ld, vb.ld, vc.ld};
    return true;
  }
  // C^T (n x m, column-major) = B^T (n x k) * A^T (k x m): the transposes swap the strides.
  if (!column_major_view(n, m, c_cs, c_rs, vc) || vc.transposed) return false;
  if (!column_major_view(n, k, b_cs, b_rs, vb) || !column_major_view(k, m, a_cs, a_rs, va)) return false;
  plan = GemmPlan{vb.transposed, va.transposed, n, m, k, b, a, vb.ld, va.ld, vc.ld};
  return true;
}

// op(X)(i, j) of a column-major operand.
template <class T>
T column_major_at(const T* x, bool transposed, int64_t ld, int64_t i, int64_t j) {
  return transposed ? x[j + i * ld] : x[i + j * ld];
}

// The plan run on the host, as cuBLAS would run it (the emulated device).
template <class T>
void run_gemm_plan(const GemmPlan& p, T alpha, T beta, T* c) {
  const T* a = static_cast<const T*>(p.a);
  const T* b = static_cast<const T*>(p.b);
  for (int64_t j = 0; j < p.n; ++j)
    for (int64_t i = 0; i < p.m; ++i) {
      T sum = 0;
      for (int64_t l = 0; l < p.k; ++l)
        sum += column_major_at(a, p.trans_a, p.lda, i, l) * column_major_at(b, p.trans_b, p.ldb, l, j);
      T& out = c[i + j * p.ldc];
      out = beta == T(0) ? alpha * sum : alpha * sum + beta * out;  // beta 0: C is not read (may be NaN)
    }
}

}  // namespace dace::cuda
