// DeadDataflowElimination on hand-built SDFGs: dead transients and what only feeds them go,
// results still match plain C++ loops; transients read later, non-transients and side effects
// stay.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/json/sdfg_json.h"
#include "transform/dead_dataflow_elimination.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;  // not the dace::tasklet namespace
using T = ir::ScalarType;

void elementwise(ir::State& s, const std::string& in, const std::string& out, const std::string& code) {
  auto [entry, exit] = map(s, {"i"}, "0:N");
  int t = tasklet(s, code, {"x"}, {"y"});
  edge_in(s, access(s, in), entry, t, "x", in + "[0:N]", in + "[i]");
  edge_out(s, t, "y", exit, access(s, out), out + "[i]", out + "[0:N]");
}

// s0: B = A + 1, tmp = A * 2 (tmp transient); s1: C = <second_in> - 3.
std::unique_ptr<ir::SDFG> program(const std::string& second_in) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "dde";
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const char* n : {"A", "B", "C"}) add_array(*g, n, T::Float64, {"N"});
  add_array(*g, "tmp", T::Float64, {"N"}, true);
  int s0 = 0, s1 = 0;
  ir::State& first = add_state(*g, *g, "s0", &s0);
  elementwise(first, "A", "B", "y = x + 1");
  elementwise(first, "A", "tmp", "y = x * 2");
  elementwise(add_state(*g, *g, "s1", &s1), second_in, "C", "y = x - 3");
  add_interstate(*g, s0, s1);
  return g;
}

bool run_dde(ir::SDFG& g) {
  DeadDataflowElimination p;
  AnalysisManager am;
  Result<bool> r = run_pass(g, p, am);
  EXPECT_TRUE(r.ok()) << r.error().message;
  Status v = analysis::validate(g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return r.ok() && *r;
}

TEST(TransformDeadDataflowElimination, RemovesATransientNobodyReads) {
  auto g = program("B");
  const int before = count_nodes(*g, ir::NodeKind::Access);
  ASSERT_TRUE(run_dde(*g));
  // tmp's map (entry, tasklet, exit), tmp, and the A node that only fed that map go.
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::Access), before - 2);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::Tasklet), 2);
  EXPECT_EQ(g->arrays.count("tmp"), 0u);
  const int64_t n = 6;
  std::vector<double> a{1, 2, 3, 4, 5, 6}, b(n), c(n), expect(n);
  for (int64_t i = 0; i < n; ++i) expect[i] = a[i] + 1 - 3;
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", n}});
  EXPECT_EQ(c, expect);
  EXPECT_FALSE(run_dde(*g));  // nothing left to do
}

TEST(TransformDeadDataflowElimination, KeepsATransientReadInALaterState) {
  auto g = program("tmp");
  EXPECT_FALSE(run_dde(*g));
  const int64_t n = 4;
  std::vector<double> a{1, 2, 3, 4}, b(n), c(n);
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", n}});
  EXPECT_EQ(c, (std::vector<double>{-1, 1, 3, 5}));
}

TEST(TransformDeadDataflowElimination, KeepsATransientReadInAnEarlierStateOfALoop) {
  // s0 reads tmp (written by s1 in the previous iteration); s1 -> s0 loops back.
  auto g = std::make_unique<ir::SDFG>();
  g->name = "dde_loop";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["k"] = ir::DType::of(T::Int64);
  for (const char* n : {"A", "B"}) add_array(*g, n, T::Float64, {"N"});
  add_array(*g, "tmp", T::Float64, {"N"}, true);
  int s0 = 0, s1 = 0, s2 = 0;
  elementwise(add_state(*g, *g, "s0", &s0), "tmp", "B", "y = x");
  elementwise(add_state(*g, *g, "s1", &s1), "A", "tmp", "y = x + 10");
  add_state(*g, *g, "end", &s2);
  add_interstate(*g, s0, s1);
  add_interstate(*g, s1, s0, "k < 0");
  add_interstate(*g, s1, s2, "k >= 0");
  g->start_block = s0;
  EXPECT_FALSE(run_dde(*g));

  // A read in the writing state itself keeps the write too.
  auto h = program("B");
  add_array(*h, "B2", T::Float64, {"N"});
  elementwise(*h->all_states()[0], "tmp", "B2", "y = x");
  EXPECT_FALSE(run_dde(*h));
}

TEST(TransformDeadDataflowElimination, KeepsNonTransientsAndSideEffects) {
  auto g = program("B");
  g->arrays["tmp"].transient = false;
  EXPECT_FALSE(run_dde(*g));

  auto h = program("B");
  ir::State& s = *h->all_states()[0];
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::Tasklet && static_cast<ir::Tasklet*>(s.node(id))->code.code == "y = x * 2")
      static_cast<ir::Tasklet*>(s.node(id))->side_effects = true;
  EXPECT_FALSE(run_dde(*h));
  EXPECT_EQ(h->arrays.count("tmp"), 1u);
}

TEST(TransformDeadDataflowElimination, KeepsAContainerNamedByControlFlow) {
  auto g = program("B");
  g->symbols["k"] = ir::DType::of(T::Int64);
  for (int es : g->edge_slots()) g->edge(es)->assignments.push_back({"k", "tmp[0]"});
  EXPECT_FALSE(run_dde(*g));
}

TEST(TransformDeadDataflowElimination, ADeadChainGoesWholeAndTheResultIsDeterministic) {
  // A -> map -> t1 -> map -> t2, both transients unread: everything but B's map goes.
  auto make = [] {
    auto g = program("B");
    add_array(*g, "t2", T::Float64, {"N"}, true);
    elementwise(*g->all_states()[0], "tmp", "t2", "y = x * x");
    return g;
  };
  auto g = make();
  ASSERT_TRUE(run_dde(*g));
  EXPECT_EQ(g->arrays.count("tmp") + g->arrays.count("t2"), 0u);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::Tasklet), 2);
  auto h = make();
  ASSERT_TRUE(run_dde(*h));
  EXPECT_EQ(ir::json::write_sdfg(*g), ir::json::write_sdfg(*h));
}

}  // namespace
}  // namespace dace::transform::testing
