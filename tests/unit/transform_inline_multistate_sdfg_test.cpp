// InlineMultistateSDFG on hand-built SDFGs: nested SDFGs of several states (a clashing
// transient, a clashing state label, a mapped symbol), of a state-machine loop whose variable
// clashes with an outer symbol, and of a loop region, inlined into the parent's control flow;
// results against plain C++ loops; a calling state that holds producers, consumers and
// unrelated nodes, split as DaCe's state fissions split it. Refusals: a fission that would lose
// an edge, an input that is no access node, a partial subset, a nested SDFG inside a map,
// different strides. The InlineSDFGs pass uses it first, as
// DaCe's inline_sdfgs does.
#include <gtest/gtest.h>

#include <set>

#include "codegen_test_builder.h"
#include "corpus_case.h"
#include "ir/json/sdfg_json.h"
#include "transform/history.h"
#include "transform/inline_multistate_sdfg.h"
#include "transform/inline_sdfgs.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

// dst[j] = src[j] `op` for j < `n`, one map in state `s`.
void map_state(ir::State& s, const std::string& src, const std::string& dst, const std::string& op,
               const std::string& n) {
  auto [entry, exit] = map(s, {"j"}, "0:" + n);
  int t = tasklet(s, "o = v" + op, {"v"}, {"o"});
  edge_in(s, access(s, src), entry, t, "v", src + "[0:" + n + "]", src + "[j]");
  edge_out(s, t, "o", exit, access(s, dst), dst + "[j]", dst + "[0:" + n + "]");
}

// Inner (symbol K, mapped to the outer M): state "s": tmp = x * 2; state "second":
// y = tmp + 1. Outer: state "s" calls it on A -> B; state "after": tmp = B * 3, where tmp is
// an outer array too (the inner transient becomes inner_tmp, the inner state "s" becomes s_0).
// `partial` passes only A[0:M-1].
std::unique_ptr<ir::SDFG> two_state_inner(bool strided) {
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "inner";
  inner->symbols["K"] = ir::DType::of(T::Int64);
  add_array(*inner, "x", T::Float64, {"K"});
  add_array(*inner, "y", T::Float64, {"K"});
  add_array(*inner, "tmp", T::Float64, {"K"}, true);
  if (strided) inner->arrays.at("x").strides = {E("2")};
  int first = 0, second = 0;
  map_state(add_state(*inner, *inner, "s", &first), "x", "tmp", " * 2", "K");
  map_state(add_state(*inner, *inner, "second", &second), "tmp", "y", " + 1", "K");
  add_interstate(*inner, first, second);
  return inner;
}

std::unique_ptr<ir::SDFG> two_states(bool partial = false, bool strided = false) {
  auto inner = two_state_inner(strided);
  auto g = std::make_unique<ir::SDFG>();
  g->name = "outer";
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"M"});
  add_array(*g, "B", T::Float64, {"M"});
  add_array(*g, "tmp", T::Float64, {"M"});
  int s = 0, after = 0;
  ir::State& call = add_state(*g, *g, "s", &s);
  int n = add_nested(call, std::move(inner), {"x"}, {"y"}, {{"K", partial ? "M - 1" : "M"}});
  edge(call, access(call, "A"), "", n, "x", partial ? "A[0:M - 1]" : "A[0:M]");
  edge(call, n, "y", access(call, "B"), "", partial ? "B[0:M - 1]" : "B[0:M]");
  map_state(add_state(*g, *g, "after", &after), "B", "tmp", " * 3", "M");
  add_interstate(*g, s, after);
  return g;
}

const ir::ControlFlowBlock* block_labelled(const ir::ControlFlowRegion& r, const std::string& label) {
  for (int b : r.block_slots())
    if (r.block(b)->label == label) return r.block(b);
  return nullptr;
}

