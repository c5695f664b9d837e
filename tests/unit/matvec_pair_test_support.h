// The SDFG the matrix-vector-pair transformation tests share: `t = A @ x; y = t @ A` as two
// MatMul nodes in one state (NPBench's atax), with variants that must be refused, its inputs
// and the result by plain C++ loops.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "codegen_test_builder.h"
#include "ir/sdfg.h"
#include "transform_test_support.h"

namespace dace::transform::testing {

struct MatVecPairOptions {
  bool other_matrix = false;   // the second product reads B instead of A
  bool shifted_rows = false;   // A has M + 1 rows; the first product reads rows 1..M, the second 0..M-1
  std::string cols = "N";      // the symbol of x's and y's length (A's columns)
  std::map<std::string, std::string> first_props, second_props;  // MatMul properties (JSON text)
};

// State "s": A, x -> MatMul -> t -> MatMul (with A) -> y; t transient.
inline std::unique_ptr<ir::SDFG> matvec_pair(const MatVecPairOptions& o) {
  using namespace codegen::testing;
  using T = ir::ScalarType;
  auto g = std::make_unique<ir::SDFG>();
  g->name = "matvec_pair";
  const std::string& n = o.cols;
  for (const std::string& s : {std::string("M"), n}) g->symbols[s] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {o.shifted_rows ? "M + 1" : "M", n});
  add_array(*g, "B", T::Float64, {"M", n});
  add_array(*g, "x", T::Float64, {n});
  add_array(*g, "y", T::Float64, {n});
  add_array(*g, "t", T::Float64, {"M"}, true);
  ir::State& s = add_state(*g, *g, "s");
  const int a = access(s, "A");
  const int p = add_matmul(s, o.first_props), q = add_matmul(s, o.second_props);
  const std::string rows0 = "A[0:M, 0:" + n + "]", rows1 = "A[1:M + 1, 0:" + n + "]";
  edge(s, a, "", p, "_a", o.shifted_rows ? rows1 : rows0);
  edge(s, access(s, "x"), "", p, "_b", "x[0:" + n + "]");
  const int t = access(s, "t");
  edge(s, p, "_c", t, "", "t[0:M]");
  edge(s, t, "", q, "_a", "t[0:M]");
  if (o.other_matrix) edge(s, access(s, "B"), "", q, "_b", "B[0:M, 0:" + n + "]");
  else edge(s, a, "", q, "_b", rows0);
  edge(s, q, "_c", access(s, "y"), "", "y[0:" + n + "]");
  return g;
}

struct MatVecPairData {
  int64_t m = 0, n = 0;
  std::vector<double> A, B, x, y;
};

// Small exact binary fractions, y full of NaN (a missing zeroing would show).
inline MatVecPairData matvec_pair_inputs(const MatVecPairOptions& o, int64_t m, int64_t n) {
  MatVecPairData d;
  d.m = m;
  d.n = n;
  const int64_t rows = o.shifted_rows ? m + 1 : m;
  for (int64_t i = 0; i < rows * n; ++i) d.A.push_back(static_cast<double>((i * 7) % 13 - 6) * 0.125);
  for (int64_t i = 0; i < m * n; ++i) d.B.push_back(static_cast<double>((i * 5) % 11 - 5) * 0.25);
  for (int64_t j = 0; j < n; ++j) d.x.push_back(1.0 + 0.03125 * static_cast<double>(j));
  d.y.assign(static_cast<size_t>(n), std::numeric_limits<double>::quiet_NaN());
  return d;
}

// y = R^T (P x) by plain loops, P the rows the first product reads, R those of the second.
inline std::vector<double> matvec_pair_reference(const MatVecPairData& d, const MatVecPairOptions& o) {
  const std::vector<double>& R = o.other_matrix ? d.B : d.A;
  const int64_t p_off = o.shifted_rows ? d.n : 0;
  std::vector<double> t(static_cast<size_t>(d.m), 0.0), y(static_cast<size_t>(d.n), 0.0);
  for (int64_t i = 0; i < d.m; ++i)
    for (int64_t j = 0; j < d.n; ++j) t[i] += d.A[p_off + i * d.n + j] * d.x[j];
  for (int64_t i = 0; i < d.m; ++i)
    for (int64_t j = 0; j < d.n; ++j) y[j] += t[i] * R[i * d.n + j];
  return y;
}

inline void expect_matches(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t j = 0; j < got.size(); ++j) EXPECT_NEAR(got[j], want[j], 1e-12 * (1 + std::abs(want[j]))) << "y[" << j << "]";
}

inline void run_matvec_pair(const ir::SDFG& g, MatVecPairData& d, const std::string& cols = "N") {
  run_sdfg(g, {{"A", &d.A}, {"B", &d.B}, {"x", &d.x}, {"y", &d.y}}, {{"M", d.m}, {cols, d.n}});
}

}  // namespace dace::transform::testing
