// ConstantPropagation on hand-built SDFGs: a symbol with one value on every path is replaced
// by it in memlets, map ranges, tasklet code and conditions, and its assignments go; values
// that differ between paths, read data or change in a loop stay. Results against C++ loops.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "transform/constant_propagation.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

bool run_cp(ir::SDFG& g) {
  ConstantPropagation p;
  AnalysisManager am;
  Result<bool> r = run_pass(g, p, am);
  EXPECT_TRUE(r.ok()) << r.error().message;
  Status v = analysis::validate(g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return r.ok() && *r;
}

// B[i] = A[i] + n for i in 0:n.
void add_n(ir::State& s) {
  auto [entry, exit] = map(s, {"i"}, "0:n");
  int t = tasklet(s, "y = x + n", {"x"}, {"y"});
  edge_in(s, access(s, "A"), entry, t, "x", "A[0:n]", "A[i]");
  edge_out(s, t, "y", exit, access(s, "B"), "B[i]", "B[0:n]");
}

std::unique_ptr<ir::SDFG> base() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "cp";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["n"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  add_array(*g, "C", T::Int64, {"1"});
  return g;
}

size_t assignment_count(const ir::SDFG& g) {
  size_t n = 0;
  for (int es : g.edge_slots()) n += g.edge(es)->assignments.size();
  return n;
}

const ir::Tasklet& only_tasklet(const ir::SDFG& g) {
  for (const ir::State* s : g.all_states())
    for (int id : s->node_ids())
      if (s->node(id)->kind == ir::NodeKind::Tasklet) return static_cast<const ir::Tasklet&>(*s->node(id));
  static ir::Tasklet none;
  return none;
}

void expect_add(const ir::SDFG& g, int64_t n_value) {
  const int64_t size = 8;
  std::vector<double> a(size), b(size, -1.0), c(1, 0.0);
  for (int64_t i = 0; i < size; ++i) a[static_cast<size_t>(i)] = 1.5 * static_cast<double>(i);
  run_sdfg(g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", size}});
  for (int64_t i = 0; i < size; ++i)
    EXPECT_DOUBLE_EQ(b[static_cast<size_t>(i)], i < n_value ? a[static_cast<size_t>(i)] + static_cast<double>(n_value) : -1.0)
        << i;
}

TEST(TransformConstantPropagation, AConstantReplacesItsSymbolEverywhere) {
  auto g = base();
  int s0 = 0, s1 = 0;
  add_state(*g, *g, "s0", &s0);
  add_n(add_state(*g, *g, "s1", &s1));
  add_interstate(*g, s0, s1, "1", {{"n", "5"}});
  ASSERT_TRUE(run_cp(*g));
  EXPECT_EQ(assignment_count(*g), 0u);
  EXPECT_EQ(g->symbols.count("n"), 0u);
  EXPECT_EQ(only_tasklet(*g).code.code, "y = (x + 5)");
  expect_add(*g, 5);
}

// s0 -> s1 when N > 4, s0 -> s2 otherwise; each edge assigns n; both reach s3 (B = A + n).
std::unique_ptr<ir::SDFG> two_paths(const char* left, const char* right) {
  auto g = base();
  int s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  add_state(*g, *g, "s0", &s0);
  add_state(*g, *g, "s1", &s1);
  add_state(*g, *g, "s2", &s2);
  add_n(add_state(*g, *g, "s3", &s3));
  add_interstate(*g, s0, s1, "N > 4", {{"n", left}});
  add_interstate(*g, s0, s2, "not (N > 4)", {{"n", right}});
  add_interstate(*g, s1, s3);
  add_interstate(*g, s2, s3);
  return g;
}

TEST(TransformConstantPropagation, TheSameValueOnEveryPathIsPropagated) {
  auto g = two_paths("3", "3");
  ASSERT_TRUE(run_cp(*g));
  EXPECT_EQ(assignment_count(*g), 0u);
  expect_add(*g, 3);
}

TEST(TransformConstantPropagation, DifferentValuesOnTwoPathsStay) {
  auto g = two_paths("3", "4");
  EXPECT_FALSE(run_cp(*g));
  EXPECT_EQ(assignment_count(*g), 2u);
  EXPECT_EQ(only_tasklet(*g).code.code, "y = x + n");
  expect_add(*g, 3);  // N = 8 > 4: the left path
}

TEST(TransformConstantPropagation, AValueReadFromDataStays) {
  auto g = base();
  int s0 = 0, s1 = 0;
  ir::State& first = add_state(*g, *g, "s0", &s0);
  int t = tasklet(first, "o = 6", {}, {"o"});
  edge(first, t, "o", access(first, "C"), "", "C[0]");
  add_n(add_state(*g, *g, "s1", &s1));
  add_interstate(*g, s0, s1, "1", {{"n", "C[0]"}});
  EXPECT_FALSE(run_cp(*g));
  EXPECT_EQ(assignment_count(*g), 1u);
  expect_add(*g, 6);
}

// init: n = 2, k = 0; guard: k < 3 -> body (B = A + n), body -> guard: k = k + 1.
TEST(TransformConstantPropagation, ALoopVariableStaysAndAnInvariantIsPropagatedIntoTheLoop) {
  auto g = base();
  g->symbols["k"] = ir::DType::of(T::Int64);
  int init = 0, guard = 0, body = 0, after = 0;
  add_state(*g, *g, "init", &init);
  add_state(*g, *g, "guard", &guard);
  add_n(add_state(*g, *g, "body", &body));
  add_state(*g, *g, "after", &after);
  add_interstate(*g, init, guard, "1", {{"n", "2"}, {"k", "0"}});
  add_interstate(*g, guard, body, "k < 3");
  add_interstate(*g, guard, after, "not (k < 3)");
  add_interstate(*g, body, guard, "1", {{"k", "k + 1"}});
  ASSERT_TRUE(run_cp(*g));
  EXPECT_EQ(g->symbols.count("n"), 0u);
  EXPECT_EQ(g->symbols.count("k"), 1u);
  EXPECT_EQ(assignment_count(*g), 2u);  // k = 0 and k = k + 1
  EXPECT_EQ(only_tasklet(*g).code.code, "y = (x + 2)");
  expect_add(*g, 2);
}

}  // namespace
}  // namespace dace::transform::testing
