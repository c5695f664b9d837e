// SymbolPropagation on hand-built SDFGs: an expression assigned on every path into a state
// replaces its symbol there (results against C++ loops); a symbol assigned differently on two
// paths, reassigned inputs (`i = i + 1`) and values read from data are not propagated.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "transform/symbol_propagation.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

bool run_sp(ir::SDFG& g) {
  SymbolPropagation p;
  AnalysisManager am;
  Result<bool> r = run_pass(g, p, am);
  EXPECT_TRUE(r.ok()) << r.error().message;
  Status v = analysis::validate(g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return r.ok() && *r;
}

// B[i] = A[i] + m for i in 0:m.
void add_m(ir::State& s) {
  auto [entry, exit] = map(s, {"i"}, "0:m");
  int t = tasklet(s, "y = x + m", {"x"}, {"y"});
  edge_in(s, access(s, "A"), entry, t, "x", "A[0:m]", "A[i]");
  edge_out(s, t, "y", exit, access(s, "B"), "B[i]", "B[0:m]");
}

// s0 -> s1 when N > 4 (assigns m = left), else s0 -> s2 (m = right); both reach s3.
std::unique_ptr<ir::SDFG> two_paths(const char* left, const char* right) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "sp";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["m"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  int s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  add_state(*g, *g, "s0", &s0);
  add_state(*g, *g, "s1", &s1);
  add_state(*g, *g, "s2", &s2);
  add_m(add_state(*g, *g, "s3", &s3));
  add_interstate(*g, s0, s1, "N > 4", {{"m", left}});
  add_interstate(*g, s0, s2, "not (N > 4)", {{"m", right}});
  add_interstate(*g, s1, s3);
  add_interstate(*g, s2, s3);
  return g;
}

const ir::Tasklet& only_tasklet(const ir::SDFG& g) {
  for (const ir::State* s : g.all_states())
    for (int id : s->node_ids())
      if (s->node(id)->kind == ir::NodeKind::Tasklet) return static_cast<const ir::Tasklet&>(*s->node(id));
  static ir::Tasklet none;
  return none;
}

void expect_add(const ir::SDFG& g, int64_t n, int64_t m) {
  std::vector<double> a(static_cast<size_t>(n)), b(static_cast<size_t>(n), -1.0);
  for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i)] = 0.25 * static_cast<double>(i * i);
  run_sdfg(g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  for (int64_t i = 0; i < n; ++i)
    EXPECT_DOUBLE_EQ(b[static_cast<size_t>(i)], i < m ? a[static_cast<size_t>(i)] + static_cast<double>(m) : -1.0) << i;
}

TEST(TransformSymbolPropagation, TheSameExpressionOnEveryPathReplacesTheSymbol) {
  auto g = two_paths("N - 2", "N - 2");
  ASSERT_TRUE(run_sp(*g));
  EXPECT_EQ(only_tasklet(*g).code.code, "y = x + (N - 2)");
  expect_add(*g, 7, 5);
}

TEST(TransformSymbolPropagation, DifferentExpressionsStay) {
  auto g = two_paths("N - 2", "N - 1");
  EXPECT_FALSE(run_sp(*g));
  EXPECT_EQ(only_tasklet(*g).code.code, "y = x + m");
  expect_add(*g, 7, 5);
  expect_add(*g, 3, 2);
}

TEST(TransformSymbolPropagation, ReassignedInputsAndDataStay) {
  // Both paths assign the same text, so only the checks below keep it from propagating.
  {
    // `m = m + 1`: after the edge, `m + 1` no longer means the value assigned.
    auto g = two_paths("m + 1", "m + 1");
    for (const auto& [slot, values] : propagated_symbol_values(*g)) EXPECT_EQ(values.count("m"), 0u) << slot;
    EXPECT_FALSE(run_sp(*g));
  }
  {
    // `m = N2` where N2 is a data container: the data may change before the use.
    auto g = two_paths("C", "C");
    add_scalar(*g, "C", T::Int64);
    for (const auto& [slot, values] : propagated_symbol_values(*g)) EXPECT_EQ(values.count("m"), 0u) << slot;
    EXPECT_FALSE(run_sp(*g));
  }
}

}  // namespace
}  // namespace dace::transform::testing
