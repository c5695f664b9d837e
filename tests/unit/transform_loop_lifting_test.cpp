// LoopLifting on hand-built state-machine loops (structure, and results against plain C++
// loops) and on every DaCe-written corpus and frontend SDFG (results against NumPy).
#include <gtest/gtest.h>

#include <filesystem>

#include "codegen_test_builder.h"
#include "corpus_case.h"
#include "ir/json/sdfg_json.h"
#include "transform/history.h"
#include "transform/loop_detection.h"
#include "transform/loop_lifting.h"
#include "transform/simplify.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;  // not the dace::tasklet namespace
using T = ir::ScalarType;
using Assignments = std::vector<std::pair<std::string, std::string>>;

// A[index] = A[index] + <code's right-hand side> in a state of its own.
void update(ir::State& s, const std::string& index, const std::string& rhs) {
  int t = tasklet(s, "y = x + " + rhs, {"x"}, {"y"});
  edge(s, access(s, "A"), "", t, "x", "A[" + index + "]");
  edge(s, t, "y", access(s, "A"), "", "A[" + index + "]");
}

struct LoopSpec {
  std::string init = "0", condition = "(i < N)", exit = "(not (i < N))", update = "(i + 1)";
  Assignments init_extra, back_extra;
};

// start --[i = init]--> guard --[cond]--> body --[i = update]--> guard --[not cond]--> end
// Returns the region slots {guard, body}.
std::pair<int, int> state_machine_loop(ir::SDFG& g, ir::ControlFlowRegion& r, int before, int after,
                                       const LoopSpec& spec, const std::string& name, const std::string& var = "i") {
  int guard = 0, body = 0;
  add_state(r, g, name + "_guard", &guard);
  add_state(r, g, name + "_body", &body);
  Assignments init{{var, spec.init}};
  init.insert(init.end(), spec.init_extra.begin(), spec.init_extra.end());
  Assignments back{{var, spec.update}};
  back.insert(back.end(), spec.back_extra.begin(), spec.back_extra.end());
  add_interstate(r, before, guard, "1", init);
  add_interstate(r, guard, body, spec.condition);
  add_interstate(r, guard, after, spec.exit);
  add_interstate(r, body, guard, "1", back);
  return {guard, body};
}

// One loop over A[0:N] between a start and an end state.
std::unique_ptr<ir::SDFG> one_loop(const LoopSpec& spec, const std::string& rhs = "1") {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "lift";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  int start = 0, end = 0;
  add_state(*g, *g, "start", &start);
  add_state(*g, *g, "end", &end);
  auto [guard, body] = state_machine_loop(*g, *g, start, end, spec, "for_1");
  update(*static_cast<ir::State*>(g->block(body)), "i", rhs);
  return g;
}

