// LoopToMap on bodies of several states, inner loops and map-written transients: each body
// becomes a nested SDFG (or stays one state) inside the new map and gives the results of plain
// C++ loops; refusals name what forbids it, and each would be a wrong conversion without the
// check that gives it.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/sdfg.h"
#include "transform/nest_region.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

struct Loop {
  std::unique_ptr<ir::SDFG> g;
  ir::LoopRegion* loop = nullptr;
  int end = 0;
};

// start -> for (i = 0; i < bound; i = i + 1) { } -> end, over A[N], B[N], C[N, N], D[N].
Loop make_loop(const std::string& bound = "N") {
  Loop l;
  l.g = std::make_unique<ir::SDFG>();
  ir::SDFG& g = *l.g;
  g.name = "l2m_nested";
  g.symbols["N"] = ir::DType::of(T::Int64);
  for (const char* a : {"A", "B", "D"}) add_array(g, a, T::Float64, {"N"});
  add_array(g, "C", T::Float64, {"N", "N"});
  const TestLoop t = add_test_loop(g, "for_i", "0", "(i < " + bound + ")", "(i + 1)");
  l.loop = t.loop;
  l.end = t.end;
  return l;
}

// dst[wi] = f(src[ri]), one tasklet.
void assign(ir::State& s, const std::string& dst, const std::string& wi, const std::string& src,
            const std::string& ri, const std::string& rhs) {
  const int t = tasklet(s, "y = " + rhs, {"x"}, {"y"});
  edge(s, access(s, src), "", t, "x", src + "[" + ri + "]");
  edge(s, t, "y", access(s, dst), "", dst + "[" + wi + "]");
}

// Two states in sequence inside `r`.
std::pair<ir::State*, ir::State*> two_states(ir::ControlFlowRegion& r, ir::SDFG& g,
                                             std::vector<std::pair<std::string, std::string>> assignments = {}) {
  int a = 0, b = 0;
  ir::State& s1 = add_state(r, g, "first", &a);
  ir::State& s2 = add_state(r, g, "second", &b);
  add_interstate(r, a, b, "1", std::move(assignments));
  return {&s1, &s2};
}

std::string why(ir::SDFG& g) {
  std::string reasons;
  EXPECT_FALSE(applies_anywhere(g, "LoopToMap", &reasons));
  return reasons;
}

std::vector<double> iota(size_t n, double from) {
  std::vector<double> v(n);
  for (size_t k = 0; k < n; ++k) v[k] = from + static_cast<double>(k);
  return v;
}

TEST(TransformLoopToMapNested, TwoStateBodyBecomesAMapOverANestedSDFG) {
  // for i: B[i] = A[i] * 2; (next state) D[i] = B[i] + 1
  Loop l = make_loop();
  auto [s1, s2] = two_states(*l.loop, *l.g);
  assign(*s1, "B", "i", "A", "i", "x * 2");
  assign(*s2, "D", "i", "B", "i", "x + 1");
  ASSERT_TRUE(apply_once(*l.g, "LoopToMap"));
  EXPECT_EQ(count_nodes(*l.g, ir::NodeKind::MapEntry), 1);
  EXPECT_EQ(count_nodes(*l.g, ir::NodeKind::NestedSDFG), 1);
  const size_t n = 6;
  std::vector<double> a = iota(n, 1), b(n, 0), c(n * n, 0), d(n, 0), wb(n), wd(n);
  for (size_t i = 0; i < n; ++i) wb[i] = a[i] * 2, wd[i] = wb[i] + 1;
  run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"C", &c}, {"D", &d}}, {{"N", static_cast<int64_t>(n)}});
  EXPECT_EQ(b, wb);
  EXPECT_EQ(d, wd);
}

