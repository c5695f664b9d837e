// TrivialMapElimination and MapCollapse on hand-built SDFGs: results before and after are
// compared with plain C++ loops; illegal patterns are refused.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;  // builder helpers
using codegen::testing::tasklet;  // not the dace::tasklet namespace
using T = ir::ScalarType;

// B[i] = A[i, 3] * 2 over the map i = 0:N, j = 3:4 (j has one iteration).
std::unique_ptr<ir::SDFG> partial_trivial() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "tme_partial";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "5"});
  add_array(*g, "B", T::Float64, {"N"});
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i", "j"}, "0:N, 3:4");
  int t = tasklet(s, "b = a * 2", {"a"}, {"b"});
  edge_in(s, access(s, "A"), entry, t, "a", "A[0:N, 3]", "A[i, j]");
  edge_out(s, t, "b", exit, access(s, "B"), "B[i]", "B[0:N]");
  return g;
}

// Inside the map i = 0:N, an inner map k = 0:1 whose tasklet has no input: B[i] = 7 + 0.
std::unique_ptr<ir::SDFG> nested_write_only() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "tme_nested";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "B", T::Float64, {"N"});
  ir::State& s = add_state(*g, *g, "s");
  auto [outer, outer_exit] = map(s, {"i"}, "0:N");
  auto [inner, inner_exit] = map(s, {"k"}, "0:1");
  edge(s, outer, "", inner, "", "");
  int t = tasklet(s, "b = 7", {}, {"b"});
  edge(s, inner, "", t, "", "");
  s.node(inner_exit)->in_connectors["IN_B"] = ir::DType{};
  s.node(inner_exit)->out_connectors["OUT_B"] = ir::DType{};
  edge(s, t, "b", inner_exit, "IN_B", "B[i + k]");
  edge_out(s, inner_exit, "OUT_B", outer_exit, access(s, "B"), "B[i]", "B[0:N]");
  return g;
}

TEST(TransformTrivialMapElimination, RemovesASingleIterationDimension) {
  auto g = partial_trivial();
  const int64_t n = 6;
  std::vector<double> a(n * 5), expect(n), before(n, 0), after(n, 0);
  for (size_t i = 0; i < a.size(); ++i) a[i] = 0.5 * static_cast<double>(i) - 3;
  for (int64_t i = 0; i < n; ++i) expect[i] = a[i * 5 + 3] * 2;
  run_sdfg(*g, {{"A", &a}, {"B", &before}}, {{"N", n}});
  EXPECT_EQ(before, expect);

  ASSERT_TRUE(apply_once(*g, "TrivialMapElimination"));
  const auto* s = static_cast<const ir::State*>(g->block(0));
  for (int id : s->node_ids())
    if (s->node(id)->kind == ir::NodeKind::MapEntry) {
      EXPECT_EQ(static_cast<const ir::MapEntry*>(s->node(id))->map.params, std::vector<std::string>{"i"});
    }
  run_sdfg(*g, {{"A", &a}, {"B", &after}}, {{"N", n}});
  EXPECT_EQ(after, expect);
  EXPECT_FALSE(applies_anywhere(*g, "TrivialMapElimination"));
}

TEST(TransformTrivialMapElimination, RemovesAWholeMap) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "tme_whole";
  add_array(*g, "A", T::Float64, {"4"});
  add_array(*g, "B", T::Float64, {"4"});
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"k"}, "2:3");
  int t = tasklet(s, "b = a + 1", {"a"}, {"b"});
  edge_in(s, access(s, "A"), entry, t, "a", "A[2]", "A[k]");
  edge_out(s, t, "b", exit, access(s, "B"), "B[k]", "B[2]");
  std::vector<double> a{1, 2, 3, 4}, b(4, 0);
  ASSERT_TRUE(apply_once(*g, "TrivialMapElimination"));
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::MapEntry), 0);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::MapExit), 0);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {});
  EXPECT_EQ(b, (std::vector<double>{0, 0, 4, 0}));
}

TEST(TransformTrivialMapElimination, KeepsOrderingEdgesOfTheRemovedScope) {
  // C -(empty memlet)-> map: the map body runs after C is written. Without the map, the
  // body's tasklet must still hang below C.
  auto g = std::make_unique<ir::SDFG>();
  g->name = "tme_order";
  for (const char* n : {"A", "B", "C"}) add_array(*g, n, T::Float64, {"4"});
  ir::State& s = add_state(*g, *g, "s");
  int init = tasklet(s, "c = 5", {}, {"c"});
  int c = access(s, "C");
  edge(s, init, "c", c, "", "C[1]");
  auto [entry, exit] = map(s, {"k"}, "2:3");
  edge(s, c, "", entry, "", "");
  int t = tasklet(s, "b = a + 1", {"a"}, {"b"});
  edge_in(s, access(s, "A"), entry, t, "a", "A[2]", "A[k]");
  edge_out(s, t, "b", exit, access(s, "B"), "B[k]", "B[2]");
  ASSERT_TRUE(apply_once(*g, "TrivialMapElimination"));
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::MapEntry), 0);
  bool ordered = false;
  for (int e : s.in_edges(t)) ordered |= s.edge(e)->src == c && s.edge(e)->memlet.is_empty();
  EXPECT_TRUE(ordered);
  std::vector<double> a{1, 2, 3, 4}, b(4, 0), cc(4, 0);
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &cc}}, {});
  EXPECT_EQ(b, (std::vector<double>{0, 0, 4, 0}));
  EXPECT_EQ(cc, (std::vector<double>{0, 5, 0, 0}));
}

