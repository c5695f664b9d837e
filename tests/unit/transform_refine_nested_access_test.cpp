// RefineNestedAccess on hand-built SDFGs: a nested SDFG reading the fixed block x[1:5] of its
// whole-array connector gets the outer memlet A[1:5] and inner memlets re-based to x[0:4];
// results against a C++ loop. Refused when the accesses do not agree on one block.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

// B[k] = A[k + 1] * 10 + A[k + first2] for k < 4, inside a nested SDFG that sees all of A.
std::unique_ptr<ir::SDFG> program(int first2) {
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "inner";
  inner->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*inner, "x", T::Float64, {"N"});
  add_array(*inner, "y", T::Float64, {"4"});
  ir::State& is = add_state(*inner, *inner, "is");
  auto [entry, exit] = map(is, {"k"}, "0:4");
  int t = tasklet(is, "o = a * 10 + b", {"a", "b"}, {"o"});
  const std::string f2 = std::to_string(first2);
  edge_in(is, access(is, "x"), entry, t, "a", "x[1:5]", "x[k + 1]");
  // The second read enters the map on its own connector pair.
  is.node(entry)->in_connectors["IN_x2"] = ir::DType{};
  is.node(entry)->out_connectors["OUT_x2"] = ir::DType{};
  edge(is, access(is, "x"), "", entry, "IN_x2", "x[" + f2 + ":" + f2 + " + 4]");
  edge(is, entry, "OUT_x2", t, "b", "x[k + " + f2 + "]");
  edge_out(is, t, "o", exit, access(is, "y"), "y[k]", "y[0:4]");

  auto g = std::make_unique<ir::SDFG>();
  g->name = "outer";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"4"});
  ir::State& s = add_state(*g, *g, "s");
  auto nn = std::make_unique<ir::NestedSDFGNode>();
  nn->label = "inner";
  nn->in_connectors["x"] = ir::DType{};
  nn->out_connectors["y"] = ir::DType{};
  nn->symbol_mapping["N"] = E("N");
  inner->parent_node = nn.get();
  nn->sdfg = std::move(inner);
  int n = s.add_node(std::move(nn));
  edge(s, access(s, "A"), "", n, "x", "A[0:N]");
  edge(s, n, "y", access(s, "B"), "", "B[0:4]");
  return g;
}

const ir::DataflowEdge& outer_edge_into_nested(const ir::SDFG& g) {
  const ir::State& s = *g.all_states()[0];
  for (int e : s.edge_ids())
    if (s.node(s.edge(e)->dst)->kind == ir::NodeKind::NestedSDFG) return *s.edge(e);
  throw std::runtime_error("no edge into the nested SDFG");
}

TEST(TransformRefineNestedAccess, NarrowsTheOuterMemletToTheBlockRead) {
  auto g = program(1);
  ASSERT_TRUE(apply_once(*g, "RefineNestedAccess"));
  EXPECT_EQ(sym::to_string(outer_edge_into_nested(*g).memlet.subset), "1:5");
  const int64_t n = 8;
  std::vector<double> a(n), b(4, -1);
  for (int64_t i = 0; i < n; ++i) a[i] = static_cast<double>(i * 3 % 5) + 0.5;
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  for (int64_t k = 0; k < 4; ++k) EXPECT_EQ(b[k], a[k + 1] * 10 + a[k + 1]);
  // Applying again finds nothing: the block starts at 0 now.
  EXPECT_FALSE(applies_anywhere(*g, "RefineNestedAccess"));
}

// The inner memlets it re-bases are in another state than the one it is applied in: the
// dependence sets cached for the nested state before are recomputed after (x read at 0:4 from
// both access nodes, derived by hand from the block 1:5), not served stale (1:5).
TEST(TransformRefineNestedAccess, DropsTheNestedStatesCachedDependenceSets) {
  auto g = program(1);
  const ir::State& s = *g->all_states()[0];
  const ir::State* inner = nullptr;
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::NestedSDFG)
      inner = static_cast<const ir::NestedSDFGNode*>(s.node(id))->sdfg->all_states()[0];
  ASSERT_TRUE(inner);
  AnalysisManager am;
  auto x_reads = [&](const DependenceSets& d) {
    std::vector<std::string> out;
    for (const AccessNodeMemlets& a : d.access_nodes)
      if (a.data == "x")
        for (const AccessMemlet& m : a.memlets) out.push_back(m.subset ? sym::to_string(*m.subset) : "whole");
    return out;
  };
  EXPECT_EQ(x_reads(am.dependence_sets(*inner)), (std::vector<std::string>{"1:5", "1:5"}));
  std::unique_ptr<Transformation> t = make_transformation("RefineNestedAccess");
  const Match m = t->enumerate(*g, am).at(0);
  ASSERT_TRUE(apply_at(*g, *t, m, am).ok());
  const int64_t computed = am.computed();
  EXPECT_EQ(x_reads(am.dependence_sets(*inner)), (std::vector<std::string>{"0:4", "0:4"}));
  EXPECT_GT(am.computed(), computed);  // recomputed (with its scope tree), not served cached
}

TEST(TransformRefineNestedAccess, RefusesAccessesToDifferentBlocks) {
  auto g = program(3);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "RefineNestedAccess", &why));
  EXPECT_NE(why.find("'x'"), std::string::npos) << why;
  // Unchanged, it still computes B[k] = A[k + 1] * 10 + A[k + 3].
  const int64_t n = 8;
  std::vector<double> a(n), b(4, -1);
  for (int64_t i = 0; i < n; ++i) a[i] = static_cast<double>(i) + 0.25;
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  for (int64_t k = 0; k < 4; ++k) EXPECT_EQ(b[k], a[k + 1] * 10 + a[k + 3]);
}

}  // namespace
}  // namespace dace::transform::testing
