// The access-set analysis (which containers each state and control-flow block reads and
// writes), cached by the AnalysisManager and dropped when a pass reports a change it depends
// on. Expected sets are derived by hand from the graphs built here.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "transform/access_sets.h"
#include "transform/analysis_manager.h"
#include "transform/apply.h"
#include "transform/dead_dataflow_elimination.h"
#include "transform/registry.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using Names = std::set<std::string>;
using T = ir::ScalarType;

// A pass that adds `tasklet -> C` to the state it was given and reports `mods`; it never
// looks at the analysis manager, so only run_pass's invalidation can drop what it staled.
class AddWriterOfC : public Pass {
 public:
  AddWriterOfC(ir::State& s, Modifies mods) : state_(s), mods_(mods) {}
  std::string_view name() const override { return "AddWriterOfC"; }
  Modifies modifies() const override { return mods_; }
  Result<bool> apply(ir::SDFG&, AnalysisManager&) override {
    edge(state_, tasklet(state_, "o = 1", {}, {"o"}), "o", access(state_, "C"), "", "C[0]");
    return true;
  }

 private:
  ir::State& state_;
  Modifies mods_;
};

// State s: A -> t1 -> T -> t2 -> B, and A -> t3 -> D (D a transient nobody reads);
// state u: B -> t4 -> C. An isolated access node of E reads and writes nothing.
struct TwoStates {
  std::unique_ptr<ir::SDFG> g = std::make_unique<ir::SDFG>();
  ir::State* s = nullptr;
  ir::State* u = nullptr;
  TwoStates() {
    for (const char* a : {"A", "B", "C", "E"}) add_array(*g, a, T::Float64, {"4"});
    add_array(*g, "T", T::Float64, {"4"}, true);
    add_array(*g, "D", T::Float64, {"4"}, true);
    int is = 0, iu = 0;
    s = &add_state(*g, *g, "s", &is);
    const int a = access(*s, "A"), t = access(*s, "T");
    const int t1 = tasklet(*s, "o = i", {"i"}, {"o"}), t2 = tasklet(*s, "o = i", {"i"}, {"o"});
    const int t3 = tasklet(*s, "o = i * 2", {"i"}, {"o"});
    edge(*s, a, "", t1, "i", "A[0]");
    edge(*s, t1, "o", t, "", "T[0]");
    edge(*s, t, "", t2, "i", "T[0]");
    edge(*s, t2, "o", access(*s, "B"), "", "B[0]");
    edge(*s, a, "", t3, "i", "A[1]");
    edge(*s, t3, "o", access(*s, "D"), "", "D[0]");
    access(*s, "E");
    u = &add_state(*g, *g, "u", &iu);
    const int t4 = tasklet(*u, "o = i", {"i"}, {"o"});
    edge(*u, access(*u, "B"), "", t4, "i", "B[0]");
    edge(*u, t4, "o", access(*u, "C"), "", "C[0]");
    add_interstate(*g, is, iu);
  }
};

TEST(TransformAccessSets, ComputedOncePerStateAndInvalidatedByWhatAPassReports) {
  TwoStates x;
  AnalysisManager am;
  EXPECT_EQ(am.access_sets(*x.s).read, (Names{"A", "T"}));
  EXPECT_EQ(am.access_sets(*x.s).written, (Names{"B", "D", "T"}));
  EXPECT_EQ(am.access_sets(*x.u).read, (Names{"B"}));
  EXPECT_EQ(am.access_sets(*x.u).written, (Names{"C"}));
  EXPECT_EQ(am.computed(), 2);
  EXPECT_EQ(am.cached(), 2);

  // A pass that changed something that the sets do not depend on keeps them (even though
  // this one lies: the stale sets show that nothing was recomputed).
  AddWriterOfC symbols_only(*x.s, Modifies::Symbols);
  ASSERT_TRUE(run_pass(*x.g, symbols_only, am).ok());
  EXPECT_EQ(am.access_sets(*x.s).written, (Names{"B", "D", "T"}));
  EXPECT_EQ(am.computed(), 2);

  // Reporting access nodes and memlets drops them: recomputed, C is now written in s too.
  AddWriterOfC honest(*x.s, Modifies::AccessNodes | Modifies::Tasklets | Modifies::Memlets);
  ASSERT_TRUE(run_pass(*x.g, honest, am).ok());
  EXPECT_EQ(am.access_sets(*x.s).read, (Names{"A", "T"}));
  EXPECT_EQ(am.access_sets(*x.s).written, (Names{"B", "C", "D", "T"}));
  EXPECT_EQ(am.access_sets(*x.u).written, (Names{"C"}));
  EXPECT_EQ(am.computed(), 4);

  // A state-local invalidation drops that state's sets only.
  am.invalidate(*x.u, Modifies::Memlets);
  am.access_sets(*x.s);
  am.access_sets(*x.u);
  EXPECT_EQ(am.computed(), 5);

  // A nested SDFG changed in u changes u and the states nested in it (none here), not s
  // (transform_nested_invalidation_test.cpp covers nested states).
  am.invalidate(*x.u, Modifies::NestedSDFGs);
  am.access_sets(*x.s);
  am.access_sets(*x.u);
  EXPECT_EQ(am.computed(), 6);

  // States may free any state: every state's sets go.
  am.invalidate(*x.u, Modifies::States);
  am.access_sets(*x.s);
  am.access_sets(*x.u);
  EXPECT_EQ(am.computed(), 8);
}