bool lift(ir::SDFG& g) {
  PatternPass pass(std::make_unique<LoopLifting>());
  AnalysisManager am;
  Result<bool> r = run_pass(g, pass, am);
  EXPECT_TRUE(r.ok()) << r.error().message;
  Status v = analysis::validate(g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return r.ok() && *r;
}

std::vector<const ir::LoopRegion*> loops_in(const ir::ControlFlowRegion& r) {
  std::vector<const ir::LoopRegion*> out;
  for (int s : r.block_slots())
    if (r.block(s)->kind == ir::BlockKind::Loop) out.push_back(static_cast<const ir::LoopRegion*>(r.block(s)));
  return out;
}

std::vector<double> run(const ir::SDFG& g, int64_t n, std::vector<double> a) {
  run_sdfg(g, {{"A", &a}}, {{"N", n}});
  return a;
}

TEST(TransformLoopLifting, LiftsAForLoopWithItsInitConditionAndUpdate) {
  auto g = one_loop({});
  auto before = g->clone_sdfg();
  ASSERT_TRUE(lift(*g));
  auto loops = loops_in(*g);
  ASSERT_EQ(loops.size(), 1u);
  const ir::LoopRegion& L = *loops.front();
  EXPECT_EQ(L.label, "loop_for_1_guard");  // DaCe's name: loop_<guard>
  EXPECT_EQ(L.loop_variable, "i");
  EXPECT_EQ(L.init_statement.code, "i = 0");
  EXPECT_EQ(L.loop_condition.code, "(i < N)");
  EXPECT_EQ(L.update_statement.code, "i = (i + 1)");
  EXPECT_EQ(L.block_slots().size(), 2u);  // the former guard (start block, as in DaCe) and the body
  EXPECT_EQ(L.block(L.start_block)->label, "for_1_guard");
  EXPECT_EQ(g->block_slots().size(), 3u);  // start, loop, end
  for (int es : g->edge_slots()) {
    EXPECT_TRUE(g->edge(es)->is_unconditional());
    EXPECT_TRUE(g->edge(es)->assignments.empty());
  }
  std::vector<double> a{1, 2, 3, 4, 5};
  std::vector<double> want = a;
  for (int64_t i = 0; i < 5; ++i) want[static_cast<size_t>(i)] += 1;
  EXPECT_EQ(run(*before, 5, a), want);
  EXPECT_EQ(run(*g, 5, a), want);
}

// Locations are DaCe's DetectLoop pattern (loop_guard, loop_begin, exit_state) with its
// expression index, so that DaCe 1.0.2's LoopLifting replays them.
TEST(TransformLoopLifting, LocationsAreDaCesPattern) {
  auto g = one_loop({});  // blocks: start 0, end 1, guard 2, body 3
  LoopLifting t;
  AnalysisManager am;
  std::vector<Match> legal;
  std::string reasons;
  for (const Match& m : t.enumerate(*g, am)) {
    if (t.can_be_applied(*g, m, am)) legal.push_back(m);
    else reasons += t.why_not() + "\n";
  }
  ASSERT_EQ(legal.size(), 1u) << reasons;
  EXPECT_EQ(legal[0].cfg_id, 0);
  EXPECT_EQ(legal[0].state_id, -1);
  EXPECT_EQ(legal[0].subgraph, (std::vector<int>{2, 3, 1}));
  EXPECT_EQ(legal[0].expr_index, 0);  // a single-block body
  EXPECT_NE(reasons.find("loop guard 'for_1_guard': the loop's body starts at block 'for_1_body' and it exits to "
                         "block 'end'"),
            std::string::npos)
      << reasons;
  Match wrong = legal[0];
  wrong.expr_index = 1;
  EXPECT_FALSE(t.can_be_applied(*g, wrong, am));
  EXPECT_NE(t.why_not().find("expr_index 1 names the other shape"), std::string::npos) << t.why_not();

  // A body of two states: expression 1.
  auto two = one_loop({});
  int second = 0;
  add_state(*two, *two, "for_1_body2", &second);
  for (int es : two->out_edges(3)) {
    ir::InterstateEdge e = *two->edge(es);
    two->remove_edge(es);
    e.src = second;
    two->add_edge(std::move(e));
  }
  add_interstate(*two, 3, second);
  update(*static_cast<ir::State*>(two->block(second)), "i", "2");
  std::optional<Match> m = apply_once(*two, "LoopLifting");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->subgraph, (std::vector<int>{2, 3, 1}));
  EXPECT_EQ(m->expr_index, 1);
  std::vector<double> a(4, 0.0);
  EXPECT_EQ(run(*two, 4, a), (std::vector<double>{3, 3, 3, 3}));
}

// Simplify after lifting fuses each lifted loop's former guard into the body's first state.
TEST(TransformLoopLifting, SimplifyAfterLiftingFoldsTheGuard) {
  auto g = one_loop({}, "i");
  auto before = g->clone_sdfg();
  ASSERT_TRUE(lift(*g));
  AnalysisManager am;
  Result<bool> r = run_pass(*g, *make_simplify_pipeline(), am);
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto loops = loops_in(*g);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops.front()->block_slots().size(), 1u);
  const std::vector<HistoryEntry> h = history_of(*g);
  ASSERT_GE(h.size(), 2u);
  EXPECT_EQ(h.front().transformation, "LoopLifting");
  bool folded_inside = false;
  for (const HistoryEntry& e : h) folded_inside |= e.transformation == "StateFusion" && e.match.cfg_id == 1;
  EXPECT_TRUE(folded_inside) << "no StateFusion inside the loop";
  std::vector<double> a(5, 1.0), want = a;
  for (int64_t i = 0; i < 5; ++i) want[static_cast<size_t>(i)] += static_cast<double>(i);
  EXPECT_EQ(run(*before, 5, a), want);
  EXPECT_EQ(run(*g, 5, a), want);
}