TEST(TransformTrivialMapElimination, KeepsInputlessTaskletsInTheOuterScope) {
  auto g = nested_write_only();
  const int64_t n = 5;
  std::vector<double> b(n, 0);
  ASSERT_TRUE(apply_once(*g, "TrivialMapElimination"));
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::MapEntry), 1);
  run_sdfg(*g, {{"B", &b}}, {{"N", n}});
  EXPECT_EQ(b, std::vector<double>(n, 7));
}

TEST(TransformTrivialMapElimination, RefusesParametersUsedInTaskletCode) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "tme_code";
  add_array(*g, "B", T::Float64, {"4"});
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"k"}, "1:2");
  int t = tasklet(s, "b = k", {}, {"b"});
  edge(s, entry, "", t, "", "");
  edge_out(s, t, "b", exit, access(s, "B"), "B[k]", "B[1]");
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "TrivialMapElimination", &why));
  EXPECT_NE(why.find("\"k\" occurs in the code"), std::string::npos) << why;
}

TEST(TransformTrivialMapElimination, RefusesGpuMaps) {
  auto g = partial_trivial();
  auto* s = static_cast<ir::State*>(g->block(0));
  for (int id : s->node_ids())
    if (s->node(id)->kind == ir::NodeKind::MapEntry)
      static_cast<ir::MapEntry*>(s->node(id))->map.schedule = ir::ScheduleType::GPU_Device;
  EXPECT_FALSE(applies_anywhere(*g, "TrivialMapElimination"));
}

// B[i, j] = A[i, j] + i * 10 + j over i = 0:N, j = inner_range, as two nested maps.
std::unique_ptr<ir::SDFG> nested_maps(const std::string& inner_range) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "collapse";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "M"});
  add_array(*g, "B", T::Float64, {"N", "M"});
  ir::State& s = add_state(*g, *g, "s");
  auto [outer, outer_exit] = map(s, {"i"}, "0:N");
  auto [inner, inner_exit] = map(s, {"j"}, inner_range);
  int t = tasklet(s, "b = a + 1", {"a"}, {"b"});
  for (int n : {outer, inner}) {
    s.node(n)->in_connectors["IN_A"] = ir::DType{};
    s.node(n)->out_connectors["OUT_A"] = ir::DType{};
  }
  for (int n : {outer_exit, inner_exit}) {
    s.node(n)->in_connectors["IN_B"] = ir::DType{};
    s.node(n)->out_connectors["OUT_B"] = ir::DType{};
  }
  edge(s, access(s, "A"), "", outer, "IN_A", "A[0:N, 0:M]");
  edge(s, outer, "OUT_A", inner, "IN_A", "A[i, 0:M]");
  edge(s, inner, "OUT_A", t, "a", "A[i, j]");
  edge(s, t, "b", inner_exit, "IN_B", "B[i, j]");
  edge(s, inner_exit, "OUT_B", outer_exit, "IN_B", "B[i, 0:M]");
  edge(s, outer_exit, "OUT_B", access(s, "B"), "", "B[0:N, 0:M]");
  return g;
}

TEST(TransformMapCollapse, CollapsesPerfectlyNestedMaps) {
  auto g = nested_maps("0:M");
  const int64_t n = 4, m = 7;
  std::vector<double> a(n * m), expect(n * m), b(n * m, 0);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<double>(i % 9) * 1.5;
  for (size_t i = 0; i < a.size(); ++i) expect[i] = a[i] + 1;

  std::optional<Match> applied = apply_once(*g, "MapCollapse");
  ASSERT_TRUE(applied);
  EXPECT_EQ(applied->subgraph.size(), 2u);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::MapEntry), 1);
  const auto* s = static_cast<const ir::State*>(g->block(0));
  for (int id : s->node_ids())
    if (s->node(id)->kind == ir::NodeKind::MapEntry) {
      EXPECT_EQ(static_cast<const ir::MapEntry*>(s->node(id))->map.params, (std::vector<std::string>{"i", "j"}));
    }
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}, {"M", m}});
  EXPECT_EQ(b, expect);
}

TEST(TransformMapCollapse, RefusesAnInnerRangeThatDependsOnTheOuterParameter) {
  auto g = nested_maps("0:i + 1");  // triangular: the product space is not rectangular
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "MapCollapse", &why));
  EXPECT_NE(why.find("depends on outer parameter \"i\""), std::string::npos) << why;
}

TEST(TransformMapCollapse, RefusesDifferentSchedules) {
  auto g = nested_maps("0:M");
  auto* s = static_cast<ir::State*>(g->block(0));
  static_cast<ir::MapEntry*>(s->node(0))->map.schedule = ir::ScheduleType::CPU_Multicore;
  EXPECT_FALSE(applies_anywhere(*g, "MapCollapse"));
}

TEST(TransformMapCollapse, NamedLocationThatDoesNotMatchIsAnError) {
  auto g = nested_maps("0:i + 1");
  std::unique_ptr<Transformation> t = make_transformation("MapCollapse");
  AnalysisManager am;
  Status s = apply_at(*g, *t, Match{0, 0, {0, 2}, 0}, am);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Code::InvalidArgument);
  EXPECT_NE(s.error().message.find("MapCollapse at cfg 0 / state 0 / {0: 0, 1: 2}"), std::string::npos)
      << s.error().message;
  EXPECT_NE(s.error().message.find("state \"s\""), std::string::npos) << s.error().message;
  Status missing = apply_at(*g, *t, Match{0, 0, {0, 99}, 0}, am);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("no node 99"), std::string::npos) << missing.error().message;
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::MapEntry), 2);  // untouched
}

}  // namespace
}  // namespace dace::transform::testing
