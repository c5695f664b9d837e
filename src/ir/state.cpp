#include "ir/state.h"

#include <algorithm>

namespace dace::ir {

State::State(const State& other) : ControlFlowBlock(other), nosync(other.nosync), edges_(other.edges_) {
  nodes_.reserve(other.nodes_.size());
  for (const auto& n : other.nodes_) nodes_.push_back(n ? n->clone() : nullptr);
}

std::unique_ptr<ControlFlowBlock> State::clone() const { return std::make_unique<State>(*this); }

int State::add_node(std::unique_ptr<Node> node) {
  nodes_.push_back(std::move(node));
  return static_cast<int>(nodes_.size()) - 1;
}

int State::add_edge(DataflowEdge edge) {
  edges_.emplace_back(std::move(edge));
  return static_cast<int>(edges_.size()) - 1;
}

Node* State::node(int id) {
  return id >= 0 && id < node_slots() ? nodes_[id].get() : nullptr;
}
const Node* State::node(int id) const {
  return id >= 0 && id < node_slots() ? nodes_[id].get() : nullptr;
}
DataflowEdge* State::edge(int id) {
  return id >= 0 && id < edge_slots() && edges_[id] ? &*edges_[id] : nullptr;
}
const DataflowEdge* State::edge(int id) const {
  return id >= 0 && id < edge_slots() && edges_[id] ? &*edges_[id] : nullptr;
}

void State::remove_node(int id) {
  if (!node(id)) return;
  for (auto& e : edges_)
    if (e && (e->src == id || e->dst == id)) e.reset();
  nodes_[id].reset();
}

void State::remove_edge(int id) {
  if (edge(id)) edges_[id].reset();
}

std::vector<int> State::node_ids() const {
  std::vector<int> ids;
  for (int i = 0; i < node_slots(); ++i)
    if (nodes_[i]) ids.push_back(i);
  return ids;
}

std::vector<int> State::edge_ids() const {
  std::vector<int> ids;
  for (int i = 0; i < edge_slots(); ++i)
    if (edges_[i]) ids.push_back(i);
  return ids;
}

std::vector<int> State::in_edges(int n) const {
  std::vector<int> ids;
  for (int i = 0; i < edge_slots(); ++i)
    if (edges_[i] && edges_[i]->dst == n) ids.push_back(i);
  return ids;
}

std::vector<int> State::out_edges(int n) const {
  std::vector<int> ids;
  for (int i = 0; i < edge_slots(); ++i)
    if (edges_[i] && edges_[i]->src == n) ids.push_back(i);
  return ids;
}

int State::exit_of(int entry) const {
  for (int i = 0; i < node_slots(); ++i) {
    const Node* n = nodes_[i].get();
    if (!n) continue;
    if (n->kind == NodeKind::MapExit && static_cast<const MapExit*>(n)->entry == entry) return i;
    if (n->kind == NodeKind::ConsumeExit && static_cast<const ConsumeExit*>(n)->entry == entry) return i;
  }
  return -1;
}

std::vector<int> State::scope_parents() const {
  // A node's scope is found by walking edges backwards: the nearest entry reached without
  // crossing its matching exit. Done as a fixpoint over a topological order (graphs are
  // small; a state with cycles is rejected by validation before anything relies on this).
  const int n = node_slots();
  std::vector<int> parent(n, -1);
  std::vector<int> indeg(n, 0);
  for (const auto& e : edges_)
    if (e && node(e->src) && node(e->dst)) ++indeg[e->dst];
  std::vector<int> order, queue;
  for (int i = 0; i < n; ++i)
    if (nodes_[i] && indeg[i] == 0) queue.push_back(i);
  while (!queue.empty()) {
    int u = queue.front();
    queue.erase(queue.begin());
    order.push_back(u);
    for (const auto& e : edges_)
      if (e && e->src == u && node(e->dst) && --indeg[e->dst] == 0) queue.push_back(e->dst);
  }
  std::vector<char> known(n, 0);
  for (int u : order) {
    const Node* nu = nodes_[u].get();
    if (nu->is_scope_exit()) {
      int entry = nu->kind == NodeKind::MapExit ? static_cast<const MapExit*>(nu)->entry
                                                : static_cast<const ConsumeExit*>(nu)->entry;
      if (entry >= 0 && entry < n && known[entry]) parent[u] = parent[entry];
      known[u] = 1;
      continue;
    }
    for (const auto& e : edges_) {
      if (!e || e->dst != u || !node(e->src) || !known[e->src]) continue;
      const Node* src = nodes_[e->src].get();
      int candidate = src->is_scope_entry() ? e->src : parent[e->src];
      if (src->is_scope_exit()) candidate = parent[e->src];
      parent[u] = candidate;
      break;
    }
    known[u] = 1;
  }
  // Nodes only reached by outgoing edges into an exit (e.g. a tasklet with no inputs inside a
  // map) have no predecessor; place them by their successors.
  for (int u : order) {
    if (nodes_[u]->is_scope_entry() || parent[u] != -1) continue;
    for (const auto& e : edges_) {
      if (!e || e->src != u || !node(e->dst)) continue;
      const Node* dst = nodes_[e->dst].get();
      if (dst->is_scope_exit()) {
        parent[u] = dst->kind == NodeKind::MapExit ? static_cast<const MapExit*>(dst)->entry
                                                   : static_cast<const ConsumeExit*>(dst)->entry;
        break;
      }
    }
  }
  return parent;
}

}  // namespace dace::ir
