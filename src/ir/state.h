// A state: an acyclic dataflow multigraph of nodes joined by memlet edges.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/control_flow.h"
#include "ir/memlet.h"
#include "ir/nodes.h"

namespace dace::ir {

struct DataflowEdge {
  int src = -1, dst = -1;  // node ids in the same state
  std::string src_conn, dst_conn;  // empty = no connector
  Memlet memlet;
};

// Node and edge ids are slots: they never shift when others are removed, so hosts can keep
// them. Removed slots stay empty; serialization numbers live elements densely, in order.
class State : public ControlFlowBlock {
 public:
  State() : ControlFlowBlock(BlockKind::State) {}
  State(const State& other);
  std::unique_ptr<ControlFlowBlock> clone() const override;

  int add_node(std::unique_ptr<Node> node);
  int add_edge(DataflowEdge edge);
  Node* node(int id);
  const Node* node(int id) const;
  // An edge's memlet and connectors may be edited through this pointer; its endpoints only
  // through set_edge_ends, which keeps the adjacency lists current.
  DataflowEdge* edge(int id);
  const DataflowEdge* edge(int id) const;
  void set_edge_ends(int id, int src, int dst);
  // Removes a node and every edge touching it.
  void remove_node(int id);
  // Like remove_node, but hands the node back (to move it into another state).
  std::unique_ptr<Node> release_node(int id);
  void remove_edge(int id);

  int node_slots() const { return static_cast<int>(nodes_.size()); }
  int edge_slots() const { return static_cast<int>(edges_.size()); }
  std::vector<int> node_ids() const;  // live, ascending
  std::vector<int> edge_ids() const;  // live, ascending
  // Live edges ending / starting at `node`, ascending ids; O(degree), from adjacency lists
  // kept by add_edge, set_edge_ends and the removals.
  std::vector<int> in_edges(int node) const;
  std::vector<int> out_edges(int node) const;

  // Scope structure: the map/consume entry whose scope directly contains `node`, or -1.
  // Computed from the graph (DaCe's scope_dict); exits report their entry's parent.
  std::vector<int> scope_parents() const;  // indexed by node slot; -1 = top level / removed
  // The exit node of a scope entry, or -1.
  int exit_of(int entry) const;

  bool nosync = false;

 private:
  void link(int id);    // adds edge `id` to its endpoints' lists
  void unlink(int id);  // removes it from them

  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::optional<DataflowEdge>> edges_;
  // Indexed by node id (grown to the largest endpoint seen: an edge may name a node that does
  // not exist, which validation reports); each list ascending.
  std::vector<std::vector<int>> in_adj_, out_adj_;
};

}  // namespace dace::ir
