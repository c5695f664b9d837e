// ControlFlowRaising on hand-built state machines: if/else, if/elif/else chains, branches
// without else, branches that never rejoin and branches inside loops become ConditionalBlocks
// and compute what the same C++ control flow computes; branchings that are not single-entry
// single-exit, or whose conditions leave a case open, stay as they are.
#include <gtest/gtest.h>

#include <cstdio>

#include "codegen_test_builder.h"
#include "corpus_case.h"
#include "ir/json/sdfg_json.h"
#include "transform/branch_detection.h"
#include "transform/control_flow_raising.h"
#include "transform/simplify.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;  // not the dace::tasklet namespace
using T = ir::ScalarType;

// A[index] = A[index] * 10 + value, in its own state.
int put(ir::SDFG& g, ir::ControlFlowRegion& r, const std::string& label, const std::string& index,
        const std::string& value) {
  int slot = 0;
  ir::State& s = add_state(r, g, label, &slot);
  int t = tasklet(s, "y = x * 10 + " + value, {"x"}, {"y"});
  edge(s, access(s, "A"), "", t, "x", "A[" + index + "]");
  edge(s, t, "y", access(s, "A"), "", "A[" + index + "]");
  return slot;
}

std::unique_ptr<ir::SDFG> program(const std::string& name) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = name;
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"4"});
  return g;
}

