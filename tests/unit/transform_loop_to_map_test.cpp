// LoopToMap on hand-built loop regions: independent loops become maps and give the results
// of plain C++ loops; loops with a carried dependence are refused, naming the container.
#include <gtest/gtest.h>

#include <cstdio>

#include "codegen_test_builder.h"
#include "corpus_case.h"
#include "ir/entry_block.h"
#include "ir/json/sdfg_json.h"
#include "ir/sdfg.h"
#include "transform/loop_lifting.h"
#include "transform/simplify.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

struct Loop {
  std::unique_ptr<ir::SDFG> g;
  ir::State* body = nullptr;
};

// start -> for (i = init; cond; i = update) { body } -> end, over A[0:N], B[0:N], s[1].
Loop make_loop(const std::string& init, const std::string& cond, const std::string& update) {
  Loop l;
  l.g = std::make_unique<ir::SDFG>();
  ir::SDFG& g = *l.g;
  g.name = "l2m";
  g.symbols["N"] = ir::DType::of(T::Int64);
  add_array(g, "A", T::Float64, {"N"});
  add_array(g, "B", T::Float64, {"N"});
  add_array(g, "s", T::Float64, {"1"});
  l.body = &add_state(*add_test_loop(g, "for_1", init, cond, update).loop, g, "body");
  return l;
}

// dst[wi] = src[ri] <op>, one tasklet.
void assign(ir::State& s, const std::string& dst, const std::string& wi, const std::string& src,
            const std::string& ri, const std::string& rhs, const std::string& wcr = "") {
  int t = tasklet(s, "y = " + rhs, {"x"}, {"y"});
  edge(s, access(s, src), "", t, "x", src + "[" + ri + "]");
  edge(s, t, "y", access(s, dst), "", dst + "[" + wi + "]", wcr);
}

std::string why(ir::SDFG& g) {
  std::string reasons;
  EXPECT_FALSE(applies_anywhere(g, "LoopToMap", &reasons));
  return reasons;
}

TEST(TransformLoopToMap, IndependentLoopBecomesAMap) {
  Loop l = make_loop("0", "(i < N)", "(i + 1)");
  assign(*l.body, "B", "i", "A", "i", "x * 2");
  ASSERT_TRUE(apply_once(*l.g, "LoopToMap"));
  EXPECT_EQ(count_nodes(*l.g, ir::NodeKind::MapEntry), 1);
  std::vector<double> a{1, 2, 3, 4, 5}, b(5, 0), s(1, 0), want(5, 0);
  for (size_t i = 0; i < 5; ++i) want[i] = a[i] * 2;
  run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"s", &s}}, {{"N", 5}});
  EXPECT_EQ(b, want);
}

TEST(TransformLoopToMap, RefusesACarriedDependence) {
  Loop l = make_loop("1", "(i < N)", "(i + 1)");
  assign(*l.body, "A", "i", "A", "i - 1", "x + 1");
  const std::string r = why(*l.g);
  EXPECT_NE(r.find("dependence on 'A'"), std::string::npos) << r;
}

TEST(TransformLoopToMap, SameElementUpdateIsConverted) {
  Loop l = make_loop("0", "(i < N)", "(i + 1)");
  assign(*l.body, "A", "i", "A", "i", "x + 1");
  ASSERT_TRUE(apply_once(*l.g, "LoopToMap"));
  std::vector<double> a{1, 2, 3, 4}, b(4, 0), s(1, 0);
  run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"s", &s}}, {{"N", 4}});
  EXPECT_EQ(a, (std::vector<double>{2, 3, 4, 5}));
}

TEST(TransformLoopToMap, ReductionNeedsWcr) {
  Loop plain = make_loop("0", "(i < N)", "(i + 1)");
  assign(*plain.body, "s", "0", "A", "i", "x");
  EXPECT_NE(why(*plain.g).find("'s'"), std::string::npos);

  Loop l = make_loop("0", "(i < N)", "(i + 1)");
  assign(*l.body, "s", "0", "A", "i", "x", "lambda a, b: a + b");
  ASSERT_TRUE(apply_once(*l.g, "LoopToMap"));
  std::vector<double> a{1, 2, 3, 4}, b(4, 0), s(1, 0);
  run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"s", &s}}, {{"N", 4}});
  EXPECT_EQ(s[0], 10.0);
}

