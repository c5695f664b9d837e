// Maps: steps (positive, negative, symbolic bounds), nested maps, multi-dimensional maps,
// CPU_Multicore maps through the runtime's parallel_for, WCR sums inside parallel maps.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "triangle_sdfg_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

// B[i] = i for i in `ranges` (a 1-D map over B of size N).
std::unique_ptr<ir::SDFG> index_writer(const std::string& ranges, ir::ScheduleType schedule) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "steps";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "B", T::Int64, {"N"});
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i"}, ranges, schedule);
  int t = tasklet(s, "b = i", {}, {"b"});
  edge(s, entry, "", t, "", "");
  edge_out(s, t, "b", exit, access(s, "B"), "B[i]", "B[0:N]");
  return g;
}

std::vector<int64_t> run_writer(const ir::SDFG& g, int64_t n, const LowerOptions& options = parallel_test_options()) {
  std::vector<int64_t> b(static_cast<size_t>(n), -1);
  Status v = analysis::validate(g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile(g, options);
  EXPECT_TRUE(p.ok()) << p.error().message;
  if (!p.ok()) return b;
  Status r = run(*p, {{"B", ArgValue::pointer(b.data())}, {"N", ArgValue::scalar<int64_t>(n)}});
  EXPECT_TRUE(r.ok()) << r.error().message;
  return b;
}

TEST(CodegenMap, PositiveStep) {
  std::vector<int64_t> b = run_writer(*index_writer("1:N:3", ir::ScheduleType::Sequential), 11);
  std::vector<int64_t> e(11, -1);
  for (int64_t i = 1; i < 11; i += 3) e[i] = i;
  EXPECT_EQ(b, e);
}

TEST(CodegenMap, NegativeStep) {
  // Range 9 down to 1 (inclusive) in steps of -2: 9, 7, 5, 3, 1.
  auto g = index_writer("0:1", ir::ScheduleType::Sequential);
  for (int id : static_cast<ir::State*>(g->block(0))->node_ids()) {
    ir::Node* n = static_cast<ir::State*>(g->block(0))->node(id);
    if (n->kind == ir::NodeKind::MapEntry)
      static_cast<ir::MapEntry*>(n)->map.range.dims[0] = sym::Range{sym::integer(9), sym::integer(1), sym::integer(-2), sym::integer(1)};
  }
  std::vector<int64_t> b = run_writer(*g, 10);
  std::vector<int64_t> e(10, -1);
  for (int64_t i = 9; i >= 1; i -= 2) e[i] = i;
  EXPECT_EQ(b, e);
}

TEST(CodegenMap, ParallelMapCoversEveryIndexOnce) {
  int64_t before = parallel_calls();
  std::vector<int64_t> b = run_writer(*index_writer("0:N", ir::ScheduleType::CPU_Multicore), 100000);
  std::vector<int64_t> e(100000);
  std::iota(e.begin(), e.end(), 0);
  EXPECT_EQ(b, e);
  EXPECT_GT(parallel_calls(), before);  // worker threads ran parts of it
}

TEST(CodegenMap, DefaultScheduleIsParallelAtTopLevel) {
  int64_t before = parallel_calls();
  std::vector<int64_t> b = run_writer(*index_writer("2:N", ir::ScheduleType::Default), 50000);
  for (int64_t i = 2; i < 50000; ++i) ASSERT_EQ(b[i], i);
  EXPECT_EQ(b[0], -1);
  EXPECT_GT(parallel_calls(), before);
}

// A flat body over a handful of iterations costs less than forking a team: it runs inline,
// and the same program still forks for a large range.
TEST(CodegenMap, SmallFlatParallelMapRunsInline) {
  auto g = index_writer("0:N", ir::ScheduleType::CPU_Multicore);
  const LowerOptions defaults;  // inline_small_parallel_maps on, as in dace_program_compile
  int64_t before = parallel_calls();
  std::vector<int64_t> small = run_writer(*g, 16, defaults);
  for (int64_t i = 0; i < 16; ++i) EXPECT_EQ(small[i], i);
  EXPECT_EQ(parallel_calls(), before);
  std::vector<int64_t> large = run_writer(*g, 100000, defaults);
  for (int64_t i = 0; i < 100000; ++i) ASSERT_EQ(large[i], i);
  EXPECT_GT(parallel_calls(), before);
}

// C[i, j] = A[i, j] * 10 + j over a 2-D map, nested inside a 1-D parallel map variant too.
TEST(CodegenMap, TwoDimensionalAndCollapsed) {
  for (int64_t collapse : {1, 2}) {
    auto g = std::make_unique<ir::SDFG>();
    g->name = "twod";
    g->symbols["N"] = ir::DType::of(T::Int64);
    g->symbols["M"] = ir::DType::of(T::Int64);
    add_array(*g, "A", T::Float64, {"N", "M"});
    add_array(*g, "C", T::Float64, {"N", "M"});
    ir::State& s = add_state(*g, *g, "s");
    auto [entry, exit] = map(s, {"i", "j"}, "0:N, 0:M", ir::ScheduleType::CPU_Multicore);
    static_cast<ir::MapEntry*>(s.node(entry))->map.collapse = collapse;
    int t = tasklet(s, "c = a * 10 + j", {"a"}, {"c"});
    edge_in(s, access(s, "A"), entry, t, "a", "A[0:N, 0:M]", "A[i, j]");
    edge_out(s, t, "c", exit, access(s, "C"), "C[i, j]", "C[0:N, 0:M]");
    ASSERT_TRUE(analysis::validate(*g).ok()) << analysis::validate(*g).error().message;
    const int64_t n = 7, m = 5;
    std::vector<double> a(n * m), c(n * m);
    for (size_t k = 0; k < a.size(); ++k) a[k] = 0.5 * static_cast<double>(k);
    Result<CompiledProgram> p = compile(*g);
    ASSERT_TRUE(p.ok()) << p.error().message;
    ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"C", ArgValue::pointer(c.data())},
                         {"N", ArgValue::scalar<int64_t>(n)}, {"M", ArgValue::scalar<int64_t>(m)}})
                    .ok());
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < m; ++j) EXPECT_EQ(c[i * m + j], a[i * m + j] * 10 + static_cast<double>(j));
  }
}

