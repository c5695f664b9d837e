// Symbol ranges (symbol_ranges.h) of SDFGs built here: every expected range is derived by hand
// from the loop headers and interstate assignments; reuse and invalidation are shown by the
// analysis manager's counters and by edits whose stale ranges would give another answer.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "transform/analysis_manager.h"
#include "transform/registry.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using T = ir::ScalarType;

std::string text(sym::Expr e) { return e ? sym::to_string(e) : "unknown"; }

bool same(sym::Expr a, sym::Expr b) { return a && b && sym::as_integer(sym::simplify(sym::sub(a, b))) == 0; }

// `symbol` has the range [lo, hi] at `block` (nullptr: that side is unknown).
void expect_range(const SymbolRanges& r, const ir::ControlFlowBlock& block, const std::string& symbol, const char* lo,
                  const char* hi) {
  std::optional<SymbolRange> got = r.of(block, symbol);
  ASSERT_TRUE(got) << symbol << " has no range at " << block.label;
  if (lo) EXPECT_TRUE(same(got->lo, E(lo))) << symbol << " at " << block.label << ": lo " << text(got->lo) << ", want " << lo;
  else EXPECT_EQ(got->lo, nullptr) << symbol << " at " << block.label << ": lo " << text(got->lo);
  if (hi) EXPECT_TRUE(same(got->hi, E(hi))) << symbol << " at " << block.label << ": hi " << text(got->hi) << ", want " << hi;
  else EXPECT_EQ(got->hi, nullptr) << symbol << " at " << block.label << ": hi " << text(got->hi);
}

void expect_none(const SymbolRanges& r, const ir::ControlFlowBlock& block, const std::string& symbol) {
  std::optional<SymbolRange> got = r.of(block, symbol);
  EXPECT_FALSE(got) << symbol << " at " << block.label << ": " << text(got->lo) << " .. " << text(got->hi);
}

// A loop inside `region` (no edges added), its variable declared in `g`.
ir::LoopRegion& add_loop(ir::ControlFlowRegion& region, ir::SDFG& g, const std::string& label, const std::string& var,
                         const std::string& init, const std::string& cond, const std::string& update, int* slot) {
  std::unique_ptr<ir::LoopRegion> loop = make_test_loop(g, label, var, init, cond, update);
  ir::LoopRegion& out = *loop;
  *slot = region.add_block(std::move(loop));
  ir::relink_parents(region);
  return out;
}

// start -> for (i = init; cond; i = update) { body } -> end, with A of shape [N].
struct OneLoop {
  std::unique_ptr<ir::SDFG> g = std::make_unique<ir::SDFG>();
  ir::LoopRegion* loop = nullptr;
  ir::State* body = nullptr;
  OneLoop(const std::string& init, const std::string& cond, const std::string& update) {
    g->name = "one_loop";
    for (const char* n : {"N", "M"}) g->symbols[n] = ir::DType::of(T::Int64);
    add_array(*g, "A", T::Float64, {"N"});
    TestLoop t = add_test_loop(*g, "for_1", init, cond, update);
    loop = t.loop;
    body = &add_state(*loop, *g, "body");
  }
  const ir::ControlFlowBlock& block(const char* label) const {
    for (int s : g->block_slots())
      if (g->block(s)->label == label) return *g->block(s);
    ADD_FAILURE() << "no block " << label;
    return *g;
  }
};

TEST(TransformSymbolRanges, LoopVariableInsideItsLoopAndSizesEverywhere) {
  OneLoop l("0", "(i < N)", "(i + 1)");
  const SymbolRanges r = SymbolRanges::compute(*l.g);
  expect_range(r, *l.body, "i", "0", "N - 1");
  // The variable is assigned by the header: not known at the loop block itself nor after it.
  expect_none(r, *l.loop, "i");
  expect_none(r, l.block("end"), "i");
  // N is A's size: >= 0 everywhere; M sizes nothing.
  for (const ir::ControlFlowBlock* b : {&l.block("start"), static_cast<const ir::ControlFlowBlock*>(l.loop),
                                        static_cast<const ir::ControlFlowBlock*>(l.body), &l.block("end")})
    expect_range(r, *b, "N", "0", nullptr);
  expect_none(r, *l.body, "M");
  const std::optional<LoopBounds> b = r.loop(*l.loop);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->step, 1);
}