// DeadDataflowElimination reads the cached sets and, through run_pass, drops them: D (a
// transient nobody reads) and what only fed it go, and the recomputed sets of s say so.
TEST(TransformAccessSets, DeadDataflowEliminationLeavesCorrectSetsBehind) {
  TwoStates x;
  AnalysisManager am;
  EXPECT_EQ(am.access_sets(*x.s).written, (Names{"B", "D", "T"}));
  DeadDataflowElimination dde;
  Result<bool> r = run_pass(*x.g, dde, am);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(*r);
  EXPECT_EQ(x.g->arrays.count("D"), 0u);
  const int before = static_cast<int>(am.computed());
  EXPECT_EQ(am.access_sets(*x.s).read, (Names{"A", "T"}));
  EXPECT_EQ(am.access_sets(*x.s).written, (Names{"B", "T"}));
  EXPECT_EQ(am.computed(), before + 1);
  EXPECT_EQ(am.access_sets(*x.s), AccessSets::compute(*x.s));
}

// A block's sets: its states' (through a loop region) plus the containers its control-flow
// code names, here the loop condition's `cnt`.
TEST(TransformAccessSets, BlockSetsUniteStatesAndControlFlowReads) {
  ir::SDFG g;
  for (const char* a : {"A", "B"}) add_array(g, a, T::Float64, {"8"});
  add_scalar(g, "cnt", T::Int64);
  TestLoop loop = add_test_loop(g, "loop", "0", "i < cnt", "i + 1");
  ir::State& body = add_state(*loop.loop, g, "body");
  const int t = tasklet(body, "o = v", {"v"}, {"o"});
  edge(body, access(body, "A"), "", t, "v", "A[i]");
  edge(body, t, "o", access(body, "B"), "", "B[i]");
  AnalysisManager am;
  const AccessSets block = block_access_sets(g, *loop.loop, am);
  EXPECT_EQ(block.read, (Names{"A", "cnt"}));
  EXPECT_EQ(block.written, (Names{"B"}));
  EXPECT_EQ(am.access_sets(body).read, (Names{"A"}));
  EXPECT_EQ(am.cached(), 1);  // the block used the state's cached sets
  const AccessSets whole = block_access_sets(g, *g.block(loop.start), am);
  EXPECT_TRUE(whole.read.empty() && whole.written.empty());
}

// `present` lists every container with an access node, edges or not: the isolated E too,
// which is neither read nor written.
TEST(TransformAccessSets, PresentListsEveryAccessNodeWithOrWithoutEdges) {
  TwoStates x;
  AnalysisManager am;
  EXPECT_EQ(am.access_sets(*x.s).present, (Names{"A", "B", "D", "E", "T"}));
  EXPECT_EQ(am.access_sets(*x.u).present, (Names{"B", "C"}));
  EXPECT_EQ(am.access_sets(*x.s).read.count("E") + am.access_sets(*x.s).written.count("E"), 0u);
}