TEST(TransformInlineMultistateSDFG, InlinesTwoStatesWithRenamedTransientAndState) {
  auto g = two_states();
  ASSERT_TRUE(apply_once(*g, "InlineMultistateSDFG"));
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::NestedSDFG), 0);
  // The emptied calling state, the nested "s" (renamed) and "second", the new state after
  // them (DaCe's "block"), and "after".
  EXPECT_EQ(g->block_slots().size(), 5u);
  EXPECT_TRUE(block_labelled(*g, "s_0"));
  EXPECT_TRUE(block_labelled(*g, "second"));
  EXPECT_TRUE(block_labelled(*g, "block"));
  ASSERT_EQ(g->arrays.count("inner_tmp"), 1u);
  EXPECT_TRUE(g->arrays.at("inner_tmp").transient);
  EXPECT_FALSE(g->arrays.at("tmp").transient);
  const int64_t m = 7;
  std::vector<double> a(m), b(m, -1), t(m, -1);
  for (int64_t i = 0; i < m; ++i) a[i] = 0.5 * static_cast<double>(i) - 1;
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"tmp", &t}}, {{"M", m}});
  for (int64_t i = 0; i < m; ++i) {
    EXPECT_EQ(b[i], a[i] * 2 + 1) << i;
    EXPECT_EQ(t[i], (a[i] * 2 + 1) * 3) << i;
  }
}

// Inner: a state-machine loop `for i in range(K): y[i] = y[i] + x[i] * i`. Outer: `i = 5` on
// the edge into the call, and a state after it writing C[0] = i: the inner i becomes i_0.
std::unique_ptr<ir::SDFG> loop_with_clashing_variable() {
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "inner";
  inner->symbols["K"] = ir::DType::of(T::Int64);
  inner->symbols["i"] = ir::DType::of(T::Int64);
  add_array(*inner, "x", T::Float64, {"K"});
  add_array(*inner, "y", T::Float64, {"K"});
  int init = 0, guard = 0, body = 0, done = 0;
  add_state(*inner, *inner, "init", &init);
  add_state(*inner, *inner, "guard", &guard);
  ir::State& bs = add_state(*inner, *inner, "body", &body);
  int t = tasklet(bs, "o = u + v * i", {"u", "v"}, {"o"});
  edge(bs, access(bs, "y"), "", t, "u", "y[i]");
  edge(bs, access(bs, "x"), "", t, "v", "x[i]");
  edge(bs, t, "o", access(bs, "y"), "", "y[i]");
  add_state(*inner, *inner, "done", &done);
  add_interstate(*inner, init, guard, "1", {{"i", "0"}});
  add_interstate(*inner, guard, body, "i < K");
  add_interstate(*inner, body, guard, "1", {{"i", "i + 1"}});
  add_interstate(*inner, guard, done, "not (i < K)");

  auto g = std::make_unique<ir::SDFG>();
  g->name = "outer";
  g->symbols["M"] = ir::DType::of(T::Int64);
  g->symbols["i"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"M"});
  add_array(*g, "B", T::Float64, {"M"});
  add_array(*g, "C", T::Float64, {"1"});
  int start = 0, s = 0, after = 0;
  add_state(*g, *g, "start", &start);
  ir::State& call = add_state(*g, *g, "s", &s);
  int n = add_nested(call, std::move(inner), {"x", "y"}, {"y"}, {{"K", "M"}, {"i", "i"}});
  edge(call, access(call, "A"), "", n, "x", "A[0:M]");
  edge(call, access(call, "B"), "", n, "y", "B[0:M]");
  edge(call, n, "y", access(call, "B"), "", "B[0:M]");
  ir::State& as = add_state(*g, *g, "after", &after);
  int w = tasklet(as, "o = i", {}, {"o"});
  edge(as, w, "o", access(as, "C"), "", "C[0]");
  add_interstate(*g, start, s, "1", {{"i", "5"}});
  add_interstate(*g, s, after);
  return g;
}

TEST(TransformInlineMultistateSDFG, RenamesALoopVariableThatClashesWithAnOuterSymbol) {
  auto g = loop_with_clashing_variable();
  ASSERT_TRUE(apply_once(*g, "InlineMultistateSDFG"));
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::NestedSDFG), 0);
  bool renamed = false;
  for (int e : g->edge_slots())
    for (const auto& [k, v] : g->edge(e)->assignments) renamed |= k == "i_0";
  EXPECT_TRUE(renamed);
  const int64_t m = 6;
  std::vector<double> a(m), b(m), c(1, -1);
  for (int64_t k = 0; k < m; ++k) {
    a[k] = 1.5 + static_cast<double>(k);
    b[k] = 10 - static_cast<double>(k);
  }
  std::vector<double> expect = b;
  for (int64_t k = 0; k < m; ++k) expect[k] += a[k] * static_cast<double>(k);
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"M", m}});
  for (int64_t k = 0; k < m; ++k) EXPECT_EQ(b[k], expect[k]) << k;
  EXPECT_EQ(c[0], 5);  // the outer i, untouched by the inner loop
}

