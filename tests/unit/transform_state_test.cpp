// StateFusion, DeadStateElimination and RemoveUnusedSymbols on hand-built SDFGs: results before
// and after against plain C++ loops, and the orders that fusion must never break.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "transform/dead_state_elimination.h"
#include "transform/history.h"
#include "transform/remove_unused_symbols.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;  // not the dace::tasklet namespace
using T = ir::ScalarType;

// out[i] = f(in[i]) over i = 0:N in its own map.
void elementwise(ir::State& s, const std::string& in, const std::string& out, const std::string& code) {
  auto [entry, exit] = map(s, {"i"}, "0:N");
  int t = tasklet(s, code, {"x"}, {"y"});
  edge_in(s, access(s, in), entry, t, "x", in + "[0:N]", in + "[i]");
  edge_out(s, t, "y", exit, access(s, out), out + "[i]", out + "[0:N]");
}

// Two states joined by `condition`: first computes `first`, second `second`.
std::unique_ptr<ir::SDFG> two_states(const std::string& a_in, const std::string& a_out, const std::string& a_code,
                                     const std::string& b_in, const std::string& b_out, const std::string& b_code,
                                     const std::string& condition = "1") {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "fuse";
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const char* n : {"A", "B", "C"}) add_array(*g, n, T::Float64, {"N"});
  int s0 = 0, s1 = 0;
  elementwise(add_state(*g, *g, "first", &s0), a_in, a_out, a_code);
  elementwise(add_state(*g, *g, "second", &s1), b_in, b_out, b_code);
  add_interstate(*g, s0, s1, condition);
  return g;
}

TEST(TransformStateFusion, FusesReadAfterWriteThroughOneAccessNode) {
  auto g = two_states("A", "B", "y = x + 1", "B", "C", "y = x * 2");
  const int64_t n = 9;
  std::vector<double> a(n), b(n, 0), c(n, 0), expect(n);
  for (int64_t i = 0; i < n; ++i) a[i] = static_cast<double>(i) - 4;
  for (int64_t i = 0; i < n; ++i) expect[i] = (a[i] + 1) * 2;

  ASSERT_TRUE(apply_once(*g, "StateFusion"));
  EXPECT_EQ(g->all_states().size(), 1u);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::Access), 3);  // B's reader merged into its writer
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", n}});
  EXPECT_EQ(c, expect);
}

TEST(TransformStateFusion, FusesIndependentStates) {
  auto g = two_states("A", "B", "y = x + 1", "A", "C", "y = x * 3");
  ASSERT_TRUE(apply_once(*g, "StateFusion"));
  const int64_t n = 4;
  std::vector<double> a{1, 2, 3, 4}, b(n), c(n);
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", n}});
  EXPECT_EQ(b, (std::vector<double>{2, 3, 4, 5}));
  EXPECT_EQ(c, (std::vector<double>{3, 6, 9, 12}));
}

TEST(TransformStateFusion, RefusesToMoveAWriteBeforeARead) {
  // first reads A, second overwrites A: fused, the write could run before the read.
  auto g = two_states("A", "B", "y = x + 1", "C", "A", "y = x * 0 + 7");
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "StateFusion", &why));
  EXPECT_NE(why.find("the second state writes \"A\", which the first reads"), std::string::npos) << why;
  const int64_t n = 3;
  std::vector<double> a{1, 2, 3}, b(n), c{0, 0, 0};
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", n}});
  EXPECT_EQ(b, (std::vector<double>{2, 3, 4}));
  EXPECT_EQ(a, (std::vector<double>{7, 7, 7}));
}

TEST(TransformStateFusion, FusesAWriteAfterReadOrderedThroughAMergedNode) {
  // first: B = A + 1 (reads A); second: A = B * 2. Every path out of the first state's A runs
  // into B, and the second state's write of A hangs below B: fused, the order stays.
  auto g = two_states("A", "B", "y = x + 1", "B", "A", "y = x * 2");
  ASSERT_TRUE(apply_once(*g, "StateFusion"));
  EXPECT_EQ(g->all_states().size(), 1u);
  std::vector<double> a{1, 2, 3}, b(3), c(3);
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", 3}});
  EXPECT_EQ(a, (std::vector<double>{4, 6, 8}));
}

