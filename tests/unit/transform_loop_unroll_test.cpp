// LoopUnroll on hand-built loop regions: constant-trip loops become one body copy per
// iteration with the variable replaced by its value (memlets, tasklet code, map ranges,
// interstate edges) and compute what plain C++ loops compute; partial unrolling (`count` > 1)
// runs count copies per iteration and a remainder loop, also for symbolic trip counts;
// symbolic trip counts (full unrolling), counts of 1 or below and variables that cannot be
// replaced are refused.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/sdfg.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

struct Loop {
  std::unique_ptr<ir::SDFG> g;
  ir::LoopRegion* loop = nullptr;
  ir::State* body = nullptr;
};

// start -> for (i = init; cond; i = update) { body } -> end, over A[0:N], B[0:N], C[0:N, 0:N].
Loop make_loop(const std::string& init, const std::string& cond, const std::string& update) {
  Loop l;
  l.g = std::make_unique<ir::SDFG>();
  ir::SDFG& g = *l.g;
  g.name = "unroll";
  g.symbols["N"] = ir::DType::of(T::Int64);
  add_array(g, "A", T::Float64, {"N"});
  add_array(g, "B", T::Float64, {"N"});
  add_array(g, "C", T::Float64, {"N", "N"});
  l.loop = add_test_loop(g, "for_1", init, cond, update).loop;
  l.body = &add_state(*l.loop, g, "body");
  return l;
}

int count_loops(const ir::SDFG& g) {
  int n = 0;
  for (int b : g.block_slots()) n += g.block(b)->kind == ir::BlockKind::Loop;
  return n;
}

std::string why(ir::SDFG& g, const std::string& props = "") {
  std::unique_ptr<Transformation> t = make_transformation("LoopUnroll");
  if (!props.empty()) {
    EXPECT_TRUE(t->properties().set_from_json(props).ok());
  }
  AnalysisManager am;
  std::string reasons;
  for (const Match& m : t->enumerate(g, am)) {
    EXPECT_FALSE(t->can_be_applied(g, m, am));
    reasons += t->why_not() + "\n";
  }
  return reasons;
}

TEST(TransformLoopUnroll, ConstantLoopBecomesOneStatePerIteration) {
  // for (i = 0; i < 4; ++i) B[i] = A[i] * i + 1: the variable is in memlets and tasklet code.
  Loop l = make_loop("0", "(i < 4)", "(i + 1)");
  const int t = tasklet(*l.body, "y = x * i + 1", {"x"}, {"y"});
  edge(*l.body, access(*l.body, "A"), "", t, "x", "A[i]");
  edge(*l.body, t, "y", access(*l.body, "B"), "", "B[i]");
  ASSERT_TRUE(apply_once(*l.g, "LoopUnroll"));
  EXPECT_EQ(count_loops(*l.g), 0);
  EXPECT_EQ(l.g->all_states().size(), 6u);  // start, 4 copies, end
  std::vector<std::string> labels;
  for (const ir::State* s : l.g->all_states()) labels.push_back(s->label);
  EXPECT_NE(std::find(labels.begin(), labels.end(), "body_i_3"), labels.end());
  std::vector<double> a{1, 2, 3, 4, 5}, b(5, -1), c(25, 0), want = b;
  for (int i = 0; i < 4; ++i) want[static_cast<size_t>(i)] = a[static_cast<size_t>(i)] * i + 1;
  run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", 5}});
  EXPECT_EQ(b, want);
}

TEST(TransformLoopUnroll, MultiStateBodyInterstateEdgesAndInnerMap) {
  // for (i = 3; i >= 1; --i) { k = i + 1; for j in [0, i]: C[i, j] = A[j] * k; B[i] = k }
  Loop l = make_loop("3", "(i >= 1)", "(i - 1)");
  l.g->symbols["k"] = ir::DType::of(T::Int64);
  ir::State& s1 = *l.body;
  auto [en, ex] = map(s1, {"j"}, "0:i + 1");
  const int t = tasklet(s1, "y = x * k", {"x"}, {"y"});
  edge_in(s1, access(s1, "A"), en, t, "x", "A[0:i + 1]", "A[j]");
  edge_out(s1, t, "y", ex, access(s1, "C"), "C[i, j]", "C[i, 0:i + 1]");
  int second = 0;
  const int first = l.loop->slot_of(&s1);
  ir::State& s2 = add_state(*l.loop, *l.g, "second", &second);
  const int t2 = tasklet(s2, "y = k", {}, {"y"});
  edge(s2, t2, "y", access(s2, "B"), "", "B[i]");
  // k is set before the loop and on the body's own edge, from the variable (the condition
  // always holds; it checks that conditions are rewritten too).
  add_interstate(*l.loop, first, second, "(i > 0)", {{"k", "(i + 1)"}});
  for (int e : l.g->edge_slots())
    if (l.g->edge(e)->dst == l.g->slot_of(l.loop)) l.g->edge(e)->assignments = {{"k", "4"}};
  ASSERT_TRUE(apply_once(*l.g, "LoopUnroll"));
  EXPECT_EQ(count_loops(*l.g), 0);
  std::vector<double> a{1, 2, 3, 4}, b(4, 0), c(16, 0), wb = b, wc = c;
  int64_t k = 4;
  for (int i = 3; i >= 1; --i) {
    for (int j = 0; j <= i; ++j) wc[static_cast<size_t>(i * 4 + j)] = a[static_cast<size_t>(j)] * static_cast<double>(k);
    k = i + 1;
    wb[static_cast<size_t>(i)] = static_cast<double>(k);
  }
  run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", 4}});
  EXPECT_EQ(b, wb);
  EXPECT_EQ(c, wc);
}