TEST(TransformLoopLifting, StepTwoAndZeroTripLoops) {
  LoopSpec spec;
  spec.update = "i + 2";
  auto g = one_loop(spec, "i");
  ASSERT_TRUE(lift(*g));
  EXPECT_EQ(loops_in(*g).front()->update_statement.code, "i = i + 2");
  std::vector<double> a(7, 1.0), want = a;
  for (int64_t i = 0; i < 7; i += 2) want[static_cast<size_t>(i)] += static_cast<double>(i);
  EXPECT_EQ(run(*g, 7, a), want);
  EXPECT_EQ(run(*g, 0, {}), std::vector<double>{});  // runs zero times

  LoopSpec late;  // starts past the end: zero iterations with N > 0
  late.init = "N";
  auto z = one_loop(late);
  ASSERT_TRUE(lift(*z));
  EXPECT_EQ(run(*z, 3, {1, 2, 3}), (std::vector<double>{1, 2, 3}));
}

TEST(TransformLoopLifting, KeepsOtherAssignmentsOfTheInitAndBackEdges) {
  // k = 5; for (i = 0; i < N; ++i) { A[i] += k; k = 2 * k - 1; }  (k set with the update)
  LoopSpec spec;
  spec.init_extra = {{"k", "5"}};
  spec.back_extra = {{"k", "(2 * k - 1)"}};
  auto g = one_loop(spec, "k");
  auto before = g->clone_sdfg();
  ASSERT_TRUE(lift(*g));
  const ir::LoopRegion& L = *loops_in(*g).front();
  EXPECT_EQ(L.block_slots().size(), 3u);  // guard, body and the state after the k assignment
  EXPECT_EQ(L.block(L.block_slots().back())->label, "loop_for_1_guard_tail");
  std::vector<double> a(6, 0.0), want = a;
  int64_t k = 5;
  for (int64_t i = 0; i < 6; ++i) {
    want[static_cast<size_t>(i)] += static_cast<double>(k);
    k = 2 * k - 1;
  }
  EXPECT_EQ(run(*before, 6, a), want);
  EXPECT_EQ(run(*g, 6, a), want);
}

TEST(TransformLoopLifting, RefusesAVariableReadAfterTheLoop) {
  // for (i = 0; i < N; i = i + 2) A[i] += 1;  A[0] = i: a LoopRegion scopes i to the loop.
  LoopSpec spec;
  spec.update = "i + 2";
  auto g = one_loop(spec);
  ir::State& end = *static_cast<ir::State*>(g->block(1));
  int t = tasklet(end, "y = i", {}, {"y"});
  edge(end, t, "y", access(end, "A"), "", "A[0]");
  std::string why;
  EXPECT_FALSE(detect_for_loop(*g, 2, &why));
  EXPECT_EQ(why, "the loop variable is read after the loop");
  // Assigned again before the read (a second loop over i, say): lifted.
  int again = 0;
  add_state(*g, *g, "again", &again);
  for (int es : g->edge_slots())
    if (g->edge(es)->dst == 1) g->edge(es)->dst = again;
  add_interstate(*g, again, 1, "1", {{"i", "N + 1"}});
  auto before = g->clone_sdfg();
  ASSERT_TRUE(lift(*g));
  std::vector<double> a(5, 0.0), want{6, 0, 1, 0, 1};
  EXPECT_EQ(run(*before, 5, a), want);
  EXPECT_EQ(run(*g, 5, a), want);
}