bool raise_all(ir::SDFG& g) {
  ControlFlowRaising pass;
  AnalysisManager am;
  Result<bool> r = run_pass(g, pass, am);
  EXPECT_TRUE(r.ok()) << r.error().message;
  Status v = analysis::validate(g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  // What we write, we read back to the same bytes (DaCe's ConditionalBlock JSON).
  const std::string text = ir::json::write_sdfg(g);
  Result<std::unique_ptr<ir::SDFG>> back = ir::json::read_sdfg(text);
  EXPECT_TRUE(back.ok()) << back.error().message;
  if (back.ok()) {
    EXPECT_EQ(ir::json::write_sdfg(**back), text);
  }
  return r.ok() && *r;
}

int count_blocks(const ir::ControlFlowRegion& r, ir::BlockKind kind) {
  int n = 0;
  for (int s : r.block_slots()) {
    const ir::ControlFlowBlock* b = r.block(s);
    n += b->kind == kind;
    if (b->kind == ir::BlockKind::Loop || b->kind == ir::BlockKind::Region)
      n += count_blocks(static_cast<const ir::ControlFlowRegion&>(*b), kind);
    if (b->kind == ir::BlockKind::Conditional)
      for (const auto& [c, br] : static_cast<const ir::ConditionalBlock&>(*b).branches) n += count_blocks(*br, kind);
  }
  return n;
}

std::vector<double> run(const ir::SDFG& g, int64_t n) {
  std::vector<double> a(4, 0.0);
  run_sdfg(g, {{"A", &a}}, {{"N", n}});
  return a;
}

// The C++ reference of every test: A[i] = A[i] * 10 + v, as `put` does.
void put_ref(std::vector<double>& a, size_t i, double v) { a[i] = a[i] * 10 + v; }

// Runs before and after raising for several N against `ref(N)`.
void expect_same(const ir::SDFG& before, const ir::SDFG& after, std::vector<double> (*ref)(int64_t)) {
  for (int64_t n : {-2, 0, 1, 2, 3, 5, 9}) {
    EXPECT_EQ(run(before, n), ref(n)) << "N = " << n;
    EXPECT_EQ(run(after, n), ref(n)) << "N = " << n;
  }
}

TEST(TransformControlFlowRaising, IfElseBecomesAConditionalBlock) {
  // start; if N > 2: A[0] = 1 else: A[0] = 2; A[1] = 3
  auto g = program("ifelse");
  int start = 0;
  add_state(*g, *g, "start", &start);
  int t = put(*g, *g, "then", "0", "1"), e = put(*g, *g, "else", "0", "2"), m = put(*g, *g, "join", "1", "3");
  add_interstate(*g, start, t, "(N > 2)");
  add_interstate(*g, start, e, "(not (N > 2))");
  add_interstate(*g, t, m);
  add_interstate(*g, e, m);
  auto before = g->clone_sdfg();
  ASSERT_TRUE(raise_all(*g));
  ASSERT_EQ(count_blocks(*g, ir::BlockKind::Conditional), 1);
  EXPECT_EQ(g->block_slots().size(), 3u);  // start, conditional, join
  const ir::ConditionalBlock* cb = nullptr;
  for (int s : g->block_slots())
    if (g->block(s)->kind == ir::BlockKind::Conditional) cb = static_cast<const ir::ConditionalBlock*>(g->block(s));
  ASSERT_TRUE(cb);
  EXPECT_EQ(cb->label, "conditional_start");
  ASSERT_EQ(cb->branches.size(), 2u);
  EXPECT_EQ(cb->branches[0].first->code, "(N > 2)");
  EXPECT_EQ(cb->branches[1].first->code, "(not (N > 2))");
  expect_same(*before, *g, [](int64_t n) {
    std::vector<double> a(4, 0.0);
    if (n > 2) put_ref(a, 0, 1);
    else put_ref(a, 0, 2);
    put_ref(a, 1, 3);
    return a;
  });
}

TEST(TransformControlFlowRaising, IfElifElseChainWithMultiStateBranches) {
  // if N > 4: A[0] = 1; A[1] = 1   elif N > 1: A[0] = 2   else: A[0] = 3 (with k = N + 1: A[2] = k)
  auto g = program("chain");
  int start = 0, second = 0;
  add_state(*g, *g, "start", &start);
  add_state(*g, *g, "elif", &second);
  int t1 = put(*g, *g, "t1", "0", "1"), t2 = put(*g, *g, "t2", "1", "1");
  int e1 = put(*g, *g, "e1", "0", "2"), e2 = put(*g, *g, "e2", "0", "3"), e3 = put(*g, *g, "e3", "2", "k");
  int m = put(*g, *g, "join", "3", "7");
  add_interstate(*g, start, t1, "(N > 4)");
  add_interstate(*g, start, second, "(not (N > 4))");
  add_interstate(*g, t1, t2);
  add_interstate(*g, t2, m);
  add_interstate(*g, second, e1, "(N > 1)");
  add_interstate(*g, second, e2, "(not (N > 1))", {{"k", "N + 1"}});
  add_interstate(*g, e1, m);
  add_interstate(*g, e2, e3);
  add_interstate(*g, e3, m);
  auto before = g->clone_sdfg();
  ASSERT_TRUE(raise_all(*g));
  EXPECT_EQ(count_blocks(*g, ir::BlockKind::Conditional), 2);  // the elif sits in the else branch
  expect_same(*before, *g, [](int64_t n) {
    std::vector<double> a(4, 0.0);
    if (n > 4) {
      put_ref(a, 0, 1);
      put_ref(a, 1, 1);
    } else if (n > 1) {
      put_ref(a, 0, 2);
    } else {
      const int64_t k = n + 1;
      put_ref(a, 0, 3);
      put_ref(a, 2, static_cast<double>(k));
    }
    put_ref(a, 3, 7);
    return a;
  });
}

TEST(TransformControlFlowRaising, IfWithoutElseAndABranchThatDoesNotRejoin) {
  // if N > 2: A[0] = 1   (no else)   then: if N > 4: A[1] = 2 (program ends) else: A[2] = 3; A[3] = 4
  auto g = program("open");
  int start = 0;
  add_state(*g, *g, "start", &start);
  int t = put(*g, *g, "then", "0", "1"), mid = put(*g, *g, "mid", "3", "5");
  int stop = put(*g, *g, "stop", "1", "2"), go = put(*g, *g, "go", "2", "3"), last = put(*g, *g, "last", "3", "4");
  add_interstate(*g, start, t, "(N > 2)");
  add_interstate(*g, start, mid, "(not (N > 2))");
  add_interstate(*g, t, mid);
  add_interstate(*g, mid, stop, "(N > 4)");  // `stop` ends the program
  add_interstate(*g, mid, go, "(not (N > 4))");
  add_interstate(*g, go, last);
  auto before = g->clone_sdfg();
  ASSERT_TRUE(raise_all(*g));
  EXPECT_EQ(count_blocks(*g, ir::BlockKind::Conditional), 2);
  expect_same(*before, *g, [](int64_t n) {
    std::vector<double> a(4, 0.0);
    if (n > 2) put_ref(a, 0, 1);
    put_ref(a, 3, 5);
    if (n > 4) {
      put_ref(a, 1, 2);
      return a;
    }
    put_ref(a, 2, 3);
    put_ref(a, 3, 4);
    return a;
  });
}

TEST(TransformControlFlowRaising, LoopsFirstThenTheBranchesInTheirBodies) {
  // for i in 0:N: if i % 2 == 0: A[0] = A[0] * 10 + 1 else: A[0] = A[0] * 10 + 2
  auto g = program("loopif");
  int start = 0, guard = 0, body = 0, latch = 0, end = 0;
  add_state(*g, *g, "start", &start);
  add_state(*g, *g, "for_guard", &guard);
  add_state(*g, *g, "body", &body);
  int even = put(*g, *g, "even", "0", "1"), odd = put(*g, *g, "odd", "0", "2");
  add_state(*g, *g, "latch", &latch);
  add_state(*g, *g, "end", &end);
  add_interstate(*g, start, guard, "1", {{"i", "0"}});
  add_interstate(*g, guard, body, "(i < N)");
  add_interstate(*g, guard, end, "(not (i < N))");
  add_interstate(*g, body, even, "(i % 2 == 0)");
  add_interstate(*g, body, odd, "(not (i % 2 == 0))");
  add_interstate(*g, even, latch);
  add_interstate(*g, odd, latch);
  add_interstate(*g, latch, guard, "1", {{"i", "i + 1"}});
  auto before = g->clone_sdfg();
  ASSERT_TRUE(raise_all(*g));
  EXPECT_EQ(count_blocks(*g, ir::BlockKind::Loop), 1);
  EXPECT_EQ(count_blocks(*g, ir::BlockKind::Conditional), 1);
  expect_same(*before, *g, [](int64_t n) {
    std::vector<double> a(4, 0.0);
    for (int64_t i = 0; i < n; ++i) put_ref(a, 0, i % 2 == 0 ? 1 : 2);
    return a;
  });
}

TEST(TransformControlFlowRaising, RefusesABranchEnteredFromOutside) {
  // start jumps into the then-branch of `split` directly: no single entry.
  //   start --(N > 0)--> split --(N > 2)--> then --> join
  //   start --(not (N > 0))--> then            split --(not (N > 2))--> else --> join
  auto g = program("goto");
  int start = 0, split = 0;
  add_state(*g, *g, "start", &start);
  add_state(*g, *g, "split", &split);
  int t = put(*g, *g, "then", "0", "1"), e = put(*g, *g, "else", "0", "2"), m = put(*g, *g, "join", "1", "3");
  add_interstate(*g, start, split, "(N > 0)");
  add_interstate(*g, start, t, "(not (N > 0))");
  add_interstate(*g, split, t, "(N > 2)");
  add_interstate(*g, split, e, "(not (N > 2))");
  add_interstate(*g, t, m);
  add_interstate(*g, e, m);
  std::string why;
  EXPECT_FALSE(detect_branching(*g, split, &why));
  EXPECT_EQ(why, "block 'split': block 'then' is entered from outside its branch");
  EXPECT_FALSE(detect_branching(*g, start, &why));  // `then` is reached by both of its branches
  EXPECT_EQ(why, "block 'start': block 'then' is entered from outside its branch");
  auto before = g->clone_sdfg();
  EXPECT_FALSE(raise_all(*g));
  EXPECT_EQ(count_blocks(*g, ir::BlockKind::Conditional), 0);
  expect_same(*before, *g, [](int64_t n) {
    std::vector<double> a(4, 0.0);
    if (n > 0 && !(n > 2)) put_ref(a, 0, 2);
    else put_ref(a, 0, 1);
    put_ref(a, 1, 3);
    return a;
  });
}

TEST(TransformControlFlowRaising, RefusesConditionsThatLeaveACaseOpen) {
  // if N > 2: A[0] = 1 / if N < 0: A[0] = 2: for 0 <= N <= 2 the state machine stops at `start`
  // (A[1] stays 0), while a conditional would go on to the join.
  auto g = program("open_case");
  int start = 0;
  add_state(*g, *g, "start", &start);
  int t = put(*g, *g, "then", "0", "1"), e = put(*g, *g, "else", "0", "2"), m = put(*g, *g, "join", "1", "3");
  add_interstate(*g, start, t, "(N > 2)");
  add_interstate(*g, start, e, "(N < 0)");
  add_interstate(*g, t, m);
  add_interstate(*g, e, m);
  std::string why;
  EXPECT_FALSE(detect_branching(*g, start, &why));
  EXPECT_EQ(why, "block 'start': its out-edges may all be false (the region would end there)");
  auto before = g->clone_sdfg();
  EXPECT_FALSE(raise_all(*g));
  expect_same(*before, *g, [](int64_t n) {
    std::vector<double> a(4, 0.0);
    if (n > 2) put_ref(a, 0, 1);
    else if (n < 0) put_ref(a, 0, 2);
    else return a;
    put_ref(a, 1, 3);
    return a;
  });
}

TEST(TransformControlFlowRaising, SameInputSameBytes) {
  auto make = [] {
    auto g = program("bytes");
    int start = 0;
    add_state(*g, *g, "start", &start);
    int t = put(*g, *g, "then", "0", "1"), e = put(*g, *g, "else", "0", "2"), m = put(*g, *g, "join", "1", "3");
    add_interstate(*g, start, t, "(N > 2)", {{"k", "1"}});
    add_interstate(*g, start, e, "(not (N > 2))");
    add_interstate(*g, t, m, "1", {{"k", "2"}});
    add_interstate(*g, e, m);
    return g;
  };
  auto a = make(), b = make();
  ASSERT_TRUE(raise_all(*a));
  ASSERT_TRUE(raise_all(*b));
  EXPECT_EQ(ir::json::write_sdfg(*a), ir::json::write_sdfg(*b));
}

// Every corpus SDFG (raw and DaCe-simplified), simplified by us and then raised: validated,
// deterministic, compiled and run against NumPy.
class ControlFlowRaisingCorpus : public ::testing::TestWithParam<codegen::testing::CorpusFile> {};

TEST_P(ControlFlowRaisingCorpus, RaisedMatchesNumPy) {
  const auto& cf = GetParam();
  Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  ir::SDFG& g = **sdfg;
  AnalysisManager am;
  Result<bool> simp = run_pass(g, *make_simplify_pipeline(), am);
  ASSERT_TRUE(simp.ok()) << simp.error().message;
  std::unique_ptr<ir::SDFG> twin = g.clone_sdfg();
  const bool changed = raise_all(g);
  raise_all(*twin);
  EXPECT_EQ(ir::json::write_sdfg(*twin), ir::json::write_sdfg(g));  // same input, same bytes
  std::printf("[ raise ] %s: %d conditional block(s), %d loop(s)\n", cf.name.c_str(),
              count_blocks(g, ir::BlockKind::Conditional), count_blocks(g, ir::BlockKind::Loop));
  if (!changed) return;
  Result<codegen::testing::CompiledProgram> prog = codegen::testing::compile(g);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  codegen::testing::run_corpus_case(cf.dir, g, *prog);
}

INSTANTIATE_TEST_SUITE_P(Corpus, ControlFlowRaisingCorpus,
                         ::testing::ValuesIn(codegen::testing::simp_and_raw_files(codegen::testing::corpus_case_dirs())),
                         [](const ::testing::TestParamInfo<codegen::testing::CorpusFile>& info) {
                           std::string s = info.param.name;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

}  // namespace
}  // namespace dace::transform::testing
