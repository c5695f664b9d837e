// MatVecPairRowBlocking: `t = A @ x; y = t @ A` becomes a sequential map over blocks of rows
// of A (a short last block included) with y zeroed first and accumulated per block. Results
// against C++ loops of A^T (A x), y starting as NaN (a missing zeroing would show); refused
// where the second product reads another matrix or the first reads other rows (applied
// anyway, both would compute something else).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "codegen_test_builder.h"
#include "ir/sdfg.h"
#include "transform/map_utils.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using T = ir::ScalarType;

struct Options {
  bool other_matrix = false;  // the second product reads B instead of A
  bool shifted_rows = false;  // A has M + 1 rows; the first product reads rows 1..M
};

int matmul(ir::State& s) {
  auto n = std::make_unique<ir::LibraryNode>();
  n->name = n->label = "_MatMult_";
  n->classpath = "dace.libraries.blas.nodes.matmul.MatMul";
  n->in_connectors["_a"] = ir::DType{};
  n->in_connectors["_b"] = ir::DType{};
  n->out_connectors["_c"] = ir::DType{};
  return s.add_node(std::move(n));
}

std::unique_ptr<ir::SDFG> matvec_pair(const Options& o) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "matvec_pair";
  for (const char* n : {"M", "N"}) g->symbols[n] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {o.shifted_rows ? "M + 1" : "M", "N"});
  add_array(*g, "B", T::Float64, {"M", "N"});
  add_array(*g, "x", T::Float64, {"N"});
  add_array(*g, "y", T::Float64, {"N"});
  add_array(*g, "t", T::Float64, {"M"}, true);
  ir::State& s = add_state(*g, *g, "s");
  const int a = access(s, "A");
  const int p = matmul(s), q = matmul(s);
  edge(s, a, "", p, "_a", o.shifted_rows ? "A[1:M + 1, 0:N]" : "A[0:M, 0:N]");
  edge(s, access(s, "x"), "", p, "_b", "x[0:N]");
  const int t = access(s, "t");
  edge(s, p, "_c", t, "", "t[0:M]");
  edge(s, t, "", q, "_a", "t[0:M]");
  if (o.other_matrix) edge(s, access(s, "B"), "", q, "_b", "B[0:M, 0:N]");
  else edge(s, a, "", q, "_b", o.shifted_rows ? "A[0:M, 0:N]" : "A[0:M, 0:N]");
  edge(s, q, "_c", access(s, "y"), "", "y[0:N]");
  return g;
}

constexpr int64_t kM = 37, kN = 23;  // 37 rows: blocks of 16, 16 and 5

struct Data {
  std::vector<double> A, B, x, y;
};

Data inputs(const Options& o) {
  Data d;
  const int64_t rows = o.shifted_rows ? kM + 1 : kM;
  for (int64_t i = 0; i < rows * kN; ++i) d.A.push_back(((i * 7) % 13 - 6) * 0.125);
  for (int64_t i = 0; i < kM * kN; ++i) d.B.push_back(((i * 5) % 11 - 5) * 0.25);
  for (int64_t j = 0; j < kN; ++j) d.x.push_back(1.0 + 0.03125 * static_cast<double>(j));
  d.y.assign(kN, std::numeric_limits<double>::quiet_NaN());
  return d;
}

// y = R^T (P x) by plain loops, P the rows the first product reads, R those of the second.
std::vector<double> reference(const Data& d, const Options& o) {
  const std::vector<double>& R = o.other_matrix ? d.B : d.A;
  const int64_t p_off = o.shifted_rows ? kN : 0;
  std::vector<double> t(kM, 0.0), y(kN, 0.0);
  for (int64_t i = 0; i < kM; ++i)
    for (int64_t j = 0; j < kN; ++j) t[i] += d.A[p_off + i * kN + j] * d.x[j];
  for (int64_t i = 0; i < kM; ++i)
    for (int64_t j = 0; j < kN; ++j) y[j] += t[i] * R[i * kN + j];
  return y;
}

void expect_matches(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t j = 0; j < got.size(); ++j) EXPECT_NEAR(got[j], want[j], 1e-12 * (1 + std::abs(want[j]))) << "y[" << j << "]";
}

void run(const ir::SDFG& g, Data& d) {
  run_sdfg(g, {{"A", &d.A}, {"B", &d.B}, {"x", &d.x}, {"y", &d.y}}, {{"M", kM}, {"N", kN}});
}

TEST(TransformMatVecPair, BlocksOfRowsGiveTheProductsResult) {
  Options o;
  auto g = matvec_pair(o);
  Data before = inputs(o);
  run(*g, before);
  expect_matches(before.y, reference(before, o));

  ASSERT_TRUE(apply_once(*g, "MatVecPairRowBlocking"));
  int sequential_maps = 0;
  const ir::State& s = *g->all_states()[0];
  for (int id : s.node_ids())
    if (const auto* me = as_map_entry(s.node(id)))
      if (me->map.schedule == ir::ScheduleType::Sequential && me->label == "matvec_pair_row_blocks") ++sequential_maps;
  EXPECT_EQ(sequential_maps, 1);
  Data after = inputs(o);
  run(*g, after);
  expect_matches(after.y, reference(after, o));
  EXPECT_FALSE(applies_anywhere(*g, "MatVecPairRowBlocking"));  // the products are inside a scope now
}

TEST(TransformMatVecPair, RefusedWhenTheSecondProductReadsAnotherMatrix) {
  Options o;
  o.other_matrix = true;
  auto g = matvec_pair(o);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "MatVecPairRowBlocking", &why));
  EXPECT_NE(why.find("does not read \"A\""), std::string::npos) << why;
  Data d = inputs(o);
  run(*g, d);
  expect_matches(d.y, reference(d, o));
}

TEST(TransformMatVecPair, RefusedWhenTheProductsReadDifferentRows) {
  Options o;
  o.shifted_rows = true;
  auto g = matvec_pair(o);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "MatVecPairRowBlocking", &why));
  EXPECT_NE(why.find("does not read all of \"A\""), std::string::npos) << why;
  Data d = inputs(o);
  run(*g, d);
  expect_matches(d.y, reference(d, o));
}

}  // namespace
}  // namespace dace::transform::testing
