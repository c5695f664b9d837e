// MatVecPairRowBlocking: `t = A @ x; y = t @ A` becomes a sequential map over blocks of rows
// of A (a short last block included) with y zeroed first and accumulated per block. Results
// against C++ loops of A^T (A x), y starting as NaN (a missing zeroing would show); refused
// where the second product reads another matrix or the first reads other rows (applied
// anyway, both would compute something else), and where a product has beta, alpha, transA or
// transB (each refusal leaves the SDFG's bytes unchanged and apply at each match fails); map
// parameters fresh against a symbol named `__j` / `__k`.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "codegen_test_builder.h"
#include "ir/json/sdfg_json.h"
#include "ir/sdfg.h"
#include "transform/map_utils.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using T = ir::ScalarType;

struct Options {
  bool other_matrix = false;   // the second product reads B instead of A
  bool shifted_rows = false;   // A has M + 1 rows; the first product reads rows 1..M, the second 0..M-1
  std::string cols = "N";      // the symbol of x's and y's length (A's columns)
  std::map<std::string, std::string> first_props, second_props;  // MatMul properties (JSON text)
};

int matmul(ir::State& s, const std::map<std::string, std::string>& props) {
  auto n = std::make_unique<ir::LibraryNode>();
  for (const auto& [k, v] : props) n->properties[k] = v;
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
  const std::string& n = o.cols;
  for (const std::string& s : {std::string("M"), n}) g->symbols[s] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {o.shifted_rows ? "M + 1" : "M", n});
  add_array(*g, "B", T::Float64, {"M", n});
  add_array(*g, "x", T::Float64, {n});
  add_array(*g, "y", T::Float64, {n});
  add_array(*g, "t", T::Float64, {"M"}, true);
  ir::State& s = add_state(*g, *g, "s");
  const int a = access(s, "A");
  const int p = matmul(s, o.first_props), q = matmul(s, o.second_props);
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

void run(const ir::SDFG& g, Data& d, const std::string& cols = "N") {
  run_sdfg(g, {{"A", &d.A}, {"B", &d.B}, {"x", &d.x}, {"y", &d.y}}, {{"M", kM}, {cols, kN}});
}

// Every match is refused with a reason containing `want`; applying at each one fails and leaves
// the SDFG's bytes as they were.
void expect_refused_everywhere(ir::SDFG& g, const std::string& want) {
  const std::string before = ir::json::write_sdfg(g);
  std::string why;
  EXPECT_FALSE(applies_anywhere(g, "MatVecPairRowBlocking", &why));
  EXPECT_NE(why.find(want), std::string::npos) << why;
  std::unique_ptr<Transformation> t = make_transformation("MatVecPairRowBlocking");
  AnalysisManager am;
  const std::vector<Match> matches = t->enumerate(g, am);
  EXPECT_EQ(matches.size(), 2u);
  for (const Match& m : matches) {
    Status st = apply_at(g, *t, m, am);
    EXPECT_FALSE(st.ok());
    EXPECT_EQ(ir::json::write_sdfg(g), before);
  }
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

// The first product reads rows 1..M, the second 0..M-1 of an (M + 1)-row A: refused by the
// first product's check (the message names MatMul 1; without that check the second's would
// refuse naming MatMul 2).
TEST(TransformMatVecPair, RefusedWhenTheProductsReadDifferentRows) {
  Options o;
  o.shifted_rows = true;
  auto g = matvec_pair(o);
  expect_refused_everywhere(*g, "MatMul 1 does not read all of \"A\" and \"x\"");
  Data d = inputs(o);
  run(*g, d);
  expect_matches(d.y, reference(d, o));
}

// y = beta * y + t @ A: blocked, the old y would be lost (and beta would scale the partial sums).
TEST(TransformMatVecPair, RefusedWhenTheSecondProductHasBeta) {
  Options o;
  o.second_props["beta"] = "\"1\"";
  auto g = matvec_pair(o);
  expect_refused_everywhere(*g, "MatMul 2 has beta");
  Data d = inputs(o);
  d.y.assign(kN, 0.5);
  std::vector<double> want = reference(d, o);
  for (double& v : want) v += 0.5;
  run(*g, d);
  expect_matches(d.y, want);
}

TEST(TransformMatVecPair, RefusedWhenTheFirstProductHasBeta) {
  Options o;
  o.first_props["beta"] = "1.0";
  auto g = matvec_pair(o);
  expect_refused_everywhere(*g, "MatMul 1 has beta");
}

TEST(TransformMatVecPair, RefusedWhenAProductHasAlpha) {
  Options o;
  o.first_props["alpha"] = "2";
  auto g = matvec_pair(o);
  expect_refused_everywhere(*g, "MatMul 1 has alpha");
  Options q;
  q.second_props["alpha"] = "\"2\"";
  auto h = matvec_pair(q);
  expect_refused_everywhere(*h, "MatMul 2 has alpha");
}

// transA on the first product of a square A: t = A^T x, which the row blocks would not compute.
TEST(TransformMatVecPair, RefusedWhenTheFirstProductTransposesA) {
  Options o;
  o.first_props["transA"] = "true";
  auto g = matvec_pair(o);
  expect_refused_everywhere(*g, "MatMul 1 has transA");
}

TEST(TransformMatVecPair, RefusedWhenTheSecondProductTransposesA) {
  Options o;
  o.second_props["transB"] = "true";
  auto g = matvec_pair(o);
  expect_refused_everywhere(*g, "MatMul 2 has transB");
}

// The length of x and y is a symbol named `__j`, the name the zeroing map's parameter would
// take: the rewrite picks another one and the result stays y = A^T (A x).
TEST(TransformMatVecPair, MapParametersAvoidTheSDFGsSymbols) {
  for (const char* cols : {"__j", "__k"}) {
    Options o;
    o.cols = cols;
    auto g = matvec_pair(o);
    ASSERT_TRUE(apply_once(*g, "MatVecPairRowBlocking")) << cols;
    const ir::State& s = *g->all_states()[0];
    for (int id : s.node_ids()) {
      const auto* me = as_map_entry(s.node(id));
      if (me) {
        EXPECT_NE(me->map.params[0], cols) << me->label;
      }
    }
    Data d = inputs(o);
    run(*g, d, cols);
    expect_matches(d.y, reference(d, o));
  }
}

}  // namespace
}  // namespace dace::transform::testing