TEST(TransformStateFusion, RefusesAWriteAfterReadWhenAReadBypassesTheMergedNode) {
  // As above, but the first state also copies A into C: that read is not ordered before the
  // second state's write of A by anything once the states are one.
  auto g = two_states("A", "B", "y = x + 1", "B", "A", "y = x * 2");
  auto* first = static_cast<ir::State*>(g->block(0));
  for (int id : first->node_ids())
    if (first->node(id)->kind == ir::NodeKind::Access && static_cast<ir::AccessNode*>(first->node(id))->data == "A")
      edge(*first, id, "", access(*first, "C"), "", "A[0:N] -> [0:N]");
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "StateFusion", &why));
  EXPECT_NE(why.find("the second state writes \"A\", which the first reads"), std::string::npos) << why;
  std::vector<double> a{1, 2, 3}, b(3), c(3);
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", 3}});
  EXPECT_EQ(c, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(a, (std::vector<double>{4, 6, 8}));
}

TEST(TransformStateFusion, RefusesWriteAfterWrite) {
  auto g = two_states("A", "B", "y = x + 1", "C", "B", "y = x * 2");
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "StateFusion", &why));
  EXPECT_NE(why.find("both states write \"B\""), std::string::npos) << why;
}

TEST(TransformStateFusion, RefusesConditionalEdgesAndAssignments) {
  auto g = two_states("A", "B", "y = x + 1", "A", "C", "y = x", "N > 2");
  EXPECT_FALSE(applies_anywhere(*g, "StateFusion"));
  auto h = two_states("A", "B", "y = x + 1", "A", "C", "y = x");
  h->edge(0)->assignments.push_back({"K", "N + 1"});
  h->symbols["K"] = ir::DType::of(T::Int64);
  EXPECT_FALSE(applies_anywhere(*h, "StateFusion"));
}

TEST(TransformStateFusion, RefusesWhenTheSecondStateAlsoWritesWhatItReads) {
  // B written in the first state, read and written in the second: the writes' order is not
  // kept by merging access nodes.
  auto g = two_states("A", "B", "y = x + 1", "B", "C", "y = x * 2");
  auto* second = static_cast<ir::State*>(g->block(1));
  int extra = access(*second, "B");
  int t = tasklet(*second, "y = 1", {}, {"y"});
  edge(*second, t, "y", extra, "", "B[0]");
  EXPECT_FALSE(applies_anywhere(*g, "StateFusion"));
}

TEST(TransformStateFusion, RefusesSideEffectsOutsideTheDataflow) {
  // A side-effect tasklet (or an MPI Waitall) is ordered with the other state's work only by
  // the state boundary.
  auto g = two_states("A", "B", "y = x + 1", "A", "C", "y = x * 3");
  auto* first = static_cast<ir::State*>(g->block(0));
  int t = tasklet(*first, "", {}, {});
  static_cast<ir::Tasklet*>(first->node(t))->side_effects = true;
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "StateFusion", &why));
  EXPECT_NE(why.find("side effects"), std::string::npos) << why;

  auto h = two_states("A", "B", "y = x + 1", "A", "C", "y = x * 3");
  auto lib = std::make_unique<ir::LibraryNode>();
  lib->classpath = "dace.libraries.mpi.nodes.wait.Waitall";
  lib->label = "_Waitall_";
  static_cast<ir::State*>(h->block(1))->add_node(std::move(lib));
  EXPECT_FALSE(applies_anywhere(*h, "StateFusion"));
  // Fine when the other state is empty: nothing to reorder against.
  auto k = two_states("A", "B", "y = x + 1", "A", "C", "y = x * 3");
  auto* second = static_cast<ir::State*>(k->block(1));
  for (int id : second->node_ids()) second->remove_node(id);
  static_cast<ir::Tasklet*>(static_cast<ir::State*>(k->block(0))->node(tasklet(*static_cast<ir::State*>(k->block(0)), "", {}, {})))
      ->side_effects = true;
  EXPECT_TRUE(applies_anywhere(*k, "StateFusion"));
}