// Ranges by hand: the values the body sees lie between the first value and the last one the
// condition admits.
TEST(TransformSymbolRanges, StepsAndSymbolicBounds) {
  {  // 1, 3, 5, ... while i < N: at most N - 1
    OneLoop l("1", "(i < N)", "(i + 2)");
    expect_range(SymbolRanges::compute(*l.g), *l.body, "i", "1", "N - 1");
  }
  {  // N - 1 down to 0
    OneLoop l("N - 1", "(i >= 0)", "(i - 1)");
    expect_range(SymbolRanges::compute(*l.g), *l.body, "i", "0", "N - 1");
  }
  {  // N, N - 2, ... while i > 0: at least 1
    OneLoop l("N", "(i > 0)", "(i - 2)");
    expect_range(SymbolRanges::compute(*l.g), *l.body, "i", "1", "N");
  }
  {  // symbolic both sides, inclusive condition
    OneLoop l("M", "(i <= N + 3)", "(i + 1)");
    expect_range(SymbolRanges::compute(*l.g), *l.body, "i", "M", "N + 3");
  }
  {  // not an arithmetic range: unknown
    OneLoop l("1", "(i < N)", "(2 * i)");
    const SymbolRanges r = SymbolRanges::compute(*l.g);
    expect_none(r, *l.body, "i");
    EXPECT_FALSE(r.loop(*l.loop));
  }
}

// for i in [0, N) { pre -(k = i + 1)-> for j in [i, k) { inner } -> post }:
// inside the inner loop i is in [0, N - 1] and j in [i, k - 1]; k = i + 1 is in [1, N].
TEST(TransformSymbolRanges, NestedLoopsAndAnAssignmentBetweenThem) {
  OneLoop l("0", "(i < N)", "(i + 1)");
  l.g->symbols["k"] = ir::DType::of(T::Int64);
  int pre = 0, inner_slot = 0, post = 0, body_slot = 0;
  // The outer body: pre -> inner loop -> post (the state OneLoop made is `pre`).
  l.body->label = "pre";
  pre = l.loop->slot_of(l.body);
  ir::LoopRegion& inner = add_loop(*l.loop, *l.g, "for_j", "j", "i", "(j < k)", "(j + 1)", &inner_slot);
  ir::State& inner_body = add_state(inner, *l.g, "inner", &body_slot);
  ir::State& after = add_state(*l.loop, *l.g, "post", &post);
  add_interstate(*l.loop, pre, inner_slot, "1", {{"k", "i + 1"}});
  add_interstate(*l.loop, inner_slot, post);

  const SymbolRanges r = SymbolRanges::compute(*l.g);
  expect_range(r, inner_body, "i", "0", "N - 1");
  expect_range(r, inner_body, "j", "i", "k - 1");
  expect_range(r, inner_body, "k", "1", "N");
  expect_range(r, inner, "i", "0", "N - 1");
  expect_none(r, inner, "j");
  expect_range(r, after, "i", "0", "N - 1");
  expect_none(r, after, "j");
  // The outer loop may run no iteration (N <= 0): k may have no value after it.
  expect_none(r, l.block("end"), "k");
  expect_none(r, l.block("start"), "k");
  expect_none(r, *l.loop, "k");
}

// start -(s = 5)-> a -(t = 2 * s + 1)-> b: constants derived through each other.
TEST(TransformSymbolRanges, ConstantAssignments) {
  ir::SDFG g;
  g.name = "assign";
  for (const char* n : {"s", "t"}) g.symbols[n] = ir::DType::of(T::Int64);
  int start = 0, a = 0, b = 0;
  ir::State& s0 = add_state(g, g, "start", &start);
  ir::State& sa = add_state(g, g, "a", &a);
  ir::State& sb = add_state(g, g, "b", &b);
  add_interstate(g, start, a, "1", {{"s", "5"}});
  add_interstate(g, a, b, "1", {{"t", "2 * s + 1"}});
  const SymbolRanges r = SymbolRanges::compute(g);
  expect_none(r, s0, "s");
  expect_range(r, sa, "s", "5", "5");
  expect_none(r, sa, "t");
  expect_range(r, sb, "s", "5", "5");
  expect_range(r, sb, "t", "11", "11");
}