// A transient sized by the loop variable (syrk's `__tmp2[i + 1]`): the loop region defines
// the variable, so it does not become a program argument, and the loop still computes the same.
TEST(TransformLoopLifting, LiftsAVariableThatSizesAContainer) {
  auto g = one_loop({});
  add_array(*g, "T", T::Float64, {"i + 1"}, /*transient=*/true);
  auto before = g->clone_sdfg();
  ASSERT_TRUE(lift(*g));
  std::vector<double> a(5, 0.0), want{1, 1, 1, 1, 1};
  EXPECT_EQ(run(*before, 5, a), want);
  EXPECT_EQ(run(*g, 5, a), want);
}

TEST(TransformLoopLifting, TheUpdateMayReadSymbolsSetOnTheInitEdge) {
  // s = 3; for (i = 1; i < N; i = i + s) A[i] += 1
  LoopSpec spec;
  spec.init = "1";
  spec.init_extra = {{"s", "3"}};
  spec.update = "i + s";
  auto g = one_loop(spec);
  ASSERT_TRUE(lift(*g));
  std::vector<double> a(8, 0.0), want = a;
  for (int64_t i = 1; i < 8; i += 3) want[static_cast<size_t>(i)] += 1;
  EXPECT_EQ(run(*g, 8, a), want);
}

TEST(TransformLoopLifting, LiftsNestedLoops) {
  // for i in 0:N: for j in 0:M: A[i * M + j] += i * 10 + j
  auto g = std::make_unique<ir::SDFG>();
  g->name = "nested";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N * M"});
  int start = 0, end = 0;
  add_state(*g, *g, "start", &start);
  add_state(*g, *g, "end", &end);
  auto [outer_guard, outer_body] = state_machine_loop(*g, *g, start, end, {}, "for_i");
  // The outer body state enters the inner loop; its exit is the outer latch.
  int latch = 0;
  add_state(*g, *g, "for_i_latch", &latch);
  for (int es : g->out_edges(outer_body)) {
    ir::InterstateEdge e = *g->edge(es);
    g->remove_edge(es);
    e.src = latch;
    g->add_edge(std::move(e));
  }
  LoopSpec inner;
  inner.condition = "(j < M)";
  inner.exit = "(not (j < M))";
  inner.update = "(j + 1)";
  auto [inner_guard, inner_body] = state_machine_loop(*g, *g, outer_body, latch, inner, "for_j", "j");
  update(*static_cast<ir::State*>(g->block(inner_body)), "i * M + j", "i * 10 + j");
  auto before = g->clone_sdfg();
  ASSERT_TRUE(lift(*g));
  auto outer = loops_in(*g);
  ASSERT_EQ(outer.size(), 1u);
  EXPECT_EQ(outer.front()->loop_variable, "i");
  auto inner_loops = loops_in(*outer.front());
  ASSERT_EQ(inner_loops.size(), 1u);
  EXPECT_EQ(inner_loops.front()->loop_variable, "j");

  const int64_t n = 3, m = 4;
  std::vector<double> a(static_cast<size_t>(n * m), 0.5), want = a;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j) want[static_cast<size_t>(i * m + j)] += static_cast<double>(i * 10 + j);
  for (const ir::SDFG* s : {before.get(), g.get()}) {
    std::vector<double> got = a;
    run_sdfg(*s, {{"A", &got}}, {{"N", n}, {"M", m}});
    EXPECT_EQ(got, want);
  }
}