TEST(TransformLoopToMap, StepTwoSymbolicBoundsAndDownwardLoops) {
  // for (i = 0; i <= N - 1; i += 2) A[i + 1] = A[i] + 1: odd and even elements never meet.
  Loop l = make_loop("0", "(i <= (N - 2))", "(i + 2)");
  assign(*l.body, "A", "i + 1", "A", "i", "x + 1");
  ASSERT_TRUE(apply_once(*l.g, "LoopToMap"));
  std::vector<double> a{1, 2, 3, 4, 5, 6}, want = a, b(6, 0), s(1, 0);
  for (size_t i = 0; i + 1 < 6; i += 2) want[i + 1] = want[i] + 1;
  run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"s", &s}}, {{"N", 6}});
  EXPECT_EQ(a, want);

  // The same with step 1 reads what the previous iteration wrote: refused.
  Loop dep = make_loop("0", "(i < (N - 1))", "(i + 1)");
  assign(*dep.body, "A", "i + 1", "A", "i", "x + 1");
  EXPECT_NE(why(*dep.g).find("'A'"), std::string::npos);

  Loop down = make_loop("(N - 1)", "(i >= 0)", "(i - 1)");
  assign(*down.body, "B", "i", "A", "i", "x * 3");
  ASSERT_TRUE(apply_once(*down.g, "LoopToMap"));
  std::vector<double> a2{1, 2, 3}, b2(3, 0), s2(1, 0);
  run_sdfg(*down.g, {{"A", &a2}, {"B", &b2}, {"s", &s2}}, {{"N", 3}});
  EXPECT_EQ(b2, (std::vector<double>{3, 6, 9}));
}

TEST(TransformLoopToMap, SymbolsMayBeZeroOrNegative) {
  // B[i, k] = B[i + 1, 0] conflicts only when k == 0 (k could be an outer loop's variable):
  // the test must not assume symbols are positive.
  Loop l = make_loop("0", "(i < (N - 1))", "(i + 1)");
  l.g->symbols["k"] = ir::DType::of(T::Int64);
  add_array(*l.g, "C", T::Float64, {"N", "N"});
  assign(*l.body, "C", "i, k", "C", "i + 1, 0", "x");
  EXPECT_NE(why(*l.g).find("'C'"), std::string::npos);
}

TEST(TransformLoopToMap, TheLoopRangeBoundsBothIterations) {
  // for i in [0, N): C[i] = C[i + N] over C[0:2N]: halves never meet inside the range, but
  // would for i and j outside it (i = j + N).
  Loop l = make_loop("0", "(i < N)", "(i + 1)");
  add_array(*l.g, "C", T::Float64, {"2 * N"});
  assign(*l.body, "C", "i", "C", "i + N", "x + 1");
  ASSERT_TRUE(apply_once(*l.g, "LoopToMap"));
  std::vector<double> a(3, 0), b(3, 0), sv(1, 0), c{1, 2, 3, 4, 5, 6};
  run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"s", &sv}, {"C", &c}}, {{"N", 3}});
  EXPECT_EQ(c, (std::vector<double>{5, 6, 7, 4, 5, 6}));

  // The same over [0, N]: iteration 0 reads C[N], which iteration N writes: refused.
  Loop r = make_loop("0", "(i <= N)", "(i + 1)");
  add_array(*r.g, "C", T::Float64, {"2 * N + 1"});
  assign(*r.body, "C", "i", "C", "i + N", "x + 1");
  EXPECT_NE(why(*r.g).find("'C'"), std::string::npos);
}