// Inner: a LoopRegion `for k in range(K): y = y + x` (whole arrays, map inside), then a state
// doubling y. Inlined into the outer SDFG's control flow as a region.
TEST(TransformInlineMultistateSDFG, InlinesALoopRegion) {
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "inner";
  inner->symbols["K"] = ir::DType::of(T::Int64);
  add_array(*inner, "x", T::Float64, {"K"});
  add_array(*inner, "y", T::Float64, {"K"});
  TestLoop loop = add_test_loop(*inner, "loop", "0", "k < 3", "k + 1", "k");
  ir::State& body = add_state(*loop.loop, *inner, "body");
  {
    auto [entry, exit] = map(body, {"j"}, "0:K");
    int t = tasklet(body, "o = u + v", {"u", "v"}, {"o"});
    edge_in(body, access(body, "y"), entry, t, "u", "y[0:K]", "y[j]");
    edge_in(body, access(body, "x"), entry, t, "v", "x[0:K]", "x[j]");
    edge_out(body, t, "o", exit, access(body, "y"), "y[j]", "y[0:K]");
  }
  int twice = 0;
  map_state(add_state(*inner, *inner, "twice", &twice), "y", "y", " * 2", "K");
  add_interstate(*inner, loop.end, twice);

  auto g = std::make_unique<ir::SDFG>();
  g->name = "outer";
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"M"});
  add_array(*g, "B", T::Float64, {"M"});
  ir::State& call = add_state(*g, *g, "s");
  int n = add_nested(call, std::move(inner), {"x", "y"}, {"y"}, {{"K", "M"}});
  edge(call, access(call, "A"), "", n, "x", "A[0:M]");
  edge(call, access(call, "B"), "", n, "y", "B[0:M]");
  edge(call, n, "y", access(call, "B"), "", "B[0:M]");

  ASSERT_TRUE(apply_once(*g, "InlineMultistateSDFG"));
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::NestedSDFG), 0);
  const ir::ControlFlowBlock* l = block_labelled(*g, "loop");
  ASSERT_TRUE(l);
  EXPECT_EQ(l->kind, ir::BlockKind::Loop);
  const int64_t m = 5;
  std::vector<double> a(m), b(m);
  for (int64_t k = 0; k < m; ++k) {
    a[k] = static_cast<double>(k) * 0.25;
    b[k] = 1 + static_cast<double>(k);
  }
  std::vector<double> expect = b;
  for (int64_t k = 0; k < m; ++k) expect[k] = (expect[k] + 3 * a[k]) * 2;
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"M", m}});
  for (int64_t k = 0; k < m; ++k) EXPECT_EQ(b[k], expect[k]) << k;
}

// The two-state inner SDFG (y = x * 2 + 1) called in a state that also holds a map computing
// its input (A = X + 1), a map reading its output and X (C = B * 3 + X), and an unrelated
// tasklet (D[0] = 7). `lost_edge` adds a copy A -> C, which DaCe's fission would drop.
std::unique_ptr<ir::SDFG> crowded_state(bool lost_edge = false) {
  std::unique_ptr<ir::SDFG> body = two_state_inner(false);
  auto g = std::make_unique<ir::SDFG>();
  g->name = "outer";
  g->symbols["M"] = ir::DType::of(T::Int64);
  for (const char* a : {"X", "A", "B", "C"}) add_array(*g, a, T::Float64, {"M"});
  add_array(*g, "D", T::Float64, {"1"});
  ir::State& s = add_state(*g, *g, "s");
  const int x = access(s, "X"), a = access(s, "A"), b = access(s, "B"), c = access(s, "C");
  {
    auto [entry, exit] = map(s, {"j"}, "0:M");
    int t = tasklet(s, "o = v + 1", {"v"}, {"o"});
    edge_in(s, x, entry, t, "v", "X[0:M]", "X[j]");
    edge_out(s, t, "o", exit, a, "A[j]", "A[0:M]");
  }
  int n = add_nested(s, std::move(body), {"x"}, {"y"}, {{"K", "M"}});
  edge(s, a, "", n, "x", "A[0:M]");
  edge(s, n, "y", b, "", "B[0:M]");
  {
    auto [entry, exit] = map(s, {"j"}, "0:M");
    int t = tasklet(s, "o = u * 3 + v", {"u", "v"}, {"o"});
    edge_in(s, b, entry, t, "u", "B[0:M]", "B[j]");
    edge_in(s, x, entry, t, "v", "X[0:M]", "X[j]");
    edge_out(s, t, "o", exit, c, "C[j]", "C[0:M]");
  }
  int t = tasklet(s, "o = 7", {}, {"o"});
  edge(s, t, "o", access(s, "D"), "", "D[0]");
  if (lost_edge) edge(s, a, "", c, "", "A[0:M]");
  return g;
}