TEST(TransformLoopLifting, TwoLoopsOverOneVariableAndABranchInTheBody) {
  // for i in 0:N: if i % 2 == 0: A[i] += 1 else: A[i] += 10
  // for i in 0:N: A[i] += i
  auto g = std::make_unique<ir::SDFG>();
  g->name = "two";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  int start = 0, mid = 0, end = 0, even = 0, odd = 0, join = 0;
  add_state(*g, *g, "start", &start);
  add_state(*g, *g, "mid", &mid);
  add_state(*g, *g, "end", &end);
  auto [g1, b1] = state_machine_loop(*g, *g, start, mid, {}, "for_a");
  add_state(*g, *g, "even", &even);
  add_state(*g, *g, "odd", &odd);
  add_state(*g, *g, "join", &join);
  // b1 branches; the back edge leaves from `join` instead.
  for (int es : g->out_edges(b1)) {
    ir::InterstateEdge e = *g->edge(es);
    g->remove_edge(es);
    e.src = join;
    g->add_edge(std::move(e));
  }
  add_interstate(*g, b1, even, "(i % 2 == 0)");
  add_interstate(*g, b1, odd, "(not (i % 2 == 0))");
  add_interstate(*g, even, join);
  add_interstate(*g, odd, join);
  update(*static_cast<ir::State*>(g->block(even)), "i", "1");
  update(*static_cast<ir::State*>(g->block(odd)), "i", "10");
  auto [g2, b2] = state_machine_loop(*g, *g, mid, end, {}, "for_b");
  update(*static_cast<ir::State*>(g->block(b2)), "i", "i");
  auto before = g->clone_sdfg();
  ASSERT_TRUE(lift(*g));
  auto loops = loops_in(*g);
  ASSERT_EQ(loops.size(), 2u);
  EXPECT_EQ(loops[0]->block_slots().size(), 5u);  // guard, b1, even, odd, join
  EXPECT_TRUE(loops_in(*loops[0]).empty());       // the branch is not a loop
  std::vector<double> a(5, 0.0), want = a;
  for (int64_t i = 0; i < 5; ++i) want[static_cast<size_t>(i)] += (i % 2 == 0 ? 1 : 10);
  for (int64_t i = 0; i < 5; ++i) want[static_cast<size_t>(i)] += static_cast<double>(i);
  EXPECT_EQ(run(*before, 5, a), want);
  EXPECT_EQ(run(*g, 5, a), want);
}

TEST(TransformLoopLifting, LeavesWhileLoopsAndLoopsWithOtherExits) {
  // A while loop: the variable is set before, not on the edge into the guard.
  {
    auto g = one_loop({});
    for (int es : g->edge_slots())
      if (g->edge(es)->dst == 2 && g->edge(es)->src == 0) g->edge(es)->assignments.clear();
    int pre = 0;
    add_state(*g, *g, "pre", &pre);
    add_interstate(*g, pre, 0, "1", {{"i", "0"}});
    std::string why;
    EXPECT_FALSE(detect_for_loop(*g, 2, &why));
    EXPECT_EQ(why, "no unique loop variable set on the init and back edges");
    EXPECT_FALSE(lift(*g));
  }
  // A break: the body leaves to the end state directly.
  {
    auto g = one_loop({});
    add_interstate(*g, 3, 1, "A[0] > 100");
    EXPECT_FALSE(lift(*g));
  }
  // Dataflow in the guard runs at every check: refused.
  {
    auto g = one_loop({});
    update(*static_cast<ir::State*>(g->block(2)), "0", "1");
    EXPECT_FALSE(lift(*g));
  }
  // The exit condition is not the negated loop condition.
  {
    LoopSpec spec;
    spec.exit = "(i >= N + 1)";
    EXPECT_FALSE(lift(*one_loop(spec)));
  }
}

TEST(TransformLoopLifting, NegationIsRecognizedAsText) {
  EXPECT_TRUE(is_negation("(not (i < N))", "(i < N)"));
  EXPECT_TRUE(is_negation("not (i<N)", "i < N"));
  EXPECT_TRUE(is_negation("not ((a) and (b))", "(a) and (b)"));
  EXPECT_FALSE(is_negation("not (a) and (b)", "(a) and (b)"));
  EXPECT_FALSE(is_negation("nota", "a"));
  EXPECT_FALSE(is_negation("(i < N)", "(i < N)"));
}

TEST(TransformLoopLifting, SameInputSameBytes) {
  LoopSpec spec;
  spec.init_extra = {{"k", "5"}};
  spec.back_extra = {{"k", "(2 * k - 1)"}};
  auto a = one_loop(spec, "k");
  auto b = a->clone_sdfg();
  ASSERT_TRUE(lift(*a));
  ASSERT_TRUE(lift(*b));
  EXPECT_EQ(ir::json::write_sdfg(*a), ir::json::write_sdfg(*b));
}