// Assigned twice, from itself, from a container, or by true division: no range.
TEST(TransformSymbolRanges, ReassignedOrUnderivableAssignmentsAreUnknown) {
  ir::SDFG g;
  g.name = "unknown";
  for (const char* n : {"N", "s", "c", "x", "h"}) g.symbols[n] = ir::DType::of(T::Int64);
  add_scalar(g, "X", T::Int64);
  int start = 0, a = 0, b = 0, c = 0;
  add_state(g, g, "start", &start);
  add_state(g, g, "a", &a);
  ir::State& sb = add_state(g, g, "b", &b);
  ir::State& sc = add_state(g, g, "c", &c);
  add_interstate(g, start, a, "1", {{"s", "0"}, {"x", "X"}, {"h", "N / 2"}});
  add_interstate(g, a, b, "1", {{"s", "1"}});
  add_interstate(g, b, c, "1", {{"c", "c + 1"}});
  add_interstate(g, c, b, "(c < 10)");
  const SymbolRanges r = SymbolRanges::compute(g);
  for (const char* s : {"s", "c", "x", "h"}) expect_none(r, sc, s);
  expect_none(r, sb, "s");
}

// An assignment inside a loop body: u = 2 * i + 1 with i in [0, N - 1] is in [1, 2N - 1]
// in the states every iteration reaches through the assignment. Not in the states before it
// (the first iteration runs them with u's value from before the loop, a caller's argument
// perhaps), nor after the loop (it may run no iteration).
TEST(TransformSymbolRanges, AssignmentInsideALoop) {
  OneLoop l("0", "(i < N)", "(i + 1)");
  l.g->symbols["u"] = ir::DType::of(T::Int64);
  int first = l.loop->slot_of(l.body), second = 0, third = 0;
  ir::State& s2 = add_state(*l.loop, *l.g, "second", &second);
  ir::State& s3 = add_state(*l.loop, *l.g, "third", &third);
  add_interstate(*l.loop, first, second, "1", {{"u", "2 * i + 1"}});
  add_interstate(*l.loop, second, third);
  const SymbolRanges r = SymbolRanges::compute(*l.g);
  expect_range(r, s2, "u", "1", "2 * N - 1");
  expect_range(r, s3, "u", "1", "2 * N - 1");
  expect_none(r, *l.body, "u");
  expect_none(r, l.block("end"), "u");
  expect_none(r, l.block("start"), "u");
}

// start -(c > 0; k = 1)-> a -> join, start -(c <= 0)-> join: k is 1 in `a` only; `join` is
// reached without the assignment. A plain chain keeps the range to its end.
TEST(TransformSymbolRanges, OnlyBlocksTheAssignmentDominates) {
  ir::SDFG g;
  g.name = "branch";
  for (const char* n : {"c", "k"}) g.symbols[n] = ir::DType::of(T::Int64);
  int start = 0, a = 0, join = 0, after = 0;
  add_state(g, g, "start", &start);
  ir::State& sa = add_state(g, g, "a", &a);
  ir::State& sj = add_state(g, g, "join", &join);
  ir::State& s_after = add_state(g, g, "after", &after);
  add_interstate(g, start, a, "(c > 0)", {{"k", "1"}});
  add_interstate(g, start, join, "(c <= 0)");
  add_interstate(g, a, join);
  add_interstate(g, join, after);
  const SymbolRanges r = SymbolRanges::compute(g);
  expect_range(r, sa, "k", "1", "1");
  expect_none(r, sj, "k");
  expect_none(r, s_after, "k");
}

// A nested SDFG whose symbol k is mapped in (k = N outside) and assigned inside a loop
// (k = i): the states before the assignment see the mapped-in value, so k has no range
// there; the states after it have i's range.
TEST(TransformSymbolRanges, NestedSymbolMappedInAndAssigned) {
  OneLoop outer("0", "(i < N)", "(i + 1)");
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "inner";
  for (const char* n : {"K", "k"}) inner->symbols[n] = ir::DType::of(T::Int64);
  add_array(*inner, "B", T::Float64, {"K"});
  TestLoop t = add_test_loop(*inner, "for_j", "0", "(j < K)", "(j + 1)", "j");
  int first = 0, second = 0;
  ir::State& s1 = add_state(*t.loop, *inner, "first", &first);
  ir::State& s2 = add_state(*t.loop, *inner, "second", &second);
  add_interstate(*t.loop, first, second, "1", {{"k", "j"}});
  const ir::SDFG* nested = inner.get();
  const ir::ControlFlowBlock& inner_start = *inner->block(t.start);
  add_nested(*outer.body, std::move(inner), {}, {}, {{"K", "N"}, {"k", "N"}});
  AnalysisManager am;
  const SymbolRanges& in = am.symbol_ranges(*nested);
  expect_none(in, inner_start, "k");
  expect_none(in, s1, "k");
  expect_range(in, s2, "k", "0", "K - 1");
}