const ir::State* state_of(const ir::ControlFlowBlock* b) {
  return b && b->kind == ir::BlockKind::State ? static_cast<const ir::State*>(b) : nullptr;
}
ir::State* state_of(ir::ControlFlowBlock* b) {
  return b && b->kind == ir::BlockKind::State ? static_cast<ir::State*>(b) : nullptr;
}

int count_in(const ir::State& s, ir::NodeKind kind) {
  int k = 0;
  for (int n : s.node_ids()) k += s.node(n)->kind == kind;
  return k;
}

// DaCe's two state fissions: what the call depends on stays before it, what depends on it goes
// into the state after (DaCe's "block"), and the results equal plain loops.
TEST(TransformInlineMultistateSDFG, SplitsAStateHoldingOtherNodes) {
  auto g = crowded_state();
  ASSERT_TRUE(apply_once(*g, "InlineMultistateSDFG"));
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::NestedSDFG), 0);
  // "s" (the producer map and the tasklet), the nested "s_0" and "second", "block" (the consumer).
  EXPECT_EQ(g->block_slots().size(), 4u);
  const auto* before = state_of(block_labelled(*g, "s"));
  const auto* after = state_of(block_labelled(*g, "block"));
  ASSERT_TRUE(before && after);
  EXPECT_EQ(count_in(*before, ir::NodeKind::MapEntry), 1);
  EXPECT_EQ(count_in(*before, ir::NodeKind::Tasklet), 2);
  EXPECT_EQ(count_in(*after, ir::NodeKind::MapEntry), 1);
  EXPECT_EQ(count_in(*after, ir::NodeKind::Tasklet), 1);
  // X feeds maps on both sides: a copy stays before, the original goes after.
  int xs = 0;
  for (const ir::State* st : {before, after})
    for (int n : st->node_ids())
      if (st->node(n)->kind == ir::NodeKind::Access) xs += static_cast<const ir::AccessNode*>(st->node(n))->data == "X";
  EXPECT_EQ(xs, 2);
  const int64_t m = 9;
  std::vector<double> x(m), a(m, -1), b(m, -1), c(m, -1), d(1, -1);
  for (int64_t i = 0; i < m; ++i) x[i] = 0.75 * static_cast<double>(i) - 2;
  run_sdfg(*g, {{"X", &x}, {"A", &a}, {"B", &b}, {"C", &c}, {"D", &d}}, {{"M", m}});
  for (int64_t i = 0; i < m; ++i) {
    const double ai = x[i] + 1, bi = ai * 2 + 1;
    EXPECT_EQ(a[i], ai) << i;
    EXPECT_EQ(b[i], bi) << i;
    EXPECT_EQ(c[i], bi * 3 + x[i]) << i;
  }
  EXPECT_EQ(d[0], 7);
}

TEST(TransformInlineMultistateSDFG, RefusesAFissionThatWouldLoseAnEdge) {
  auto g = crowded_state(true);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "InlineMultistateSDFG", &why));
  EXPECT_NE(why.find("would be lost by the state fission"), std::string::npos) << why;
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::NestedSDFG), 1);
}

TEST(TransformInlineMultistateSDFG, RefusesACallFedByATasklet) {
  auto g = two_states();
  ir::State& s = *state_of(g->block(0));
  // The access node A (node 0) becomes a tasklet's output: the call's input is no access node.
  int t = tasklet(s, "o = 1", {}, {"o"});
  int nested = -1;
  for (int n : s.node_ids())
    if (s.node(n)->kind == ir::NodeKind::NestedSDFG) nested = n;
  edge(s, t, "o", nested, "x", "A[0:M]");
  for (int e : s.in_edges(nested))
    if (s.edge(e)->src != t) s.remove_edge(e);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "InlineMultistateSDFG", &why));
  EXPECT_NE(why.find("not an access node"), std::string::npos) << why;
}