TEST(TransformDeadStateElimination, RemovesBranchesThatCannotRun) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "dse";
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const char* n : {"A", "B"}) add_array(*g, n, T::Float64, {"N"});
  int s0 = 0, dead = 0, live = 0, dead2 = 0;
  add_state(*g, *g, "start", &s0);
  elementwise(add_state(*g, *g, "dead", &dead), "A", "B", "y = 99");
  elementwise(add_state(*g, *g, "live", &live), "A", "B", "y = x + 1");
  elementwise(add_state(*g, *g, "behind_dead", &dead2), "A", "B", "y = 98");
  add_interstate(*g, s0, dead, "(1 > 2)");
  add_interstate(*g, s0, live, "N > 0");  // symbolic: kept
  add_interstate(*g, dead, dead2);

  DeadStateElimination dse;
  AnalysisManager am;
  Result<bool> r = run_pass(*g, dse, am);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(*r);
  std::vector<std::string> labels;
  for (const ir::State* s : g->all_states()) labels.push_back(s->label);
  EXPECT_EQ(labels, (std::vector<std::string>{"start", "live"}));
  Result<bool> again = run_pass(*g, dse, am);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);

  const int64_t n = 3;
  std::vector<double> a{1, 2, 3}, b(n, 0);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  EXPECT_EQ(b, (std::vector<double>{2, 3, 4}));
}

TEST(TransformDeadStateElimination, AStaleStartBlockDoesNotHideTheEntry) {
  // DaCe 1.0 writes start_block 0 even when another block is the one without in-edges: the
  // entry is that block (as code generation and DaCe decide), so block 0 here is reachable.
  auto g = std::make_unique<ir::SDFG>();
  g->name = "stale_start";
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const char* n : {"A", "B", "C"}) add_array(*g, n, T::Float64, {"N"});
  int s0 = 0, s1 = 0;
  elementwise(add_state(*g, *g, "second", &s0), "B", "C", "y = x * 2");
  elementwise(add_state(*g, *g, "first", &s1), "A", "B", "y = x + 1");
  add_interstate(*g, s1, s0);
  g->start_block = s0;
  DeadStateElimination dse;
  AnalysisManager am;
  Result<bool> r = run_pass(*g, dse, am);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(*r);
  EXPECT_EQ(g->all_states().size(), 2u);
  // Fusion must not remove the stored (stale) start block either: it is the second state.
  ASSERT_TRUE(apply_once(*g, "StateFusion"));
  const int64_t n = 4;
  std::vector<double> a{1, 2, 3, 4}, b(n), c(n);
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", n}});
  EXPECT_EQ(c, (std::vector<double>{4, 6, 8, 10}));
}

TEST(TransformDeadStateElimination, ALoneElseBranchGetsACondition) {
  // if (1 > 2): B = 99  else: B = A + 1  ->  one branch, which DaCe's code generator accepts
  // only with a condition.
  auto g = std::make_unique<ir::SDFG>();
  g->name = "dse_else";
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const char* n : {"A", "B"}) add_array(*g, n, T::Float64, {"N"});
  auto cond = std::make_unique<ir::ConditionalBlock>();
  auto then_branch = std::make_unique<ir::ControlFlowRegion>();
  elementwise(add_state(*then_branch, *g, "dead"), "A", "B", "y = 99");
  g->register_block(*then_branch);
  auto else_branch = std::make_unique<ir::ControlFlowRegion>();
  elementwise(add_state(*else_branch, *g, "live"), "A", "B", "y = x + 1");
  g->register_block(*else_branch);
  cond->branches.emplace_back(ir::CodeBlock{"(1 > 2)", ir::Language::Python}, std::move(then_branch));
  cond->branches.emplace_back(std::nullopt, std::move(else_branch));
  g->register_block(*cond);
  g->add_block(std::move(cond));
  ir::relink_parents(*g);

  DeadStateElimination dse;
  AnalysisManager am;
  Result<bool> r = run_pass(*g, dse, am);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(*r);
  const auto* c = static_cast<const ir::ConditionalBlock*>(g->block(0));
  ASSERT_EQ(c->branches.size(), 1u);
  ASSERT_TRUE(c->branches[0].first.has_value());
  EXPECT_EQ(c->branches[0].first->code, "1");
  const int64_t n = 3;
  std::vector<double> a{1, 2, 3}, b(n, 0);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  EXPECT_EQ(b, (std::vector<double>{2, 3, 4}));
}

