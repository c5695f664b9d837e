// A state: an acyclic dataflow multigraph of nodes joined by memlet edges.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ir/control_flow.h"
#include "ir/edge_list.h"
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
//
// Every structural edit (adding, removing or releasing a node, adding or removing an edge,
// set_edge_ends, set_scope_entry) stamps the state (ControlFlowBlock::touch) and drops the
// cached scope structure. Writes through node() and edge() pointers do neither: call touch()
// after them (a node's kind is const, so only a scope exit's `entry` can change the scope
// structure that way; set_scope_entry does it for you).
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
  // Computed from the graph (DaCe's scope_dict); exits report their entry's parent. Indexed
  // by node slot; -1 = top level / removed. Cached: computed on the first query after an
  // edit, so the reference is valid (and its content current) until the next edit.
  const std::vector<int>& scope_parents() const;
  // The exit node of a scope entry (the lowest-numbered exit naming it), or -1. O(1), cached
  // like scope_parents.
  int exit_of(int entry) const;
  // Points the map or consume exit `exit` at `entry` (an edit: the scope cache is dropped).
  void set_scope_entry(int exit, int entry);

  // Stamps the state and drops its scope cache: for changes made through node() or edge().
  void touch() override;

  bool nosync = false;

 private:
  void link(int id);    // adds edge `id` to its endpoints' lists
  void unlink(int id);  // removes it from them

  // The scope structure, filled on demand. A const State may be read from several threads
  // at once (the C API allows concurrent readers of one SDFG), so the first query after an
  // edit fills the cache under a mutex and publishes it with an atomic flag; later queries
  // read the flag only. Edits are never concurrent with reads, so dropping it is a plain
  // store.
  struct ScopeCache {
    std::vector<int> parent;  // by node slot (scope_parents)
    std::vector<int> exit;    // by node slot: for an entry, its exit; -1 otherwise
  };
  const ScopeCache& scopes() const;
  void compute_scopes(ScopeCache& out) const;
  mutable std::mutex scopes_mutex_;
  mutable std::atomic<bool> scopes_valid_{false};
  mutable ScopeCache scopes_;

  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::optional<DataflowEdge>> edges_;
  // Indexed by node id (grown to the largest endpoint seen: an edge may name a node that does
  // not exist, which validation reports); each list ascending.
  std::vector<EdgeList> in_adj_, out_adj_;
};

}  // namespace dace::ir