// S = sum(A) with a WCR memlet out of a parallel map: atomics keep it exact for integers.
TEST(CodegenMap, WcrSumInParallelMap) {
  for (T type : {T::Int64, T::Float64}) {
    auto g = std::make_unique<ir::SDFG>();
    g->name = "wcrsum";
    g->symbols["N"] = ir::DType::of(T::Int64);
    add_array(*g, "A", type, {"N"});
    add_array(*g, "S", type, {"1"});
    ir::State& s = add_state(*g, *g, "s");
    auto [entry, exit] = map(s, {"i"}, "0:N", ir::ScheduleType::CPU_Multicore);
    int t = tasklet(s, "o = a", {"a"}, {"o"});
    edge_in(s, access(s, "A"), entry, t, "a", "A[0:N]", "A[i]");
    edge_out(s, t, "o", exit, access(s, "S"), "S[0]", "S[0]", "lambda x, y: x + y");
    ASSERT_TRUE(analysis::validate(*g).ok()) << analysis::validate(*g).error().message;
    Result<CompiledProgram> p = compile(*g);
    ASSERT_TRUE(p.ok()) << p.error().message;
    EXPECT_NE(p->ir.find("atomicrmw"), std::string::npos);
    const int64_t n = 20000;
    if (type == T::Int64) {
      std::vector<int64_t> a(n), sum{5};
      std::iota(a.begin(), a.end(), 1);
      ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"S", ArgValue::pointer(sum.data())},
                           {"N", ArgValue::scalar<int64_t>(n)}})
                      .ok());
      EXPECT_EQ(sum[0], 5 + n * (n + 1) / 2);
    } else {
      std::vector<double> a(n, 0.25), sum{1.0};  // exact in binary: order does not matter
      ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"S", ArgValue::pointer(sum.data())},
                           {"N", ArgValue::scalar<int64_t>(n)}})
                      .ok());
      EXPECT_EQ(sum[0], 1.0 + 0.25 * n);
    }
  }
}

// WCR max with a custom lambda (compare-and-swap loop) and a product.
TEST(CodegenMap, WcrCustomAndMax) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "wcrmax";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "M", T::Float64, {"2"});
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i"}, "0:N", ir::ScheduleType::CPU_Multicore);
  int t = tasklet(s, "o = a\np = a", {"a"}, {"o", "p"});
  edge_in(s, access(s, "A"), entry, t, "a", "A[0:N]", "A[i]");
  int m = access(s, "M");
  s.node(exit)->in_connectors["IN_M"] = ir::DType{};
  s.node(exit)->out_connectors["OUT_M"] = ir::DType{};
  s.node(exit)->in_connectors["IN_M1"] = ir::DType{};
  s.node(exit)->out_connectors["OUT_M1"] = ir::DType{};
  edge(s, t, "o", exit, "IN_M", "M[0]", "(lambda a, b: max(a, b))");
  edge(s, exit, "OUT_M", m, "", "M[0]", "(lambda a, b: max(a, b))");
  edge(s, t, "p", exit, "IN_M1", "M[1]", "lambda a, b: a + b * 2");
  edge(s, exit, "OUT_M1", m, "", "M[1]", "lambda a, b: a + b * 2");
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_NE(p->ir.find("cmpxchg"), std::string::npos);
  const int64_t n = 5000;
  std::vector<double> a(n), out{-1e300, 0.0};
  for (int64_t i = 0; i < n; ++i) a[i] = static_cast<double>((i * 7919) % 1000);
  ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"M", ArgValue::pointer(out.data())},
                       {"N", ArgValue::scalar<int64_t>(n)}})
                  .ok());
  double mx = -1e300, sum = 0.0;
  for (double x : a) {
    mx = std::max(mx, x);
    sum += 2 * x;
  }
  EXPECT_EQ(out[0], mx);
  EXPECT_EQ(out[1], sum);  // integers below 2^53: exact in any order
}

// A map nested in a map, with symbolic inner bounds depending on the outer parameter
// (a triangle).
TEST(CodegenMap, NestedTriangularMaps) {
  std::unique_ptr<ir::SDFG> g = triangle_sdfg("tri", ir::ScheduleType::Default, ir::ScheduleType::Default).sdfg;
  ASSERT_TRUE(analysis::validate(*g).ok()) << analysis::validate(*g).error().message;
  const int64_t n = 9;
  std::vector<int64_t> c(n * n, -1);
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_TRUE(run(*p, {{"C", ArgValue::pointer(c.data())}, {"N", ArgValue::scalar<int64_t>(n)}}).ok());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) EXPECT_EQ(c[i * n + j], j <= i ? i * 100 + j : -1);
}

}  // namespace
}  // namespace dace::codegen::testing
