// MatVecPairRowBlocking: `t = A @ x; y = t @ A` becomes a sequential map over blocks of rows
// of A (a short last block included) with y zeroed first and accumulated per block. Results
// against C++ loops of A^T (A x), y starting as NaN (a missing zeroing would show); refused
// where the second product reads another matrix or the first reads other rows (applied
// anyway, both would compute something else), and where a product has beta, alpha, transA or
// transB (each refusal leaves the SDFG's bytes unchanged and apply at each match fails); map
// parameters fresh against a symbol named `__j` / `__k`.
#include <gtest/gtest.h>

#include <string>

#include "ir/json/sdfg_json.h"
#include "matvec_pair_test_support.h"
#include "transform/map_utils.h"

namespace dace::transform::testing {
namespace {

constexpr int64_t kM = 37, kN = 23;  // 37 rows: blocks of 16, 16 and 5

using Options = MatVecPairOptions;
using Data = MatVecPairData;

Data inputs(const Options& o) { return matvec_pair_inputs(o, kM, kN); }
std::vector<double> reference(const Data& d, const Options& o) { return matvec_pair_reference(d, o); }
void run(const ir::SDFG& g, Data& d, const std::string& cols = "N") { run_matvec_pair(g, d, cols); }

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