TEST(TransformInlineMultistateSDFG, RefusesAPartialSubset) {
  auto g = two_states(true);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "InlineMultistateSDFG", &why));
  EXPECT_NE(why.find("does not access the whole of 'A'"), std::string::npos) << why;
  // Unchanged: still computes through the nested SDFG.
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::NestedSDFG), 1);
}

TEST(TransformInlineMultistateSDFG, RefusesDifferentStrides) {
  auto g = two_states(false, true);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "InlineMultistateSDFG", &why));
  EXPECT_NE(why.find("strides differ from those of 'A'"), std::string::npos) << why;
}

TEST(TransformInlineMultistateSDFG, RefusesANestedSdfgInsideAMap) {
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "inner";
  add_array(*inner, "x", T::Float64, {"1"});
  add_array(*inner, "y", T::Float64, {"1"});
  int first = 0, second = 0;
  ir::State& s1 = add_state(*inner, *inner, "one", &first);
  int t = tasklet(s1, "o = v + 1", {"v"}, {"o"});
  edge(s1, access(s1, "x"), "", t, "v", "x[0]");
  edge(s1, t, "o", access(s1, "y"), "", "y[0]");
  add_state(*inner, *inner, "two", &second);
  add_interstate(*inner, first, second);
  auto g = std::make_unique<ir::SDFG>();
  g->name = "outer";
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"M"});
  add_array(*g, "B", T::Float64, {"M"});
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i"}, "0:M");
  int n = add_nested(s, std::move(inner), {"x"}, {"y"}, {});
  edge_in(s, access(s, "A"), entry, n, "x", "A[0:M]", "A[i]");
  edge_out(s, n, "y", exit, access(s, "B"), "B[i]", "B[0:M]");
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "InlineMultistateSDFG", &why));
  EXPECT_NE(why.find("is inside a scope"), std::string::npos) << why;
}

ir::NestedSDFGNode* first_nested(ir::SDFG& g) {
  for (ir::State* st : g.all_states())
    for (int n : st->node_ids())
      if (st->node(n)->kind == ir::NodeKind::NestedSDFG) return static_cast<ir::NestedSDFGNode*>(st->node(n));
  return nullptr;
}

// A node with a schedule other than Default: DaCe's apply first re-defaults the nested
// SDFG's Default schedules and transient storages from it (set_default_schedule_and_storage_
// types), then inlines. Expected values from DaCe's tables (SCOPEDEFAULT_SCHEDULE: Sequential
// and CPU_Multicore -> Sequential, MPI -> CPU_Multicore; SCOPEDEFAULT_STORAGE:
// CPU_Multicore -> Register, Sequential passes outwards -> CPU_Heap, MPI -> CPU_Heap), as
// DaCe 1.0.2 gives them on mandelbrot1's linspace call.
TEST(TransformInlineMultistateSDFG, RedefaultsSchedulesAndStoragesFromTheNodesSchedule) {
  struct Case {
    ir::ScheduleType node;
    ir::ScheduleType maps;
    ir::StorageType transient;
  };
  for (const Case& c : {Case{ir::ScheduleType::CPU_Multicore, ir::ScheduleType::Sequential, ir::StorageType::Register},
                        Case{ir::ScheduleType::Sequential, ir::ScheduleType::Sequential, ir::StorageType::CPU_Heap},
                        Case{ir::ScheduleType::MPI, ir::ScheduleType::CPU_Multicore, ir::StorageType::CPU_Heap}}) {
    SCOPED_TRACE(ir::to_string(c.node));
    auto g = two_states();
    first_nested(*g)->schedule = c.node;
    ASSERT_TRUE(apply_once(*g, "InlineMultistateSDFG"));
    EXPECT_EQ(count_nodes(*g, ir::NodeKind::NestedSDFG), 0);
    ASSERT_EQ(g->arrays.count("inner_tmp"), 1u);
    EXPECT_EQ(g->arrays.at("inner_tmp").storage, c.transient);
    // The two inlined maps take the child schedule; the outer "after" map keeps Default.
    for (const char* label : {"s_0", "second", "after"}) {
      const auto* st = static_cast<const ir::State*>(block_labelled(*g, label));
      ASSERT_NE(st, nullptr) << label;
      for (int n : st->node_ids()) {
        if (st->node(n)->kind != ir::NodeKind::MapEntry) continue;
        EXPECT_EQ(static_cast<const ir::MapEntry*>(st->node(n))->map.schedule,
                  std::string(label) == "after" ? ir::ScheduleType::Default : c.maps)
            << label;
      }
    }
    const int64_t m = 6;
    std::vector<double> a(m), b(m, -1), t(m, -1);
    for (int64_t i = 0; i < m; ++i) a[i] = 1.5 * static_cast<double>(i) - 2;
    run_sdfg(*g, {{"A", &a}, {"B", &b}, {"tmp", &t}}, {{"M", m}});
    for (int64_t i = 0; i < m; ++i) {
      EXPECT_EQ(b[i], a[i] * 2 + 1) << i;
      EXPECT_EQ(t[i], (a[i] * 2 + 1) * 3) << i;
    }
  }
}

