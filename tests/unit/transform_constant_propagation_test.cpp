// ConstantPropagation on hand-built SDFGs: a symbol with one value on every path is replaced
// by it in memlets, map ranges, tasklet code and conditions, and its assignments go; values
// that differ between paths, read data or change in a loop stay; constants reach nested SDFGs
// through their symbol mapping. Results against C++ loops.
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
  EXPECT_EQ(only_tasklet(*g).code.code, "y = x + 5");
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
  EXPECT_EQ(only_tasklet(*g).code.code, "y = x + 2");
  expect_add(*g, 2);
}

// s0 --[n = <value>]--> s1, where s1 holds a nested SDFG computing add_n on x, y (A, B
// outside) with the mapping {N: N, n: n}: the outer value reaches the inner SDFG through its
// mapping (DaCe's recursive ConstantPropagation, initial symbols from the mapping).
struct Nested {
  std::unique_ptr<ir::SDFG> g;
  ir::NestedSDFGNode* node = nullptr;
};
Nested nested_add(const std::string& value) {
  Nested out{base(), nullptr};
  ir::SDFG& g = *out.g;
  g.symbols["M"] = ir::DType::of(T::Int64);
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "inner";
  for (const char* k : {"N", "n"}) inner->symbols[k] = ir::DType::of(T::Int64);
  add_array(*inner, "A", T::Float64, {"N"});
  add_array(*inner, "B", T::Float64, {"N"});
  add_n(add_state(*inner, *inner, "is"));
  int s0 = 0, s1 = 0;
  add_state(g, g, "s0", &s0);
  ir::State& s = add_state(g, g, "s1", &s1);
  auto nn = std::make_unique<ir::NestedSDFGNode>();
  nn->label = "inner";
  nn->in_connectors["A"] = ir::DType{};
  nn->out_connectors["B"] = ir::DType{};
  for (const char* k : {"N", "n"}) nn->symbol_mapping[k] = E(k);
  inner->parent_node = nn.get();
  nn->sdfg = std::move(inner);
  out.node = nn.get();
  const int n = s.add_node(std::move(nn));
  edge(s, access(s, "A"), "", n, "A", "A[0:N]");
  edge(s, n, "B", access(s, "B"), "", "B[0:N]");
  add_interstate(g, s0, s1, "1", {{"n", value}});
  return out;
}

TEST(TransformConstantPropagation, AConstantReachesANestedSdfgThroughItsMapping) {
  Nested t = nested_add("5");
  ASSERT_TRUE(run_cp(*t.g));
  EXPECT_EQ(assignment_count(*t.g), 0u);
  // Propagated everywhere inside: gone from the inner symbols and from the mapping.
  EXPECT_EQ(t.node->symbol_mapping.count("n"), 0u);
  EXPECT_EQ(t.node->sdfg->symbols.count("n"), 0u);
  EXPECT_EQ(t.node->symbol_mapping.count("N"), 1u);
  EXPECT_EQ(only_tasklet(*t.node->sdfg).code.code, "y = x + 5");
  expect_add(*t.g, 5);
}

// n = M (an argument): the mapping carries a symbol, not a constant, so nothing is
// propagated inside (DaCe takes only constants from the mapping).
TEST(TransformConstantPropagation, ASymbolicMappingIsNotPropagatedIntoANestedSdfg) {
  Nested t = nested_add("M");
  run_cp(*t.g);
  EXPECT_EQ(t.node->sdfg->symbols.count("n"), 1u);
  EXPECT_EQ(only_tasklet(*t.node->sdfg).code.code, "y = x + n");
  ASSERT_EQ(t.node->symbol_mapping.count("n"), 1u);
  EXPECT_EQ(sym::to_string(t.node->symbol_mapping.at("n")), "M");
  const int64_t size = 8, m = 3;
  std::vector<double> a(size), b(size, -1.0), c(1, 0.0);
  for (int64_t i = 0; i < size; ++i) a[static_cast<size_t>(i)] = 1.5 * static_cast<double>(i);
  run_sdfg(*t.g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", size}, {"M", m}});
  for (int64_t i = 0; i < size; ++i)
    EXPECT_DOUBLE_EQ(b[static_cast<size_t>(i)], i < m ? a[static_cast<size_t>(i)] + static_cast<double>(m) : -1.0) << i;
}

}  // namespace
}  // namespace dace::transform::testing