// for i in [0, N): C[i + k] = C[i] + 1 over C[0:2N], with `assignments` on the edge into the
// loop (none: k is a free symbol, any integer).
Loop offset_loop(const std::vector<std::pair<std::string, std::string>>& assignments) {
  Loop l;
  l.g = std::make_unique<ir::SDFG>();
  ir::SDFG& g = *l.g;
  g.name = "l2m_offset";
  for (const char* n : {"N", "k"}) g.symbols[n] = ir::DType::of(T::Int64);
  add_array(g, "C", T::Float64, {"2 * N"});
  TestLoop t = add_test_loop(g, "for_1", "0", "(i < N)", "(i + 1)");
  l.body = &add_state(*t.loop, g, "body");
  assign(*l.body, "C", "i + k", "C", "i", "x + 1");
  g.edge(g.in_edges(t.slot).at(0))->assignments = assignments;
  return l;
}

// The range of a symbol assigned before the loop reaches the dependence test: with k = N the
// written half never meets the read one, and with k = 0 each iteration updates its own
// element; k unknown could be 1 (iteration i + 1 reads what i wrote). Results against a
// plain loop.
TEST(TransformLoopToMap, AssignedSymbolRangesProveIndependence) {
  Loop free_k = offset_loop({});
  EXPECT_NE(why(*free_k.g).find("'C'"), std::string::npos);

  Loop halves = offset_loop({{"k", "N"}});
  ASSERT_TRUE(apply_once(*halves.g, "LoopToMap"));
  EXPECT_EQ(count_nodes(*halves.g, ir::NodeKind::MapEntry), 1);
  std::vector<double> c{1, 2, 3, 4, 5, 6}, want = c;
  for (size_t i = 0; i < 3; ++i) want[i + 3] = want[i] + 1;
  run_sdfg(*halves.g, {{"C", &c}}, {{"N", 3}});
  EXPECT_EQ(c, want);

  Loop same = offset_loop({{"k", "0"}});
  ASSERT_TRUE(apply_once(*same.g, "LoopToMap"));
  std::vector<double> c0{1, 2, 3, 4, 5, 6};
  run_sdfg(*same.g, {{"C", &c0}}, {{"N", 3}});
  EXPECT_EQ(c0, (std::vector<double>{2, 3, 4, 4, 5, 6}));
}

// k = 1 is a real carried dependence; k = 0 set on one branch only does not hold where the
// loop runs (the other branch keeps the caller's k): both stay loops.
TEST(TransformLoopToMap, AssignedSymbolRangesKeepRealDependences) {
  Loop one = offset_loop({{"k", "1"}});
  const std::string r = why(*one.g);
  EXPECT_NE(r.find("loop-carried dependence on 'C'"), std::string::npos) << r;

  Loop branch = offset_loop({});
  ir::SDFG& g = *branch.g;
  const int start = ir::entry_block(g);
  const int into_loop = g.out_edges(start).at(0);
  int side = 0;
  add_state(g, g, "side", &side);
  add_interstate(g, start, side, "(N > 2)", {{"k", "0"}});
  add_interstate(g, side, g.edge(into_loop)->dst);
  g.edge(into_loop)->condition.code = "(N <= 2)";
  EXPECT_NE(why(g).find("'C'"), std::string::npos);
}

// for t in [first, M): for i in [0, N - 1): C[i, t] = C[i + 1, 0]. The inner iterations
// conflict only when t is 0 (SymbolsMayBeZeroOrNegative): the outer loop's range, t >= 1,
// makes the inner loop a map; from t = 0 it stays a loop.
struct TwoLoops {
  std::unique_ptr<ir::SDFG> g = std::make_unique<ir::SDFG>();
  explicit TwoLoops(const std::string& first) {
    g->name = "l2m_nested";
    for (const char* n : {"N", "M"}) g->symbols[n] = ir::DType::of(T::Int64);
    add_array(*g, "C", T::Float64, {"N", "M"});
    ir::LoopRegion& outer = *add_test_loop(*g, "for_t", first, "(t < M)", "(t + 1)", "t").loop;
    int slot = outer.add_block(make_test_loop(*g, "for_i", "i", "0", "(i < (N - 1))", "(i + 1)"));
    ir::relink_parents(*g);
    auto& inner = static_cast<ir::ControlFlowRegion&>(*outer.block(slot));
    assign(add_state(inner, *g, "body"), "C", "i, t", "C", "i + 1, 0", "x");
  }
  // LoopToMap's match on the inner loop (the only one not in the SDFG's own region).
  Match inner_match(Transformation& t, AnalysisManager& am) {
    for (const Match& m : t.enumerate(*g, am))
      if (m.cfg_id != 0) return m;
    ADD_FAILURE() << "no match on the inner loop";
    return {};
  }
};

