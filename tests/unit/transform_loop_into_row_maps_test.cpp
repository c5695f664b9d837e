// MoveLoopIntoOuterMapDimension (auto_optimize's step): `for i: map (r, c)` becomes
// `map r: for i: map c` and computes what the plain C++ loop nest computes; one-dimensional
// maps and loops whose map iterations depend on each other are left unchanged.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/json/sdfg_json.h"
#include "ir/sdfg.h"
#include "transform/apply.h"
#include "transform/registry.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

// for i in [0, M): map over `params` in `ranges`: B[w] = B[r] * 0.5 + A[c] * i, with A[0:N]
// and B[0:M + 1, 0:N + 1].
std::unique_ptr<ir::SDFG> loop_around_map(const std::vector<std::string>& params, const std::string& ranges,
                                          const std::string& read, const std::string& write, const std::string& a) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "rows";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"M + 1", "N + 1"});
  ir::State& s = add_state(*add_test_loop(*g, "for_1", "0", "(i < M)", "(i + 1)").loop, *g, "body");
  auto [en, ex] = map(s, params, ranges);
  const int t = tasklet(s, "y = b * 0.5 + a * i", {"a", "b"}, {"y"});
  edge_in(s, access(s, "A"), en, t, "a", "A[0:N]", "A[" + a + "]");
  edge_in(s, access(s, "B"), en, t, "b", "B[0:M + 1, 0:N + 1]", "B[" + read + "]");
  edge_out(s, t, "y", ex, access(s, "B"), "B[" + write + "]", "B[0:M + 1, 0:N + 1]");
  return g;
}

bool run_step(ir::SDFG& g) {
  std::unique_ptr<Pass> p = make_pass("MoveLoopIntoOuterMapDimension");
  EXPECT_TRUE(p);
  AnalysisManager am;
  Result<bool> r = run_pass(g, *p, am);
  EXPECT_TRUE(r.ok()) << r.error().message;
  return r.ok() && *r;
}

bool loop_at_top(const ir::SDFG& g) {
  for (int b : g.block_slots())
    if (g.block(b)->kind == ir::BlockKind::Loop) return true;
  return false;
}

TEST(TransformMoveLoopIntoOuterMapDimension, LoopGoesBetweenTheFirstAndTheOtherDimensions) {
  auto g = loop_around_map({"r", "c"}, "0:M + 1, 0:N", "r, c", "r, c", "c");
  ASSERT_TRUE(run_step(*g));
  EXPECT_FALSE(loop_at_top(*g));
  // The map left outside runs over r only; the one over c sits in the moved loop's body.
  int outer_maps = 0;
  for (int b : g->block_slots()) {
    if (g->block(b)->kind != ir::BlockKind::State) continue;
    const auto& s = static_cast<const ir::State&>(*g->block(b));
    for (int n : s.node_ids())
      if (s.node(n)->kind == ir::NodeKind::MapEntry) {
        ++outer_maps;
        EXPECT_EQ(static_cast<const ir::MapEntry&>(*s.node(n)).map.params, std::vector<std::string>{"r"});
      }
  }
  EXPECT_EQ(outer_maps, 1);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::NestedSDFG), 1);
  const int64_t N = 6, M = 3;
  std::vector<double> a(N), bv((M + 1) * (N + 1));
  for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<double>(k) * 0.75 - 1.0;
  for (size_t k = 0; k < bv.size(); ++k) bv[k] = static_cast<double>(k % 5) + 0.5;
  std::vector<double> want = bv;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t r = 0; r < M + 1; ++r)
      for (int64_t c = 0; c < N; ++c) {
        double& x = want[static_cast<size_t>(r * (N + 1) + c)];
        x = x * 0.5 + a[static_cast<size_t>(c)] * static_cast<double>(i);
      }
  run_sdfg(*g, {{"A", &a}, {"B", &bv}}, {{"N", N}, {"M", M}});
  EXPECT_EQ(bv, want);
}

TEST(TransformMoveLoopIntoOuterMapDimension, LeavesOneDimensionalMapsAndDependentIterations) {
  // A map of one dimension keeps its vector lanes inside the loop.
  auto one = loop_around_map({"c"}, "0:N", "0, c", "0, c", "c");
  // B[r, c] = B[r + 1, c]: map iteration r reads what iteration r + 1 wrote in the previous
  // loop iteration, so the loop cannot go inside the map.
  auto dependent = loop_around_map({"r", "c"}, "0:M, 0:N", "r + 1, c", "r, c", "c");
  for (ir::SDFG* g : {one.get(), dependent.get()}) {
    const std::string before = ir::json::write_sdfg(*g);
    EXPECT_FALSE(run_step(*g));
    EXPECT_EQ(ir::json::write_sdfg(*g), before);
  }
}

}  // namespace
}  // namespace dace::transform::testing