TEST(TransformLoopToMapNested, BodyWithAnInnerLoop) {
  // for i: D[i] = 0; for j < N: D[i] = D[i] + C[i, j] * A[j]   (row-wise matrix-vector product)
  Loop l = make_loop();
  int init = 0;
  ir::State& s0 = add_state(*l.loop, *l.g, "zero", &init);
  const int z = tasklet(s0, "y = 0", {}, {"y"});
  edge(s0, z, "y", access(s0, "D"), "", "D[i]");
  auto inner = std::make_unique<ir::LoopRegion>();
  inner->label = "for_j";
  inner->loop_variable = "j";
  inner->init_statement = ir::CodeBlock{"j = 0", ir::Language::Python};
  inner->loop_condition = ir::CodeBlock{"(j < N)", ir::Language::Python};
  inner->update_statement = ir::CodeBlock{"j = (j + 1)", ir::Language::Python};
  l.g->register_block(*inner);
  l.g->symbols["j"] = ir::DType::of(T::Int64);
  ir::LoopRegion* J = inner.get();
  const int js = l.loop->add_block(std::move(inner));
  add_interstate(*l.loop, init, js);
  ir::State& s = add_state(*J, *l.g, "acc");
  const int t = tasklet(s, "y = d + c * a", {"d", "c", "a"}, {"y"});
  edge(s, access(s, "D"), "", t, "d", "D[i]");
  edge(s, access(s, "C"), "", t, "c", "C[i, j]");
  edge(s, access(s, "A"), "", t, "a", "A[j]");
  edge(s, t, "y", access(s, "D"), "", "D[i]");
  ASSERT_TRUE(apply_once(*l.g, "LoopToMap"));
  EXPECT_EQ(count_nodes(*l.g, ir::NodeKind::MapEntry), 1);
  const size_t n = 5;
  std::vector<double> a = iota(n, 1), b(n, 0), c = iota(n * n, -3), d(n, 7), want(n, 0);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) want[i] += c[i * n + j] * a[j];
  run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"C", &c}, {"D", &d}}, {{"N", static_cast<int64_t>(n)}});
  EXPECT_EQ(d, want);
}

// for i: map j < W: T[j] = A[j] * i;  map j < N: C[i, j] = T[j] + 1, with T a transient of N.
Loop map_written_transient(const std::string& written) {
  Loop l = make_loop();
  add_array(*l.g, "T", T::Float64, {"N"}, true);
  ir::State& s = add_state(*l.loop, *l.g, "body");
  const int tn = access(s, "T");
  auto [e1, x1] = map(s, {"j"}, "0:" + written);
  const int t1 = tasklet(s, "y = x * i", {"x"}, {"y"});
  edge_in(s, access(s, "A"), e1, t1, "x", "A[0:N]", "A[j]");
  edge_out(s, t1, "y", x1, tn, "T[j]", "T[0:" + written + "]");
  auto [e2, x2] = map(s, {"j"}, "0:N");
  const int t2 = tasklet(s, "y = x + 1", {"x"}, {"y"});
  edge_in(s, tn, e2, t2, "x", "T[0:N]", "T[j]");
  edge_out(s, t2, "y", x2, access(s, "C"), "C[i, j]", "C[i, 0:N]");
  return l;
}

TEST(TransformLoopToMapNested, PrivatizesATransientWrittenByAMap) {
  Loop l = map_written_transient("N");
  ASSERT_TRUE(apply_once(*l.g, "LoopToMap"));
  EXPECT_EQ(count_nodes(*l.g, ir::NodeKind::MapEntry), 3);
  const size_t n = 4;
  std::vector<double> a = iota(n, 1), b(n, 0), c(n * n, 0), d(n, 0), want(n * n);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) want[i * n + j] = a[j] * static_cast<double>(i) + 1;
  run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"C", &c}, {"D", &d}}, {{"N", static_cast<int64_t>(n)}});
  EXPECT_EQ(c, want);

  // The map writes only T[0:N-1] but T[0:N] is read: T[N-1] would come from another
  // iteration, so T is shared and its whole-row writes conflict.
  Loop part = map_written_transient("N - 1");
  const std::string r = why(*part.g);
  EXPECT_NE(r.find("'T'"), std::string::npos) << r;
}