TEST(TransformLoopToMap, OuterLoopRangeBoundsTheInnerDependenceTest) {
  TwoLoops from1("1");
  std::unique_ptr<Transformation> t = make_transformation("LoopToMap");
  AnalysisManager am;
  const Match m = from1.inner_match(*t, am);
  ASSERT_TRUE(t->can_be_applied(*from1.g, m, am)) << t->why_not();
  ASSERT_TRUE(t->apply(*from1.g, m, am).ok());
  EXPECT_EQ(count_nodes(*from1.g, ir::NodeKind::MapEntry), 1);
  const int64_t n = 4, cols = 3;
  std::vector<double> c(n * cols), want;
  for (size_t x = 0; x < c.size(); ++x) c[x] = static_cast<double>(x + 1);
  want = c;
  for (int64_t tt = 1; tt < cols; ++tt)
    for (int64_t i = 0; i < n - 1; ++i) want[i * cols + tt] = want[(i + 1) * cols];
  run_sdfg(*from1.g, {{"C", &c}}, {{"N", n}, {"M", cols}});
  EXPECT_EQ(c, want);

  TwoLoops from0("0");
  AnalysisManager am0;
  const Match m0 = from0.inner_match(*t, am0);
  EXPECT_FALSE(t->can_be_applied(*from0.g, m0, am0));
  EXPECT_NE(t->why_not().find("'C'"), std::string::npos) << t->why_not();
}

TEST(TransformLoopToMap, RefusesHeadersItCannotReadAsARange) {
  Loop l = make_loop("0", "(i < N)", "(i * 2)");
  assign(*l.body, "B", "i", "A", "i", "x");
  EXPECT_NE(why(*l.g).find("header"), std::string::npos);
  Loop down = make_loop("N", "(i > 0)", "(i - 2)");
  assign(*down.body, "B", "i - 1", "A", "i - 1", "x");
  EXPECT_NE(why(*down.g).find("negative step"), std::string::npos);
}

TEST(TransformLoopToMap, PrivatizesATransientWrittenBeforeItIsRead) {
  // for i: t = A[i] * 2; B[i] = t + 1, with t a transient scalar: one t per iteration.
  Loop l = make_loop("0", "(i < N)", "(i + 1)");
  ir::DataDescriptor t;
  t.kind = ir::DataKind::Scalar;
  t.dtype = ir::DType::of(T::Float64);
  t.shape = {sym::integer(1)};
  t.transient = true;
  l.g->arrays["t"] = t;
  ir::State& s = *l.body;
  const int t1 = tasklet(s, "y = x * 2", {"x"}, {"y"});
  const int t2 = tasklet(s, "y = x + 1", {"x"}, {"y"});
  const int tn = access(s, "t");
  edge(s, access(s, "A"), "", t1, "x", "A[i]");
  edge(s, t1, "y", tn, "", "t[0]");
  edge(s, tn, "", t2, "x", "t[0]");
  edge(s, t2, "y", access(s, "B"), "", "B[i]");
  std::unique_ptr<ir::SDFG> shared = l.g->clone_sdfg();
  ASSERT_TRUE(apply_once(*l.g, "LoopToMap"));
  std::vector<double> a{1, 2, 3}, b(3, 0), sv(1, 0);
  run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"s", &sv}}, {{"N", 3}});
  EXPECT_EQ(b, (std::vector<double>{3, 5, 7}));

  // The same transient read after the loop is shared: refused, naming it.
  ir::State& after = add_state(*shared, *shared, "after");
  int last = 0;
  for (int b2 : shared->block_slots())
    if (shared->block(b2)->label == "end") last = b2;
  add_interstate(*shared, last, shared->slot_of(&after));
  edge(after, access(after, "t"), "", access(after, "s"), "", "t[0] -> [0]");
  const std::string r = why(*shared);
  EXPECT_NE(r.find("'t'"), std::string::npos) << r;
}

