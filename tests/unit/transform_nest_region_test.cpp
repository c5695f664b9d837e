// nest_region: a region's blocks become a nested SDFG in a new state; checked against what
// the region uses, by hand: connectors for the containers read and written, transients it
// alone uses moved inside, assigned symbols declared inside, free symbols mapped outside.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/sdfg.h"
#include "transform/nest_region.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

TEST(TransformNestRegion, ConnectorsMovedTransientsAndSymbols) {
  ir::SDFG g;
  g.name = "nest";
  g.symbols["N"] = ir::DType::of(T::Int64);
  g.symbols["i"] = ir::DType::of(T::Int64);
  g.symbols["k"] = ir::DType::of(T::Int32);
  add_array(g, "A", T::Float64, {"N"});
  add_array(g, "B", T::Float64, {"N"});
  add_scalar(g, "t", T::Float64, true);
  ir::ControlFlowRegion region;
  region.label = "body";
  int s1 = 0, s2 = 0;
  ir::State& a = add_state(region, g, "first", &s1);
  ir::State& b = add_state(region, g, "second", &s2);
  add_interstate(region, s1, s2, "1", {{"k", "i + 1"}});
  int t1 = tasklet(a, "y = x", {"x"}, {"y"});
  edge(a, access(a, "A"), "", t1, "x", "A[i]");
  edge(a, t1, "y", access(a, "t"), "", "t[0]");
  int t2 = tasklet(b, "y = x", {"x"}, {"y"});
  edge(b, access(b, "t"), "", t2, "x", "t[0]");
  edge(b, t2, "y", access(b, "B"), "", "B[k - 1]");

  NestingPlan plan{"body", {"A"}, {"B"}, {"t"}};
  std::unique_ptr<ir::State> st = nest_region(g, region, plan);
  ASSERT_TRUE(st);
  EXPECT_EQ(st->label, "body");
  const ir::NestedSDFGNode* n = nullptr;
  int accesses = 0;
  for (int id : st->node_ids()) {
    if (st->node(id)->kind == ir::NodeKind::NestedSDFG) n = static_cast<const ir::NestedSDFGNode*>(st->node(id));
    accesses += st->node(id)->kind == ir::NodeKind::Access;
  }
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(accesses, 2);
  EXPECT_EQ(n->in_connectors.size(), 1u);
  EXPECT_TRUE(n->in_connectors.count("A"));
  EXPECT_EQ(n->out_connectors.size(), 1u);
  EXPECT_TRUE(n->out_connectors.count("B"));
  const ir::SDFG& inner = *n->sdfg;
  EXPECT_EQ(inner.parent_node, n);
  EXPECT_EQ(inner.block_slots().size(), 2u);
  EXPECT_EQ(inner.edge_slots().size(), 1u);
  EXPECT_FALSE(inner.arrays.at("A").transient);
  EXPECT_FALSE(inner.arrays.at("B").transient);
  EXPECT_TRUE(inner.arrays.at("t").transient);
  EXPECT_EQ(g.arrays.count("t"), 0u);  // moved, not copied
  // k is assigned inside (declared with its outer type, not mapped); i and N come from outside.
  EXPECT_EQ(inner.symbols.at("k"), ir::DType::of(T::Int32));
  EXPECT_EQ(n->symbol_mapping.count("k"), 0u);
  EXPECT_EQ(n->symbol_mapping.count("i"), 1u);
  EXPECT_EQ(n->symbol_mapping.count("N"), 1u);
  // Whole-container memlets outside.
  for (int e : st->edge_ids()) EXPECT_EQ(sym::to_string(st->edge(e)->memlet.subset), "0:N");
}

}  // namespace
}  // namespace dace::transform::testing