TEST(TransformLoopToMapNested, WcrSumAcrossStatesWithAPrivateScalar) {
  // for i: t = A[i] * 2; (next state) D[0] += t (WCR): t is private, the sum is resolved by
  // the WCR inside the nested SDFG.
  Loop l = make_loop();
  add_scalar(*l.g, "t", T::Float64, true);
  auto [s1, s2] = two_states(*l.loop, *l.g);
  assign(*s1, "t", "0", "A", "i", "x * 2");
  const int tk = tasklet(*s2, "y = x", {"x"}, {"y"});
  edge(*s2, access(*s2, "t"), "", tk, "x", "t[0]");
  edge(*s2, tk, "y", access(*s2, "D"), "", "D[0]", "lambda a, b: a + b");
  ASSERT_TRUE(apply_once(*l.g, "LoopToMap"));
  const size_t n = 7;
  std::vector<double> a = iota(n, 1), b(n, 0), c(n * n, 0), d(n, 0);
  double want = 0;
  for (size_t i = 0; i < n; ++i) want += a[i] * 2;
  run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"C", &c}, {"D", &d}}, {{"N", static_cast<int64_t>(n)}});
  EXPECT_EQ(d[0], want);
}

TEST(TransformLoopToMapNested, BranchOnTheDataOfTheIteration) {
  // for i: if A[i] > 3: B[i] = A[i] else: B[i] = -A[i]  (the condition reads A on an edge)
  Loop l = make_loop();
  int c0 = 0, yes = 0, no = 0, join = 0;
  add_state(*l.loop, *l.g, "test", &c0);
  ir::State& sy = add_state(*l.loop, *l.g, "yes", &yes);
  ir::State& sn = add_state(*l.loop, *l.g, "no", &no);
  add_state(*l.loop, *l.g, "join", &join);
  add_interstate(*l.loop, c0, yes, "(A[i] > 3)");
  add_interstate(*l.loop, c0, no, "(not (A[i] > 3))");
  add_interstate(*l.loop, yes, join);
  add_interstate(*l.loop, no, join);
  assign(sy, "B", "i", "A", "i", "x");
  assign(sn, "B", "i", "A", "i", "-x");
  ASSERT_TRUE(apply_once(*l.g, "LoopToMap"));
  const size_t n = 6;
  std::vector<double> a = iota(n, 1), b(n, 0), c(n * n, 0), d(n, 0), want(n);
  for (size_t i = 0; i < n; ++i) want[i] = a[i] > 3 ? a[i] : -a[i];
  run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"C", &c}, {"D", &d}}, {{"N", static_cast<int64_t>(n)}});
  EXPECT_EQ(b, want);

  // The same branch on A[i + 1] while the body writes A[i]: the condition's read conflicts.
  Loop w = make_loop("N - 1");
  int w0 = 0, w1 = 0;
  ir::State& ws0 = add_state(*w.loop, *w.g, "test", &w0);
  ir::State& ws1 = add_state(*w.loop, *w.g, "write", &w1);
  add_interstate(*w.loop, w0, w1, "(A[i + 1] > 3)");
  assign(ws0, "B", "i", "D", "i", "x");
  assign(ws1, "A", "i", "D", "i", "x");
  const std::string r = why(*w.g);
  EXPECT_NE(r.find("loop-carried dependence on 'A'"), std::string::npos) << r;
}

// for i: (nested SDFG: map j < W: T[j] = A[j] * i);  map j < N: C[i, j] = T[j] + 1, with T
// a transient of N that the nested SDFG writes.
Loop nested_sdfg_writes_transient(const std::string& written) {
  Loop l = make_loop();
  add_array(*l.g, "T", T::Float64, {"N"}, true);
  ir::ControlFlowRegion inner;
  ir::State& w = add_state(inner, *l.g, "write_t");
  auto [e1, x1] = map(w, {"j"}, "0:" + written);
  const int t1 = tasklet(w, "y = x * i", {"x"}, {"y"});
  edge_in(w, access(w, "A"), e1, t1, "x", "A[0:N]", "A[j]");
  edge_out(w, t1, "y", x1, access(w, "T"), "T[j]", "T[0:" + written + "]");
  std::unique_ptr<ir::State> st = nest_region(*l.g, inner, NestingPlan{"write_t", {"A"}, {"T"}, {}});
  st->label = "body";
  ir::State& s = *st;
  int tn = -1;
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::Access && static_cast<const ir::AccessNode&>(*s.node(id)).data == "T") tn = id;
  auto [e2, x2] = map(s, {"j"}, "0:N");
  const int t2 = tasklet(s, "y = x + 1", {"x"}, {"y"});
  edge_in(s, tn, e2, t2, "x", "T[0:N]", "T[j]");
  edge_out(s, t2, "y", x2, access(s, "C"), "C[i, j]", "C[i, 0:N]");
  l.g->register_block(s);
  l.loop->add_block(std::move(st));
  ir::relink_parents(*l.g);
  return l;
}

