// MakeTransientsPersistent on hand-built SDFGs: a top-level transient of symbolic size becomes
// Persistent and the program still computes what a C++ loop computes, over several calls of one
// initialized program; transients inside a scope, sized by a symbol assigned inside the SDFG,
// zeroed by `setzero`, small constant-size arrays and non-transients keep their lifetime.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;  // not the dace::tasklet namespace
using T = ir::ScalarType;

// tmp[i] = A[i] * 2 (one map), B[i] = tmp[N - 1 - i] + 1 (another map), tmp at top level.
std::unique_ptr<ir::SDFG> program(const std::vector<std::string>& tmp_shape = {"N"}) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "persistent";
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const char* n : {"A", "B"}) add_array(*g, n, T::Float64, {"N"});
  add_array(*g, "tmp", T::Float64, tmp_shape, true);
  ir::State& s = add_state(*g, *g, "s0");
  const int tmp = access(s, "tmp");
  {
    auto [entry, exit] = map(s, {"i"}, "0:N");
    int t = tasklet(s, "y = x * 2", {"x"}, {"y"});
    edge_in(s, access(s, "A"), entry, t, "x", "A[0:N]", "A[i]");
    edge_out(s, t, "y", exit, tmp, "tmp[i]", "tmp[0:N]");
  }
  {
    auto [entry, exit] = map(s, {"i"}, "0:N");
    int t = tasklet(s, "y = x + 1", {"x"}, {"y"});
    edge_in(s, tmp, entry, t, "x", "tmp[0:N]", "tmp[N - 1 - i]");
    edge_out(s, t, "y", exit, access(s, "B"), "B[i]", "B[0:N]");
  }
  return g;
}

bool run_pass(ir::SDFG& g) {
  std::unique_ptr<Pass> p = make_pass("MakeTransientsPersistent");
  EXPECT_TRUE(p);
  AnalysisManager am;
  Result<bool> r = p->apply(g, am);
  EXPECT_TRUE(r.ok()) << r.error().message;
  return r.ok() && *r;
}

TEST(TransformMakeTransientsPersistent, TopLevelTransientBecomesPersistentAndComputesTheSame) {
  auto g = program();
  ASSERT_TRUE(run_pass(*g));
  EXPECT_EQ(g->arrays.at("tmp").lifetime, ir::Lifetime::Persistent);
  EXPECT_EQ(g->arrays.at("A").lifetime, ir::Lifetime::Scope);  // not a transient
  EXPECT_FALSE(run_pass(*g)) << "a second run must find nothing left to do";
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  for (int64_t n : {5, 9}) {
    std::vector<double> a(static_cast<size_t>(n)), b(static_cast<size_t>(n), -1.0), want(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i)] = 0.5 * static_cast<double>(i) - 1.0;
    for (int64_t i = 0; i < n; ++i) want[static_cast<size_t>(i)] = a[static_cast<size_t>(n - 1 - i)] * 2 + 1;
    // Three calls between one init and one exit: the buffer allocated at init serves them all.
    Status r = run_calls(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                              {"N", ArgValue::scalar<int64_t>(n)}}, 3);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(b, want) << "N = " << n;
  }
}

TEST(TransformMakeTransientsPersistent, KeepsTransientsThatMustBeAllocatedPerCallOrPerScope) {
  {  // accessed inside a map scope: one buffer per scope instance
    auto g = program();
    ir::State& s = *g->all_states()[0];
    auto [entry, exit] = map(s, {"j"}, "0:2");
    const int inner = access(s, "tmp");
    int t = tasklet(s, "y = 0", {}, {"y"});
    edge(s, entry, "", t, "", "");
    edge(s, t, "y", inner, "", "tmp[j]");
    edge(s, inner, "", exit, "IN_tmp", "tmp[j]");
    EXPECT_FALSE(run_pass(*g));
    EXPECT_EQ(g->arrays.at("tmp").lifetime, ir::Lifetime::Scope);
  }
  {  // sized by a symbol assigned on an interstate edge: unknown when the program is initialized
    auto g = program({"K"});
    g->symbols["K"] = ir::DType::of(T::Int64);
    int s1 = 0;
    add_state(*g, *g, "s1", &s1);
    g->start_block = s1;
    add_interstate(*g, s1, 0, "1", {{"K", "N"}});
    EXPECT_FALSE(run_pass(*g));
    EXPECT_EQ(g->arrays.at("tmp").lifetime, ir::Lifetime::Scope);
  }
  {  // setzero: zeros on every call, which a buffer zeroed once at init would not give
    auto g = program();
    ir::State& s = *g->all_states()[0];
    for (int id : s.node_ids())
      if (s.node(id)->kind == ir::NodeKind::Access) {
        auto* a = static_cast<ir::AccessNode*>(s.node(id));
        if (a->data == "tmp") a->setzero = true;
      }
    EXPECT_FALSE(run_pass(*g));
    EXPECT_EQ(g->arrays.at("tmp").lifetime, ir::Lifetime::Scope);
  }
  {  // a small array of constant size: the stack serves it better
    auto g = program({"16"});
    EXPECT_FALSE(run_pass(*g));
    EXPECT_EQ(g->arrays.at("tmp").lifetime, ir::Lifetime::Scope);
  }
}

}  // namespace
}  // namespace dace::transform::testing
