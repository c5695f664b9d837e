// EdgeList, a State's adjacency list: up to two edge ids inline, more on the heap, always
// ascending (docs/sdfg-json.md "Memory of the IR").
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "ir/state.h"

namespace dace::ir {
namespace {

// Inserts and erases against a sorted std::vector doing the same: the list must hold the same
// ids in the same (ascending) order inline (up to two) and on the heap, and copies and moves
// must be independent of the original.
TEST(IrEdgeList, KeepsIdsAscendingInlineAndOnTheHeap) {
  EdgeList list;
  std::vector<int> expected;
  auto same = [&](const EdgeList& l) { return std::vector<int>(l.begin(), l.end()) == expected; };
  const int inserts[] = {7, 3, 9, 1, 5, 8, 2, 6, 4, 0, 12, 10, 11};
  for (int id : inserts) {
    list.insert_sorted(id);
    expected.insert(std::lower_bound(expected.begin(), expected.end(), id), id);
    ASSERT_TRUE(same(list)) << "after inserting " << id;
  }
  EXPECT_EQ(list.size(), expected.size());
  EdgeList copy = list;
  list.erase_sorted(42);  // absent: nothing changes
  ASSERT_TRUE(same(list));
  const int erases[] = {0, 12, 5, 7, 1, 3, 9, 11, 2, 4, 6, 8, 10};
  for (int id : erases) {
    list.erase_sorted(id);
    expected.erase(std::find(expected.begin(), expected.end(), id));
    ASSERT_TRUE(same(list)) << "after erasing " << id;
  }
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(copy.size(), 13u);  // the copy kept its own ids
  EXPECT_EQ(copy.to_vector(), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
  EdgeList moved = std::move(copy);
  EXPECT_EQ(moved.size(), 13u);
  EdgeList small;
  small.insert_sorted(4);
  small.insert_sorted(2);
  moved = small;  // heap list assigned an inline one
  EXPECT_EQ(moved.to_vector(), (std::vector<int>{2, 4}));
  small.insert_sorted(3);  // grows to the heap; the copy stays
  EXPECT_EQ(small.to_vector(), (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(moved.to_vector(), (std::vector<int>{2, 4}));
}

// A node with many edges each way, some removed: the state's adjacency answers what its
// edges say (recomputed here by a scan over every edge).
TEST(IrEdgeList, StateAdjacencyMatchesItsEdges) {
  State st;
  const int hub = st.add_node(std::make_unique<AccessNode>());
  std::vector<int> others;
  for (int i = 0; i < 6; ++i) others.push_back(st.add_node(std::make_unique<AccessNode>()));
  for (int i = 0; i < 6; ++i) {
    DataflowEdge in, out;
    in.src = others[static_cast<size_t>(i)];
    in.dst = hub;
    out.src = hub;
    out.dst = others[static_cast<size_t>(i)];
    st.add_edge(in);
    st.add_edge(out);
  }
  st.remove_edge(0);
  st.remove_edge(5);
  st.remove_node(others[3]);
  auto scan = [&](int node, bool incoming) {
    std::vector<int> ids;
    for (int e : st.edge_ids())
      if ((incoming ? st.edge(e)->dst : st.edge(e)->src) == node) ids.push_back(e);
    return ids;
  };
  for (int n : st.node_ids()) {
    EXPECT_EQ(st.in_edges(n), scan(n, true)) << "node " << n;
    EXPECT_EQ(st.out_edges(n), scan(n, false)) << "node " << n;
  }
  EXPECT_EQ(st.in_edges(hub), (std::vector<int>{2, 4, 8, 10}));
  EXPECT_EQ(st.out_edges(hub), (std::vector<int>{1, 3, 9, 11}));
  State copy = st;
  EXPECT_EQ(copy.in_edges(hub), st.in_edges(hub));
}

}  // namespace
}  // namespace dace::ir