TEST(TransformLoopToMapNested, PrivatizesATransientWrittenByANestedSDFG) {
  Loop l = nested_sdfg_writes_transient("N");
  ASSERT_TRUE(apply_once(*l.g, "LoopToMap"));
  const size_t n = 4;
  std::vector<double> a = iota(n, 1), b(n, 0), c(n * n, 0), d(n, 0), want(n * n);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) want[i * n + j] = a[j] * static_cast<double>(i) + 1;
  run_sdfg(*l.g, {{"A", &a}, {"B", &b}, {"C", &c}, {"D", &d}}, {{"N", static_cast<int64_t>(n)}});
  EXPECT_EQ(c, want);

  // Writing only T[0:N-1] inside leaves T[N-1] to another iteration: shared, refused.
  Loop part = nested_sdfg_writes_transient("N - 1");
  const std::string r = why(*part.g);
  EXPECT_NE(r.find("'T'"), std::string::npos) << r;
}

TEST(TransformLoopToMapNested, RefusesACarriedDependenceThroughStates) {
  // for i < N - 1: B[i] = A[i]; (next state) A[i + 1] = B[i] + 1 -- iteration i + 1 reads
  // what iteration i wrote, across the two states.
  Loop l = make_loop("N - 1");
  auto [s1, s2] = two_states(*l.loop, *l.g);
  assign(*s1, "B", "i", "A", "i", "x");
  assign(*s2, "A", "i + 1", "B", "i", "x + 1");
  const std::string r = why(*l.g);
  EXPECT_NE(r.find("loop-carried dependence on 'A'"), std::string::npos) << r;
}

TEST(TransformLoopToMapNested, RefusesATransientReadAfterTheLoop) {
  // for i: t = A[i]; (next state) B[i] = t * 2; and after the loop D[0] = t: the last
  // iteration's t is needed, so t is shared and every iteration writes it.
  Loop l = make_loop();
  add_scalar(*l.g, "t", T::Float64, true);
  auto [s1, s2] = two_states(*l.loop, *l.g);
  assign(*s1, "t", "0", "A", "i", "x");
  assign(*s2, "B", "i", "t", "0", "x * 2");
  std::unique_ptr<ir::SDFG> inside_only = l.g->clone_sdfg();
  ir::State& end = static_cast<ir::State&>(*l.g->block(l.end));
  assign(end, "D", "0", "t", "0", "x");
  const std::string r = why(*l.g);
  EXPECT_NE(r.find("'t'"), std::string::npos) << r;
  // Without the read after the loop, t is private to each iteration.
  EXPECT_TRUE(applies_anywhere(*inside_only, "LoopToMap"));
}

TEST(TransformLoopToMapNested, RefusesABodyThatAssignsARangeSymbol) {
  // for i < M: B[i] = A[i]; (edge: M = 2) D[i] = A[i] -- the range would change while looping.
  Loop l = make_loop("M");
  l.g->symbols["M"] = ir::DType::of(T::Int64);
  auto [s1, s2] = two_states(*l.loop, *l.g, {{"M", "2"}});
  assign(*s1, "B", "i", "A", "i", "x");
  assign(*s2, "D", "i", "A", "i", "x");
  const std::string r = why(*l.g);
  EXPECT_NE(r.find("assigns 'M', which the loop range uses"), std::string::npos) << r;
}

TEST(TransformLoopToMapNested, RefusesASymbolReadBeforeTheBodyAssignsIt) {
  // for i: B[i] = A[k]; (edge: k = i) D[i] = A[k] -- the first state reads the previous
  // iteration's k.
  Loop l = make_loop();
  l.g->symbols["k"] = ir::DType::of(T::Int64);
  auto [s1, s2] = two_states(*l.loop, *l.g, {{"k", "i"}});
  assign(*s1, "B", "i", "A", "k", "x");
  assign(*s2, "D", "i", "A", "k", "x");
  const std::string r = why(*l.g);
  EXPECT_NE(r.find("symbol 'k' is read in state 'first' before the body assigns it"), std::string::npos) << r;
}

}  // namespace
}  // namespace dace::transform::testing