TEST(TransformLoopUnroll, SymbolicStartWithConstantTripCount) {
  // for (i = N - 3; i < N; ++i) B[i] = A[i - N + 3]: values N - 3, N - 2, N - 1.
  Loop l = make_loop("(N - 3)", "(i < N)", "(i + 1)");
  const int t = tasklet(*l.body, "y = x", {"x"}, {"y"});
  edge(*l.body, access(*l.body, "A"), "", t, "x", "A[i - N + 3]");
  edge(*l.body, t, "y", access(*l.body, "B"), "", "B[i]");
  ASSERT_TRUE(apply_once(*l.g, "LoopUnroll"));
  EXPECT_EQ(l.g->all_states().size(), 5u);
  std::vector<double> a{7, 8, 9, 0, 0, 0}, b(6, 0), c(36, 0);
  run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", 6}});
  EXPECT_EQ(b, (std::vector<double>{0, 0, 0, 7, 8, 9}));
}

TEST(TransformLoopUnroll, ZeroIterationsLeaveAnEmptyState) {
  Loop l = make_loop("5", "(i < 2)", "(i + 1)");
  const int t = tasklet(*l.body, "y = 1", {}, {"y"});
  edge(*l.body, t, "y", access(*l.body, "B"), "", "B[i]");
  ASSERT_TRUE(apply_once(*l.g, "LoopUnroll"));
  EXPECT_EQ(l.g->all_states().size(), 3u);
  std::vector<double> a(3, 0), b(3, 5), c(9, 0);
  run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", 3}});
  EXPECT_EQ(b, (std::vector<double>(3, 5)));
}