TEST(TransformDeadStateElimination, ConstantConditions) {
  auto c = [](const std::string& code) { return constant_condition(ir::CodeBlock{code, ir::Language::Python}); };
  EXPECT_EQ(c("1"), true);
  EXPECT_EQ(c("False"), false);
  EXPECT_EQ(c("(3 < 2)"), false);
  EXPECT_EQ(c("N < 2"), std::nullopt);  // a symbol's value is never assumed
  EXPECT_EQ(c("x["), std::nullopt);
}

TEST(TransformRemoveUnusedSymbols, DropsOnlyUnusedDeclarations) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "rus";
  for (const char* s : {"N", "unused", "in_code", "assigned"}) g->symbols[s] = ir::DType::of(T::Int64);
  add_array(*g, "B", T::Float64, {"N"});
  int s0 = 0, s1 = 0;
  elementwise(add_state(*g, *g, "s0", &s0), "B", "B", "y = x + in_code");
  add_state(*g, *g, "s1", &s1);
  add_interstate(*g, s0, s1, "1", {{"assigned", "1"}});
  RemoveUnusedSymbols rus;
  AnalysisManager am;
  Result<bool> r = run_pass(*g, rus, am);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(*r);
  std::vector<std::string> left;
  for (const auto& [name, type] : g->symbols) left.push_back(name);
  EXPECT_EQ(left, (std::vector<std::string>{"N", "assigned", "in_code"}));
  EXPECT_TRUE(analysis::validate(*g).ok());
}

TEST(TransformSimplify, FusesAChainAndRecordsEachStep) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "chain";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["unused"] = ir::DType::of(T::Int64);
  for (const char* n : {"A", "B", "C", "D"}) add_array(*g, n, T::Float64, {"N"});
  int s0 = 0, s1 = 0, s2 = 0;
  elementwise(add_state(*g, *g, "s0", &s0), "A", "B", "y = x + 1");
  elementwise(add_state(*g, *g, "s1", &s1), "B", "C", "y = x * 2");
  elementwise(add_state(*g, *g, "s2", &s2), "C", "D", "y = x - 3");
  add_interstate(*g, s0, s1);
  add_interstate(*g, s1, s2);
  std::unique_ptr<Pass> simplify = make_pass("simplify");
  AnalysisManager am;
  Result<bool> r = run_pass(*g, *simplify, am);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(g->all_states().size(), 1u);
  EXPECT_EQ(g->symbols.count("unused"), 0u);
  std::vector<HistoryEntry> h = history_of(*g);
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0].transformation, "StateFusion");
  EXPECT_EQ(h[1].transformation, "StateFusion");
  EXPECT_EQ(h[2].transformation, "RemoveUnusedSymbols");
  EXPECT_EQ(h[2].kind, HistoryEntry::Kind::Pass);

  const int64_t n = 5;
  std::vector<double> a{1, 2, 3, 4, 5}, b(n), c(n), d(n);
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &c}, {"D", &d}}, {{"N", n}});
  EXPECT_EQ(d, (std::vector<double>{1, 3, 5, 7, 9}));
}

}  // namespace
}  // namespace dace::transform::testing