// Computed once per SDFG, served cached; dropped by what it depends on (interstate edges,
// descriptors, also when reported for one state), kept through access node, scope, tasklet
// and memlet changes.
TEST(TransformSymbolRanges, CachedAndInvalidated) {
  ir::SDFG g;
  g.name = "cached";
  g.symbols["s"] = ir::DType::of(T::Int64);
  int start = 0, a = 0;
  add_state(g, g, "start", &start);
  ir::State& sa = add_state(g, g, "a", &a);
  add_interstate(g, start, a, "1", {{"s", "5"}});
  AnalysisManager am;
  expect_range(am.symbol_ranges(g), sa, "s", "5", "5");
  EXPECT_EQ(am.computed(), 1);
  am.symbol_ranges(g);
  EXPECT_EQ(am.computed(), 1);
  EXPECT_EQ(am.cached(), 1);

  g.edge(g.edge_slots()[0])->assignments[0].second = "7";
  // Unrelated (Nodes would include NestedSDFGs, whose entries are dropped with the parent's):
  // the stale entry stays.
  am.invalidate(Modifies::AccessNodes | Modifies::Scopes | Modifies::Tasklets | Modifies::Memlets);
  expect_range(am.symbol_ranges(g), sa, "s", "5", "5");
  EXPECT_EQ(am.computed(), 1);
  am.invalidate(Modifies::InterstateEdges);
  expect_range(am.symbol_ranges(g), sa, "s", "7", "7");
  EXPECT_EQ(am.computed(), 2);

  am.invalidate(sa, Modifies::Memlets | Modifies::Scopes | Modifies::Tasklets);
  am.symbol_ranges(g);
  EXPECT_EQ(am.computed(), 2);
  am.invalidate(sa, Modifies::Descriptors);  // shapes are the SDFG's: dropped from one state too
  am.symbol_ranges(g);
  EXPECT_EQ(am.computed(), 3);
  for (Modifies m : {Modifies::States, Modifies::Symbols, Modifies::NestedSDFGs}) {
    const int64_t before = am.computed();
    am.invalidate(m);
    am.symbol_ranges(g);
    EXPECT_EQ(am.computed(), before + 1) << to_string(m);
  }
}

// A nested SDFG has its own entry: its sizes, none of the outer loop's variable.
TEST(TransformSymbolRanges, NestedSdfgIsItsOwnEntry) {
  OneLoop l("0", "(i < N)", "(i + 1)");
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "inner";
  inner->symbols["K"] = ir::DType::of(T::Int64);
  add_array(*inner, "B", T::Float64, {"K"});
  ir::State& inner_state = add_state(*inner, *inner, "s");
  const ir::SDFG* nested = inner.get();
  add_nested(*l.body, std::move(inner), {}, {}, {{"K", "i"}});
  AnalysisManager am;
  const SymbolRanges& outer = am.symbol_ranges(*l.g);
  const SymbolRanges& in = am.symbol_ranges(*nested);
  EXPECT_EQ(am.computed(), 2);
  expect_range(in, inner_state, "K", "0", nullptr);
  expect_none(in, inner_state, "i");
  expect_none(outer, inner_state, "K");  // not a block of the outer SDFG
  expect_range(outer, *l.body, "i", "0", "N - 1");
}

// LoopUnroll reads the loop's header from the cache: an edit of the header is seen once it
// is reported as an interstate-code change (a stale entry would keep the old bound).
TEST(TransformSymbolRanges, LoopUnrollReadsTheCachedHeader) {
  OneLoop l("0", "(i < N)", "(i + 1)");
  std::unique_ptr<Transformation> t = make_transformation("LoopUnroll");
  AnalysisManager am;
  const Match m = t->enumerate(*l.g, am).at(0);
  EXPECT_FALSE(t->can_be_applied(*l.g, m, am));
  EXPECT_NE(t->why_not().find("is not a constant"), std::string::npos) << t->why_not();
  l.loop->loop_condition.code = "(i < 4)";
  AnalysisManager fresh;
  EXPECT_TRUE(t->can_be_applied(*l.g, m, fresh)) << t->why_not();
  am.invalidate(Modifies::Memlets);
  EXPECT_FALSE(t->can_be_applied(*l.g, m, am)) << "the header was read again although nothing reported it";
  am.invalidate(Modifies::InterstateEdges);
  EXPECT_TRUE(t->can_be_applied(*l.g, m, am)) << t->why_not();
}

}  // namespace
}  // namespace dace::transform::testing
