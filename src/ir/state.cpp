#include "ir/state.h"

#include <algorithm>

namespace dace::ir {

State::State(const State& other)
    : ControlFlowBlock(other), nosync(other.nosync), edges_(other.edges_), in_adj_(other.in_adj_),
      out_adj_(other.out_adj_) {
  nodes_.reserve(other.nodes_.size());
  for (const auto& n : other.nodes_) nodes_.push_back(n ? n->clone() : nullptr);
}

std::unique_ptr<ControlFlowBlock> State::clone() const { return std::make_unique<State>(*this); }

int State::add_node(std::unique_ptr<Node> node) {
  nodes_.push_back(std::move(node));
  return static_cast<int>(nodes_.size()) - 1;
}

namespace {

// Room for `needed` elements, growing by a quarter instead of the library's doubling. The
// element vectors of a state are never shrunk, and doubling leaves a third of their slots
// unused on average (edges are some 370 bytes: over 100 MB for a million-node SDFG); a
// quarter keeps the slack below a fifth, at a few more moves while a state is built.
template <class T>
void grow_by_quarter(std::vector<T>& v, size_t needed) {
  if (needed > v.capacity()) v.reserve(std::max(needed, v.capacity() + v.capacity() / 4 + 8));
}

}  // namespace

int State::add_edge(DataflowEdge edge) {
  grow_by_quarter(edges_, edges_.size() + 1);
  edges_.emplace_back(std::move(edge));
  int id = static_cast<int>(edges_.size()) - 1;
  link(id);
  return id;
}

namespace {

void insert_sorted(std::vector<int>& list, int id) {
  list.insert(std::lower_bound(list.begin(), list.end(), id), id);
}

void erase_sorted(std::vector<int>& list, int id) {
  auto it = std::lower_bound(list.begin(), list.end(), id);
  if (it != list.end() && *it == id) list.erase(it);
}

}  // namespace

void State::link(int id) {
  const DataflowEdge& e = *edges_[id];
  auto grow = [&](int n) {
    if (n >= static_cast<int>(in_adj_.size())) {
      grow_by_quarter(in_adj_, static_cast<size_t>(n) + 1);
      grow_by_quarter(out_adj_, static_cast<size_t>(n) + 1);
      in_adj_.resize(n + 1);
      out_adj_.resize(n + 1);
    }
  };
  if (e.src >= 0) {
    grow(e.src);
    insert_sorted(out_adj_[e.src], id);
  }
  if (e.dst >= 0) {
    grow(e.dst);
    insert_sorted(in_adj_[e.dst], id);
  }
}

void State::unlink(int id) {
  const DataflowEdge& e = *edges_[id];
  if (e.src >= 0 && e.src < static_cast<int>(out_adj_.size())) erase_sorted(out_adj_[e.src], id);
  if (e.dst >= 0 && e.dst < static_cast<int>(in_adj_.size())) erase_sorted(in_adj_[e.dst], id);
}

void State::set_edge_ends(int id, int src, int dst) {
  if (!edge(id)) return;
  unlink(id);
  edges_[id]->src = src;
  edges_[id]->dst = dst;
  link(id);
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
  std::vector<int> touching;
  if (id < static_cast<int>(in_adj_.size())) {
    touching = in_adj_[id];
    touching.insert(touching.end(), out_adj_[id].begin(), out_adj_[id].end());
  }
  for (int e : touching) remove_edge(e);
  nodes_[id].reset();
}

std::unique_ptr<Node> State::release_node(int id) {
  if (!node(id)) return nullptr;
  std::vector<int> touching;
  if (id < static_cast<int>(in_adj_.size())) {
    touching = in_adj_[id];
    touching.insert(touching.end(), out_adj_[id].begin(), out_adj_[id].end());
  }
  for (int e : touching) remove_edge(e);
  return std::move(nodes_[id]);
}

void State::remove_edge(int id) {
  if (!edge(id)) return;
  unlink(id);
  edges_[id].reset();
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
  if (n < 0 || n >= static_cast<int>(in_adj_.size())) return {};
  return in_adj_[n];
}

std::vector<int> State::out_edges(int n) const {
  if (n < 0 || n >= static_cast<int>(out_adj_.size())) return {};
  return out_adj_[n];
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
  for (size_t head = 0; head < queue.size(); ++head) {
    int u = queue[head];
    order.push_back(u);
    for (int id : out_edges(u)) {
      const DataflowEdge& e = *edges_[id];
      if (node(e.dst) && --indeg[e.dst] == 0) queue.push_back(e.dst);
    }
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
    for (int id : in_edges(u)) {
      const DataflowEdge* e = &*edges_[id];
      if (!node(e->src) || !known[e->src]) continue;
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
    for (int id : out_edges(u)) {
      const DataflowEdge* e = &*edges_[id];
      if (!node(e->dst)) continue;
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
