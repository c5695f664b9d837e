// ConsolidateEdges on hand-built SDFGs: a map reading (writing) one container through two
// connectors from (to) the same access node keeps one connector whose outer memlet is the
// bounding box of both; results against plain C++ loops; connectors joining different nodes
// stay apart.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/json/sdfg_json.h"
#include "transform/consolidate_edges.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;  // not the dace::tasklet namespace
using T = ir::ScalarType;

// B[0, i] = A[i] + A[i + 1], B[1, i] = A[i] - A[i + 1] for i in 0:N-1; A reaches the tasklet
// through connectors IN_1 and IN_2 of the map entry, B's two rows leave through OUT_1 and
// OUT_2 of the exit. With `two_sources` the second read starts at its own access node of A.
std::unique_ptr<ir::SDFG> program(bool two_sources) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "consolidate";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"2", "N - 1"});
  ir::State& s = add_state(*g, *g, "s0");
  auto [entry, exit] = map(s, {"i"}, "0:N - 1");
  int t = tasklet(s, "y = u + v\nz = u - v", {"u", "v"}, {"y", "z"});
  for (const char* c : {"IN_1", "IN_2"}) s.node(entry)->in_connectors[c] = ir::DType{};
  for (const char* c : {"OUT_1", "OUT_2"}) s.node(entry)->out_connectors[c] = ir::DType{};
  for (const char* c : {"IN_1", "IN_2"}) s.node(exit)->in_connectors[c] = ir::DType{};
  for (const char* c : {"OUT_1", "OUT_2"}) s.node(exit)->out_connectors[c] = ir::DType{};
  const int a = access(s, "A");
  edge(s, a, "", entry, "IN_1", "A[0:N - 1]");
  edge(s, two_sources ? access(s, "A") : a, "", entry, "IN_2", "A[1:N]");
  edge(s, entry, "OUT_1", t, "u", "A[i]");
  edge(s, entry, "OUT_2", t, "v", "A[i + 1]");
  const int b = access(s, "B");
  edge(s, t, "y", exit, "IN_1", "B[0, i]");
  edge(s, t, "z", exit, "IN_2", "B[1, i]");
  edge(s, exit, "OUT_1", b, "", "B[0, 0:N - 1]");
  edge(s, exit, "OUT_2", b, "", "B[1, 0:N - 1]");
  return g;
}

std::vector<double> expected(const std::vector<double>& a) {
  const size_t n = a.size();
  std::vector<double> b(2 * n - 2);
  for (size_t i = 0; i + 1 < n; ++i) {
    b[i] = a[i] + a[i + 1];
    b[i + n - 1] = a[i] - a[i + 1];
  }
  return b;
}

int edge_count(const ir::SDFG& g) {
  int n = 0;
  for (const ir::State* s : g.all_states()) n += static_cast<int>(s->edge_ids().size());
  return n;
}

TEST(TransformConsolidateEdges, MergesConnectorsOfOneContainerIntoTheirBoundingBox) {
  auto g = program(false);
  ConsolidateEdges p;
  AnalysisManager am;
  Result<bool> r = run_pass(*g, p, am);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(*r);
  EXPECT_EQ(edge_count(*g), 6);  // one outer edge gone on each side
  g->extra.erase("orig_sdfg");  // the stored original (before the pass) still has IN_2
  const std::string json = ir::json::write_sdfg(*g);
  EXPECT_NE(json.find("\"IN_1\""), std::string::npos);
  EXPECT_EQ(json.find("\"IN_2\""), std::string::npos);
  EXPECT_EQ(json.find("\"OUT_2\""), std::string::npos);
  const ir::State& s = *g->all_states()[0];
  for (int e : s.edge_ids()) {
    const ir::DataflowEdge& edge = *s.edge(e);
    if (s.node(edge.dst)->kind == ir::NodeKind::MapEntry) {
      EXPECT_EQ(sym::to_string(edge.memlet.subset), sym::to_string(*sym::parse_subset("0:N")));
    }
    if (s.node(edge.src)->kind == ir::NodeKind::MapExit) {
      EXPECT_EQ(sym::to_string(edge.memlet.subset), sym::to_string(*sym::parse_subset("0:2, 0:N - 1")));
    }
  }
  const int64_t n = 5;
  std::vector<double> a{1, 4, 9, 16, 25}, b(2 * n - 2, 0);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  EXPECT_EQ(b, expected(a));
  Result<bool> again = run_pass(*g, p, am);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);
}

TEST(TransformConsolidateEdges, KeepsConnectorsFromDifferentAccessNodes) {
  auto g = program(true);
  ConsolidateEdges p;
  AnalysisManager am;
  Result<bool> r = run_pass(*g, p, am);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(*r);              // the exit's two connectors still merge
  EXPECT_EQ(edge_count(*g), 7);  // both reads of A stay
  const int64_t n = 4;
  std::vector<double> a{2, 3, 5, 7}, b(2 * n - 2, 0);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  EXPECT_EQ(b, expected(a));
}

}  // namespace
}  // namespace dace::transform::testing