// Every DaCe-written corpus and frontend SDFG: lifted, validated, written and read back,
// compiled and run against NumPy.
std::vector<codegen::testing::CorpusFile> lifting_files() {
  namespace fs = std::filesystem;
  std::vector<codegen::testing::CorpusFile> out =
      codegen::testing::simp_and_raw_files(codegen::testing::corpus_case_dirs());
  for (const fs::path& d : codegen::testing::case_dirs_under(fs::path(LIBDACE_SOURCE_DIR) / "tests/data/frontend")) {
    const std::string k = d.filename().string();
    for (const char* kind : {"simp", "raw"}) {
      const fs::path f = d / (k + "." + kind + ".sdfgz");
      if (fs::exists(f)) out.push_back({f.string(), d.string(), "frontend_" + k + "_" + kind});
    }
  }
  return out;
}

class LoopLiftingCorpus : public ::testing::TestWithParam<codegen::testing::CorpusFile> {};

int count_loops(const ir::SDFG& g) {
  int n = 0;
  std::vector<const ir::ControlFlowRegion*> stack{&g};
  while (!stack.empty()) {
    const ir::ControlFlowRegion* r = stack.back();
    stack.pop_back();
    for (int s : r->block_slots()) {
      const ir::ControlFlowBlock* b = r->block(s);
      n += b->kind == ir::BlockKind::Loop;
      if (b->kind == ir::BlockKind::Loop || b->kind == ir::BlockKind::Region)
        stack.push_back(static_cast<const ir::ControlFlowRegion*>(b));
    }
  }
  return n;
}

TEST_P(LoopLiftingCorpus, LiftedMatchesNumPy) {
  const auto& cf = GetParam();
  Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  ir::SDFG& g = **sdfg;
  const int loops_before = count_loops(g);
  std::unique_ptr<ir::SDFG> twin = g.clone_sdfg();
  const bool changed = lift(g);
  lift(*twin);
  EXPECT_EQ(ir::json::write_sdfg(*twin), ir::json::write_sdfg(g));  // same input, same bytes
  std::printf("[ lift ] %s: loop regions %d -> %d\n", cf.name.c_str(), loops_before, count_loops(g));
  const std::string text = ir::json::write_sdfg(g);
  Result<std::unique_ptr<ir::SDFG>> back = ir::json::read_sdfg(text);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(ir::json::write_sdfg(**back), text);
  // Unchanged files run in the corpus suites already; some frontend cases (strided layouts,
  // transposed returns) need tests/scripts/frontend_cases.sh's runner, not this one.
  if (!changed) return;
  Result<codegen::testing::CompiledProgram> prog = codegen::testing::compile(g);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  codegen::testing::run_corpus_case(cf.dir, g, *prog);
}

// Control-flow raising comes early in DaCe's simplify: the rest of simplify must keep the
// lifted loops correct (StateFusion, dead-state and dead-dataflow removal inside loop bodies).
TEST_P(LoopLiftingCorpus, LiftedThenSimplifiedMatchesNumPy) {
  const auto& cf = GetParam();
  Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  ir::SDFG& g = **sdfg;
  if (!lift(g)) return;
  AnalysisManager am;
  Result<bool> r = run_pass(g, *make_simplify_pipeline(), am);
  ASSERT_TRUE(r.ok()) << r.error().message;
  Status v = analysis::validate(g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<codegen::testing::CompiledProgram> prog = codegen::testing::compile(g);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  codegen::testing::run_corpus_case(cf.dir, g, *prog);
}

INSTANTIATE_TEST_SUITE_P(Corpus, LoopLiftingCorpus, ::testing::ValuesIn(lifting_files()),
                         [](const ::testing::TestParamInfo<codegen::testing::CorpusFile>& info) {
                           std::string s = info.param.name;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

}  // namespace
}  // namespace dace::transform::testing