std::vector<ir::ScheduleType> map_schedules(const ir::SDFG& g, const std::string& state_label) {
  std::vector<ir::ScheduleType> out;
  const auto* st = static_cast<const ir::State*>(block_labelled(g, state_label));
  if (!st) return out;
  for (int n : st->node_ids())
    if (st->node(n)->kind == ir::NodeKind::MapEntry) out.push_back(static_cast<const ir::MapEntry*>(st->node(n))->map.schedule);
  return out;
}

TEST(TransformInlineMultistateSDFG, RefusesAnFpgaCall) {
  auto g = two_states();
  first_nested(*g)->schedule = ir::ScheduleType::FPGA_Device;
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "InlineMultistateSDFG", &why));
  EXPECT_NE(why.find("has schedule FPGA_Device"), std::string::npos) << why;
}

// DaCe's GPU cases (infer_types.py): under a GPU_Device call the Default maps directly in each
// state become GPU_ThreadBlock, and since such a map counts as an explicit thread block the
// state's transients go to GPU_Shared (not Register). A GPU_Device map inside a CPU_Multicore
// call keeps its schedule; the transient takes CPU_Multicore's child storage, Register.
TEST(TransformInlineMultistateSDFG, RedefaultsUnderGpuSchedules) {
  auto g = two_states();
  first_nested(*g)->schedule = ir::ScheduleType::GPU_Device;
  ASSERT_TRUE(apply_once(*g, "InlineMultistateSDFG"));
  EXPECT_EQ(map_schedules(*g, "s_0"), std::vector<ir::ScheduleType>{ir::ScheduleType::GPU_ThreadBlock});
  EXPECT_EQ(map_schedules(*g, "second"), std::vector<ir::ScheduleType>{ir::ScheduleType::GPU_ThreadBlock});
  EXPECT_EQ(g->arrays.at("inner_tmp").storage, ir::StorageType::GPU_Shared);

  g = two_states();
  ir::NestedSDFGNode* node = first_nested(*g);
  node->schedule = ir::ScheduleType::CPU_Multicore;
  for (ir::State* st : node->sdfg->all_states())
    for (int n : st->node_ids())
      if (st->node(n)->kind == ir::NodeKind::MapEntry)
        static_cast<ir::MapEntry*>(st->node(n))->map.schedule = ir::ScheduleType::GPU_Device;
  ASSERT_TRUE(apply_once(*g, "InlineMultistateSDFG"));
  EXPECT_EQ(map_schedules(*g, "s_0"), std::vector<ir::ScheduleType>{ir::ScheduleType::GPU_Device});
  EXPECT_EQ(g->arrays.at("inner_tmp").storage, ir::StorageType::Register);
}