// Two maps side by side: map i reads A[i] into t1, which writes the transient T inside the
// map; t2 reads T and writes B[i] out of the exit. Map k copies C[k] to D[k]. Each map's
// sets come from its entry's inputs, its exit's outputs and the access nodes inside it.
// With `second_reads_t`, map k also reads T (passed through its entry).
struct TwoMaps {
  std::unique_ptr<ir::SDFG> g = std::make_unique<ir::SDFG>();
  ir::State* s = nullptr;
  int first = -1, second = -1;
  explicit TwoMaps(bool second_reads_t = false) {
    for (const char* a : {"A", "B", "C", "D"}) add_array(*g, a, T::Float64, {"4"});
    add_array(*g, "T", T::Float64, {"1"}, true);
    s = &add_state(*g, *g, "s");
    auto [e1, x1] = map(*s, {"i"}, "0:4");
    const int t1 = tasklet(*s, "o = v", {"v"}, {"o"}), t2 = tasklet(*s, "o = v + 1", {"v"}, {"o"});
    const int tn = access(*s, "T");
    edge_in(*s, access(*s, "A"), e1, t1, "v", "A[0:4]", "A[i]");
    edge(*s, t1, "o", tn, "", "T[0]");
    edge(*s, tn, "", t2, "v", "T[0]");
    edge_out(*s, t2, "o", x1, access(*s, "B"), "B[i]", "B[0:4]");
    auto [e2, x2] = map(*s, {"k"}, "0:4");
    const int t3 = second_reads_t ? tasklet(*s, "o = v + w", {"v", "w"}, {"o"}) : tasklet(*s, "o = v", {"v"}, {"o"});
    edge_in(*s, access(*s, "C"), e2, t3, "v", "C[0:4]", "C[k]");
    if (second_reads_t) edge_in(*s, access(*s, "T"), e2, t3, "w", "T[0]", "T[0]");
    edge_out(*s, t3, "o", x2, access(*s, "D"), "D[k]", "D[0:4]");
    first = e1;
    second = e2;
  }
};

TEST(TransformAccessSets, ScopeSetsComeFromEntryExitAndInnerAccessNodesCachedPerState) {
  TwoMaps x;
  AnalysisManager am;
  const ScopeAccessSets& sets = am.scope_access_sets(*x.s);
  EXPECT_EQ(sets.of(x.first).read, (Names{"A", "T"}));
  EXPECT_EQ(sets.of(x.first).written, (Names{"B", "T"}));
  EXPECT_EQ(sets.of(x.first).present, (Names{"T"}));
  EXPECT_EQ(sets.of(x.second).read, (Names{"C"}));
  EXPECT_EQ(sets.of(x.second).written, (Names{"D"}));
  EXPECT_TRUE(sets.of(x.second).present.empty());
  EXPECT_TRUE(sets.of(-1).read.empty());  // not an entry
  const int64_t computed = am.computed();
  am.scope_access_sets(*x.s);
  EXPECT_EQ(am.computed(), computed);
  // They follow the scope tree: a reported node change drops them with it.
  am.invalidate(*x.s, Modifies::Nodes);
  am.scope_access_sets(*x.s);
  EXPECT_EQ(am.computed(), computed + 2);
}

// MapFusionHorizontal takes both maps' sets from the cache: trying every pair of maps of the
// state computes them once. The maps are independent and fuse; once map k reads T (which
// map i writes), the same pair is refused (the refusal must come from the cached sets).
TEST(TransformAccessSets, MapFusionHorizontalUsesTheCachedScopeSets) {
  {
    TwoMaps x;
    std::unique_ptr<Transformation> t = make_transformation("MapFusionHorizontal");
    AnalysisManager am;
    const std::vector<Match> matches = t->enumerate(*x.g, am);
    ASSERT_EQ(matches.size(), 1u);
    const int64_t computed = am.computed();
    EXPECT_TRUE(t->can_be_applied(*x.g, matches[0], am)) << t->why_not();
    EXPECT_TRUE(t->can_be_applied(*x.g, matches[0], am));
    EXPECT_EQ(am.computed(), computed + 1);
  }
  TwoMaps y(true);
  AnalysisManager fresh;
  EXPECT_EQ(fresh.scope_access_sets(*y.s).of(y.second).read, (Names{"C", "T"}));
  std::string why;
  EXPECT_FALSE(applies_anywhere(*y.g, "MapFusionHorizontal", &why));
  EXPECT_NE(why.find("\"T\""), std::string::npos) << why;
}

}  // namespace
}  // namespace dace::transform::testing