TEST(TransformLoopToMap, BodyWithAnInnerMap) {
  // for i: map j: C[i, j] = A[j] + i  -> rows are independent; the inner map nests.
  Loop l = make_loop("0", "(i < N)", "(i + 1)");
  add_array(*l.g, "C", T::Float64, {"N", "N"});
  ir::State& s = *l.body;
  auto [en, ex] = map(s, {"j"}, "0:N");
  const int t = tasklet(s, "y = x + i", {"x"}, {"y"});
  edge_in(s, access(s, "A"), en, t, "x", "A[0:N]", "A[j]");
  edge_out(s, t, "y", ex, access(s, "C"), "C[i, j]", "C[i, 0:N]");
  ASSERT_TRUE(apply_once(*l.g, "LoopToMap"));
  EXPECT_EQ(count_nodes(*l.g, ir::NodeKind::MapEntry), 2);
  std::vector<double> a{1, 2, 3}, b(3, 0), sv(1, 0), c(9, 0), want(9, 0);
  for (size_t i = 0; i < 3; ++i)
    for (size_t j = 0; j < 3; ++j) want[i * 3 + j] = a[j] + static_cast<double>(i);
  run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"s", &sv}, {"C", &c}}, {{"N", 3}});
  EXPECT_EQ(c, want);

  // Writing a whole row C[0, 0:N] every iteration is an output dependence: refused.
  Loop w = make_loop("0", "(i < N)", "(i + 1)");
  add_array(*w.g, "C", T::Float64, {"N", "N"});
  ir::State& s2 = *w.body;
  auto [en2, ex2] = map(s2, {"j"}, "0:N");
  const int t2 = tasklet(s2, "y = x + i", {"x"}, {"y"});
  edge_in(s2, access(s2, "A"), en2, t2, "x", "A[0:N]", "A[j]");
  edge_out(s2, t2, "y", ex2, access(s2, "C"), "C[0, j]", "C[0, 0:N]");
  EXPECT_NE(why(*w.g).find("'C'"), std::string::npos);
}

// Every corpus SDFG (raw and simplified): lifted, simplified, then LoopToMap wherever it is
// legal; validated, compiled and run against NumPy.
class LoopToMapCorpus : public ::testing::TestWithParam<codegen::testing::CorpusFile> {};

TEST_P(LoopToMapCorpus, MapsMatchNumPy) {
  const auto& cf = GetParam();
  Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  ir::SDFG& g = **sdfg;
  AnalysisManager am;
  PatternPass lifting(std::make_unique<LoopLifting>());
  ASSERT_TRUE(run_pass(g, lifting, am).ok());
  Result<bool> simp = run_pass(g, *make_simplify_pipeline(), am);
  ASSERT_TRUE(simp.ok()) << simp.error().message;
  std::unique_ptr<Transformation> t = make_transformation("LoopToMap");
  Result<int> n = apply_repeated(g, *t, am);
  ASSERT_TRUE(n.ok()) << n.error().message;
  std::string reasons;
  for (const Match& m : t->enumerate(g, am))
    if (!t->can_be_applied(g, m, am)) reasons += "\n    refused: " + t->why_not();
  std::printf("[ loop-to-map ] %s: %d loop(s) became maps%s\n", cf.name.c_str(), *n, reasons.c_str());
  Status v = analysis::validate(g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  if (*n == 0) return;
  Result<codegen::testing::CompiledProgram> prog = codegen::testing::compile(g);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  codegen::testing::run_corpus_case(cf.dir, g, *prog);
}

INSTANTIATE_TEST_SUITE_P(Corpus, LoopToMapCorpus,
                         ::testing::ValuesIn(codegen::testing::simp_and_raw_files(codegen::testing::corpus_case_dirs())),
                         [](const ::testing::TestParamInfo<codegen::testing::CorpusFile>& info) {
                           std::string s = info.param.name;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

}  // namespace
}  // namespace dace::transform::testing
