// The IR edits shared by the builder and the passes (ir/edit.h): connectors follow the edges
// that use them, a map's exit names its entry, and a state added before another takes over
// its in-edges and its role as start block. Expected states written by hand.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/edit.h"

namespace dace::ir {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;

TEST(IrEdit, AddMapPairsEntryAndExit) {
  State s;
  MapScope m;
  m.params = {"i"};
  const auto [entry, exit] = add_map(s, "m", m);
  ASSERT_EQ(s.node(entry)->kind, NodeKind::MapEntry);
  ASSERT_EQ(s.node(exit)->kind, NodeKind::MapExit);
  EXPECT_EQ(static_cast<const MapExit*>(s.node(exit))->entry, entry);
  EXPECT_EQ(s.exit_of(entry), exit);
  EXPECT_EQ(static_cast<const MapEntry*>(s.node(entry))->map.params, std::vector<std::string>{"i"});
}

TEST(IrEdit, ConnectorsFollowTheEdgesThatUseThem) {
  SDFG g;
  add_array(g, "A", ScalarType::Float64, {"4"});
  State& s = add_state(g, g, "s");
  const int a = access(s, "A");
  const int t = tasklet(s, "y = x + z", {"x", "z"}, {"y"});
  const int b = access(s, "A");
  const int ex = edge(s, a, "", t, "x", "A[0]");
  const int ez = edge(s, a, "", t, "z", "A[1]");
  edge(s, t, "y", b, "", "A[2]");
  ensure_connector(*s.node(t), false, "x");  // present: unchanged
  EXPECT_EQ(s.node(t)->in_connectors.size(), 2u);
  // Redirected from `z` to a new connector `w`: `w` appears, `z` (now unused) goes.
  redirect_edge(s, ez, a, "", t, "w");
  EXPECT_EQ(s.node(t)->in_connectors.count("w"), 1u);
  EXPECT_EQ(s.node(t)->in_connectors.count("z"), 0u);
  remove_edge_and_connectors(s, ex);
  EXPECT_EQ(s.node(t)->in_connectors.count("x"), 0u);
  EXPECT_EQ(s.node(t)->in_connectors.count("w"), 1u);
  // Removing the tasklet removes its edges; the access nodes keep no connectors for them.
  remove_node_and_edges(s, t);
  EXPECT_EQ(s.node(t), nullptr);
  EXPECT_TRUE(s.edge_ids().empty());
}

TEST(IrEdit, AStateBeforeTakesTheInEdgesAndTheStart) {
  SDFG g;
  int a = 0, b = 0;
  add_state(g, g, "block", &a);
  add_state(g, g, "b", &b);
  add_interstate(g, a, b, "N > 1", {{"k", "1"}});
  g.start_block = a;
  const int e = add_state_before(g, g, a, "block");  // label taken: block_0
  const int fresh = g.edge(e)->src;
  EXPECT_EQ(g.block(fresh)->label, "block_0");
  EXPECT_EQ(g.edge(e)->dst, a);
  EXPECT_EQ(g.start_block, fresh);
  EXPECT_TRUE(g.in_edges(fresh).empty());
  const int e2 = add_state_before(g, g, b, "block");
  const int fresh2 = g.edge(e2)->src;
  ASSERT_EQ(g.in_edges(fresh2).size(), 1u);
  const InterstateEdge& moved = *g.edge(g.in_edges(fresh2)[0]);
  EXPECT_EQ(moved.src, a);
  EXPECT_EQ(moved.condition.code, "N > 1");
  EXPECT_EQ(moved.assignments.size(), 1u);
  EXPECT_EQ(g.block(fresh2)->label, "block_1");
}

}  // namespace
}  // namespace dace::ir