std::optional<Match> unroll_by(ir::SDFG& g, int64_t count) {
  std::unique_ptr<Transformation> t = make_transformation("LoopUnroll");
  EXPECT_TRUE(t->properties().set_from_json("{\"count\": " + std::to_string(count) + "}").ok());
  AnalysisManager am;
  Result<std::optional<Match>> m = apply_first(g, *t, am);
  EXPECT_TRUE(m.ok()) << m.error().message;
  EXPECT_TRUE(m.ok() && *m) << t->why_not();
  Status v = analysis::validate(g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return m.ok() ? *m : std::nullopt;
}

TEST(TransformLoopUnroll, PartialUnrollingOfASymbolicTripCount) {
  // for (i = 0; i < N; ++i) B[i] = A[i] * i + 1, by 3: a main loop of three copies and a
  // remainder loop, for every N mod 3 (and N = 0).
  for (int64_t n = 0; n <= 8; ++n) {
    Loop l = make_loop("0", "(i < N)", "(i + 1)");
    const int t = tasklet(*l.body, "y = x * i + 1", {"x"}, {"y"});
    edge(*l.body, access(*l.body, "A"), "", t, "x", "A[i]");
    edge(*l.body, t, "y", access(*l.body, "B"), "", "B[i]");
    ASSERT_TRUE(unroll_by(*l.g, 3));
    EXPECT_EQ(count_loops(*l.g), 2);
    EXPECT_EQ(l.g->all_states().size(), 6u);  // start, 3 copies, the remainder's body, end
    std::vector<double> a(10), b(10, -5), c(100, 0), want = b;
    for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<double>(k) + 0.5;
    for (int64_t i = 0; i < n; ++i) want[static_cast<size_t>(i)] = a[static_cast<size_t>(i)] * static_cast<double>(i) + 1;
    run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", n}});
    EXPECT_EQ(b, want) << "N = " << n;
  }
}

TEST(TransformLoopUnroll, PartialUnrollingDownwardWithStepTwo) {
  // for (i = N - 1; i >= 0; i -= 2) B[i] = A[i] + B[i + 1]: order matters across copies.
  for (int64_t n = 0; n <= 9; ++n) {
    Loop l = make_loop("(N - 1)", "(i >= 0)", "(i - 2)");
    const int t = tasklet(*l.body, "y = x + z", {"x", "z"}, {"y"});
    edge(*l.body, access(*l.body, "A"), "", t, "x", "A[i]");
    edge(*l.body, access(*l.body, "B"), "", t, "z", "B[i + 1]");
    edge(*l.body, t, "y", access(*l.body, "B"), "", "B[i]");
    ASSERT_TRUE(unroll_by(*l.g, 2));
    std::vector<double> a(12), b(12, 1), c(144, 0), want = b;
    for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<double>(k * k) - 3;
    for (int64_t i = n - 1; i >= 0; i -= 2)
      want[static_cast<size_t>(i)] = a[static_cast<size_t>(i)] + want[static_cast<size_t>(i + 1)];
    run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", n}});
    EXPECT_EQ(b, want) << "N = " << n;
  }
}

TEST(TransformLoopUnroll, PartialUnrollingOfAMultiStateBody) {
  // for (i = N; i >= 1; --i) { k = i + 1 (conditional edge); B[i] = k + B[i - 1] }, by 4.
  for (int64_t n : {0, 1, 3, 4, 6, 9}) {
    Loop l = make_loop("N", "(i >= 1)", "(i - 1)");
    l.g->symbols["k"] = ir::DType::of(T::Int64);
    ir::State& s1 = *l.body;
    int second = 0;
    const int first = l.loop->slot_of(&s1);
    ir::State& s2 = add_state(*l.loop, *l.g, "second", &second);
    const int t2 = tasklet(s2, "y = k + z", {"z"}, {"y"});
    edge(s2, access(s2, "B"), "", t2, "z", "B[i - 1]");
    edge(s2, t2, "y", access(s2, "B"), "", "B[i]");
    add_interstate(*l.loop, first, second, "(i > 0)", {{"k", "(i + 1)"}});
    ASSERT_TRUE(unroll_by(*l.g, 4));
    std::vector<double> a(12, 0), b(12), c(144, 0);
    for (size_t k = 0; k < b.size(); ++k) b[k] = static_cast<double>(k) * 2;
    std::vector<double> want = b;
    for (int64_t i = n; i >= 1; --i)
      want[static_cast<size_t>(i)] = static_cast<double>(i + 1) + want[static_cast<size_t>(i - 1)];
    run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", n}});
    EXPECT_EQ(b, want) << "N = " << n;
  }
}

TEST(TransformLoopUnroll, PartialUnrollingRefusesABodyThatMovesTheBound) {
  // for (i = 0; i < M; ++i) { B[i] = 1; M = M - 1 }: checking i + 1 < M once for two copies
  // would run the second copy after M moved below it.
  Loop l = make_loop("0", "(i < M)", "(i + 1)");
  l.g->symbols["M"] = ir::DType::of(T::Int64);
  int second = 0;
  const int first = l.loop->slot_of(l.body);
  const int t = tasklet(*l.body, "y = 1", {}, {"y"});
  edge(*l.body, t, "y", access(*l.body, "B"), "", "B[i]");
  add_state(*l.loop, *l.g, "second", &second);
  add_interstate(*l.loop, first, second, "1", {{"M", "(M - 1)"}});
  EXPECT_NE(why(*l.g, R"({"count": 2})").find("assigns 'M', which the loop condition reads"), std::string::npos);
}

TEST(TransformLoopUnroll, RefusesSymbolicTripCounts) {
  Loop l = make_loop("0", "(i < N)", "(i + 1)");
  const int t = tasklet(*l.body, "y = x", {"x"}, {"y"});
  edge(*l.body, access(*l.body, "A"), "", t, "x", "A[i]");
  edge(*l.body, t, "y", access(*l.body, "B"), "", "B[i]");
  const std::string r = why(*l.g);
  EXPECT_NE(r.find("trip count"), std::string::npos) << r;
}

TEST(TransformLoopUnroll, RefusesCountsBelowTwoAndUnrewritableUses) {
  Loop l = make_loop("0", "(i < 4)", "(i + 1)");
  const int t = tasklet(*l.body, "y = x", {"x"}, {"y"});
  edge(*l.body, access(*l.body, "A"), "", t, "x", "A[i]");
  edge(*l.body, t, "y", access(*l.body, "B"), "", "B[i]");
  EXPECT_NE(why(*l.g, R"({"count": 1})").find("count 1 is neither"), std::string::npos);
  EXPECT_NE(why(*l.g, R"({"count": -2})").find("count -2 is neither"), std::string::npos);

  // A C++ tasklet naming the variable cannot be rewritten.
  Loop cpp = make_loop("0", "(i < 4)", "(i + 1)");
  const int tc = tasklet(*cpp.body, "y = x * i;", {"x"}, {"y"});
  static_cast<ir::Tasklet*>(cpp.body->node(tc))->code.language = ir::Language::CPP;
  edge(*cpp.body, access(*cpp.body, "A"), "", tc, "x", "A[0]");
  edge(*cpp.body, tc, "y", access(*cpp.body, "B"), "", "B[0]");
  EXPECT_NE(why(*cpp.g).find("not Python"), std::string::npos);

  // A transient sized by the variable (syrk's `__tmp2[i + 1]`) would lose its size.
  Loop sized = make_loop("0", "(i < 4)", "(i + 1)");
  add_array(*sized.g, "tmp", T::Float64, {"i + 1"}, true);
  const int ts = tasklet(*sized.body, "y = 1", {}, {"y"});
  edge(*sized.body, ts, "y", access(*sized.body, "tmp"), "", "tmp[0]");
  EXPECT_NE(why(*sized.g).find("sized by the loop variable"), std::string::npos);
}

}  // namespace
}  // namespace dace::transform::testing