// mandelbrot1 (DaCe-written), its first linspace call (five states, a map holding a nested
// SDFG) given the CPU_Multicore schedule: inlined as DaCe 1.0.2 inlines it (the map and the
// nested SDFG inside it become Sequential, the transients dist and __tmp3 Register), and the
// program still matches NumPy.
TEST(TransformInlineMultistateSDFG, CorpusCallWithAMulticoreScheduleMatchesNumPy) {
  std::string dir;
  for (const auto& d : corpus_case_dirs())
    if (d.filename() == "mandelbrot1") dir = d.string();
  if (dir.empty()) GTEST_SKIP() << "the sdfg corpus (mandelbrot1) is not available";
  Result<std::unique_ptr<ir::SDFG>> loaded = ir::json::read_sdfg_file(dir + "/mandelbrot1.raw.sdfg");
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  ir::SDFG& g = **loaded;
  ir::State* state = nullptr;
  int call = -1;
  for (ir::State* st : g.all_states())
    for (int n : st->node_ids())
      if (!state && st->node(n)->kind == ir::NodeKind::NestedSDFG && st->scope_parents()[static_cast<size_t>(n)] < 0) {
        state = st;
        call = n;
      }
  ASSERT_NE(state, nullptr);
  static_cast<ir::NestedSDFGNode*>(state->node(call))->schedule = ir::ScheduleType::CPU_Multicore;
  const std::set<std::string> before = [&] {
    std::set<std::string> names;
    for (const auto& [name, desc] : g.arrays) names.insert(name);
    return names;
  }();
  InlineMultistateSDFG inliner;
  Status applied = inliner.inline_node(g, *state, call);
  ASSERT_TRUE(applied.ok()) << applied.error().message;
  std::set<std::string> added;
  for (const auto& [name, desc] : g.arrays)
    if (!before.count(name)) {
      added.insert(name);
      EXPECT_EQ(desc.storage, ir::StorageType::Register) << name;
    }
  EXPECT_EQ(added, (std::set<std::string>{"__tmp3", "dist"}));
  int sequential = 0;
  for (const ir::State* st : g.all_states())
    for (int n : st->node_ids()) {
      const ir::Node* node = st->node(n);
      if (node->kind == ir::NodeKind::MapEntry &&
          static_cast<const ir::MapEntry*>(node)->map.schedule == ir::ScheduleType::Sequential)
        ++sequential;
      if (node->kind == ir::NodeKind::NestedSDFG &&
          static_cast<const ir::NestedSDFGNode*>(node)->schedule == ir::ScheduleType::Sequential)
        ++sequential;
    }
  EXPECT_EQ(sequential, 2);  // the linspace map and the nested SDFG in it
  Status v = analysis::validate(g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<codegen::testing::CompiledProgram> prog = codegen::testing::compile(g);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  codegen::testing::run_corpus_case(dir, g, *prog);
}

TEST(TransformInlineMultistateSDFG, InlineSDFGsUsesItAndRecordsMultistate) {
  auto g = two_states();
  AnalysisManager am;
  InlineSDFGs pass;
  Result<bool> r = run_pass(*g, pass, am);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(*r);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::NestedSDFG), 0);
  EXPECT_EQ(g->block_slots().size(), 5u);
  const std::vector<HistoryEntry> h = history_of(*g);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_NE(h[0].properties.find("\"multistate\":true"), std::string::npos) << h[0].properties;
  const int64_t m = 4;
  std::vector<double> a{1, 2, 3, 4}, b(m), t(m);
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"tmp", &t}}, {{"M", m}});
  for (int64_t i = 0; i < m; ++i) EXPECT_EQ(t[i], (a[i] * 2 + 1) * 3) << i;
}

// Two calls in one state, the consumer (B -> C) added before the producer (A -> B): InlineSDFGs
// visits the producer first, whose state fission moves the consumer into the new state; the
// pass finds it there (as DaCe re-reads each node's state) and inlines it in the same run.
TEST(TransformInlineMultistateSDFG, InlineSDFGsFollowsACallTheFissionMoved) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "outer";
  g->symbols["M"] = ir::DType::of(T::Int64);
  for (const char* a : {"A", "B", "C"}) add_array(*g, a, T::Float64, {"M"});
  ir::State& s = add_state(*g, *g, "s");
  const int b_in = access(s, "B");
  const int consumer = add_nested(s, two_state_inner(false), {"x"}, {"y"}, {{"K", "M"}});
  edge(s, b_in, "", consumer, "x", "B[0:M]");
  edge(s, consumer, "y", access(s, "C"), "", "C[0:M]");
  const int producer = add_nested(s, two_state_inner(false), {"x"}, {"y"}, {{"K", "M"}});
  edge(s, access(s, "A"), "", producer, "x", "A[0:M]");
  edge(s, producer, "y", b_in, "", "B[0:M]");
  AnalysisManager am;
  InlineSDFGs pass;
  Result<bool> r = run_pass(*g, pass, am);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(*r);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::NestedSDFG), 0);
  const int64_t m = 5;
  std::vector<double> a{1, -2, 3.5, 0, 7}, b(m), c(m);
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"M", m}});
  for (int64_t i = 0; i < m; ++i) {
    EXPECT_EQ(b[i], a[i] * 2 + 1) << i;
    EXPECT_EQ(c[i], (a[i] * 2 + 1) * 2 + 1) << i;
  }
}

}  // namespace
}  // namespace dace::transform::testing
