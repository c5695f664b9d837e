// ArrayElimination's removal of views: `A -> V (A[1:N-1]) -> map` reads A directly with
// offset memlets, a slice view `A[0:N, 2]` drops its column index, and `map -> V -> B` (a write
// view) writes B directly, checked against C++ loops; views whose strides or shapes differ
// from their array's (reshapes) are kept.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "transform/array_elimination.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;  // not the dace::tasklet namespace
using T = ir::ScalarType;

// B[i] = V[i] * 3 over i in 0:N-2, V a view of A[1:N-1] with stride `stride`.
std::unique_ptr<ir::SDFG> program(const std::string& stride) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "views";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N - 2"});
  add_view(*g, "V", T::Float64, {"N - 2"}, {stride});
  ir::State& s = add_state(*g, *g, "s0");
  const int v = access(s, "V");
  s.node(v)->in_connectors["views"] = ir::DType{};  // DaCe marks the edge that defines a view
  edge(s, access(s, "A"), "", v, "views", "A[1:N - 1] -> [0:N - 2]");
  auto [entry, exit] = map(s, {"i"}, "0:N - 2");
  int t = tasklet(s, "y = x * 3", {"x"}, {"y"});
  edge_in(s, v, entry, t, "x", "V[0:N - 2]", "V[i]");
  edge_out(s, t, "y", exit, access(s, "B"), "B[i]", "B[0:N - 2]");
  return g;
}

bool run_ae(ir::SDFG& g) {
  ArrayElimination p;
  AnalysisManager am;
  Result<bool> r = run_pass(g, p, am);
  EXPECT_TRUE(r.ok()) << r.error().message;
  Status v = analysis::validate(g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return r.ok() && *r;
}

TEST(TransformArrayElimination, RemovesAReadViewOfABlock) {
  auto g = program("1");
  const int64_t n = 6;
  std::vector<double> a{1, 2, 3, 4, 5, 6}, before(n - 2, 0), after(n - 2, 0);
  run_sdfg(*g, {{"A", &a}, {"B", &before}}, {{"N", n}});
  ASSERT_TRUE(run_ae(*g));
  EXPECT_EQ(g->arrays.count("V"), 0u);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::Access), 2);
  run_sdfg(*g, {{"A", &a}, {"B", &after}}, {{"N", n}});
  EXPECT_EQ(after, (std::vector<double>{6, 9, 12, 15}));
  EXPECT_EQ(after, before);
}

TEST(TransformArrayElimination, KeepsAViewWithOtherStrides) {
  auto g = program("2");
  EXPECT_FALSE(run_ae(*g));
  EXPECT_EQ(g->arrays.count("V"), 1u);
}

TEST(TransformArrayElimination, RemovesASliceViewThatDropsADimension) {
  // B[i] = V[i] * 3 with V the column A[0:N, 2] of an N x 3 array (stride 3).
  auto g = std::make_unique<ir::SDFG>();
  g->name = "slice";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "3"});
  add_array(*g, "B", T::Float64, {"N"});
  add_view(*g, "V", T::Float64, {"N"}, {"3"});
  ir::State& s = add_state(*g, *g, "s0");
  const int v = access(s, "V");
  s.node(v)->in_connectors["views"] = ir::DType{};
  edge(s, access(s, "A"), "", v, "views", "A[0:N, 2] -> [0:N]");
  auto [entry, exit] = map(s, {"i"}, "0:N");
  int t = tasklet(s, "y = x * 3", {"x"}, {"y"});
  edge_in(s, v, entry, t, "x", "V[0:N]", "V[i]");
  edge_out(s, t, "y", exit, access(s, "B"), "B[i]", "B[0:N]");
  ASSERT_TRUE(run_ae(*g));
  EXPECT_EQ(g->arrays.count("V"), 0u);
  const int64_t n = 3;
  std::vector<double> a{1, 2, 3, 4, 5, 6, 7, 8, 9}, b(n, 0);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  EXPECT_EQ(b, (std::vector<double>{9, 18, 27}));
}

// V[i] = A[i] * 2 over i in 0:N-2, V a write view of B[1:N-1] (`map -> V -> B`, the edge into
// B marked `views`) of shape `shape` and strides `strides`.
std::unique_ptr<ir::SDFG> write_view(const std::vector<std::string>& shape, const std::vector<std::string>& strides,
                                     const std::string& inner, const std::string& view_memlet) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "write_view";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N - 2"});
  add_array(*g, "B", T::Float64, {"N"});
  add_view(*g, "V", T::Float64, shape, strides);
  ir::State& s = add_state(*g, *g, "s0");
  const int v = access(s, "V");
  s.node(v)->out_connectors["views"] = ir::DType{};
  auto [entry, exit] = map(s, {"i"}, "0:N - 2");
  int t = tasklet(s, "y = x * 2", {"x"}, {"y"});
  edge_in(s, access(s, "A"), entry, t, "x", "A[0:N - 2]", "A[i]");
  std::string whole = "V[0:N - 2]";
  if (shape.size() == 2) whole = "V[0:2, 0:(N - 2) / 2]";
  edge_out(s, t, "y", exit, v, inner, whole);
  edge(s, v, "views", access(s, "B"), "", view_memlet);
  return g;
}

TEST(TransformArrayElimination, RemovesAWriteViewOfABlock) {
  auto g = write_view({"N - 2"}, {"1"}, "V[i]", "V[0:N - 2] -> [1:N - 1]");
  const int64_t n = 6;
  std::vector<double> a{1, 2, 3, 4}, before(n, -1.0), after(n, -1.0);
  run_sdfg(*g, {{"A", &a}, {"B", &before}}, {{"N", n}});
  ASSERT_TRUE(run_ae(*g));
  EXPECT_EQ(g->arrays.count("V"), 0u);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::Access), 2);
  run_sdfg(*g, {{"A", &a}, {"B", &after}}, {{"N", n}});
  std::vector<double> expect(n, -1.0);
  for (int64_t i = 0; i < n - 2; ++i) expect[i + 1] = a[i] * 2;
  EXPECT_EQ(after, expect);
  EXPECT_EQ(after, before);
}

TEST(TransformArrayElimination, KeepsAReshapingWriteView) {
  // V is B[1:N-1] seen as 2 x (N-2)/2: its writers index a matrix.
  auto g = write_view({"2", "(N - 2) / 2"}, {"(N - 2) / 2", "1"}, "V[i % 2, i / 2]", "V[0:2, 0:(N - 2) / 2] -> [1:N - 1]");
  EXPECT_FALSE(run_ae(*g));
  EXPECT_EQ(g->arrays.count("V"), 1u);
}

}  // namespace
}  // namespace dace::transform::testing
