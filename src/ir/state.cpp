#include "ir/state.h"

#include <algorithm>

namespace dace::ir {

// The copy starts without a scope cache (filled on its first query).
State::State(const State& other)
    : ControlFlowBlock(other), nosync(other.nosync), edges_(other.edges_), in_adj_(other.in_adj_),
      out_adj_(other.out_adj_) {
  nodes_.reserve(other.nodes_.size());
  for (const auto& n : other.nodes_) nodes_.push_back(n ? n->clone() : nullptr);
}

std::unique_ptr<ControlFlowBlock> State::clone() const { return std::make_unique<State>(*this); }

int State::add_node(std::unique_ptr<Node> node) {
  nodes_.push_back(std::move(node));
  touch();
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
  touch();
  return id;
}

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
    out_adj_[e.src].insert_sorted(id);
  }
  if (e.dst >= 0) {
    grow(e.dst);
    in_adj_[e.dst].insert_sorted(id);
  }
}

void State::unlink(int id) {
  const DataflowEdge& e = *edges_[id];
  if (e.src >= 0 && e.src < static_cast<int>(out_adj_.size())) out_adj_[e.src].erase_sorted(id);
  if (e.dst >= 0 && e.dst < static_cast<int>(in_adj_.size())) in_adj_[e.dst].erase_sorted(id);
}

void State::set_edge_ends(int id, int src, int dst) {
  if (!edge(id)) return;
  unlink(id);
  edges_[id]->src = src;
  edges_[id]->dst = dst;
  link(id);
  touch();
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
    touching = in_adj_[id].to_vector();
    touching.insert(touching.end(), out_adj_[id].begin(), out_adj_[id].end());
  }
  for (int e : touching) remove_edge(e);
  nodes_[id].reset();
  touch();
}

std::unique_ptr<Node> State::release_node(int id) {
  if (!node(id)) return nullptr;
  std::vector<int> touching;
  if (id < static_cast<int>(in_adj_.size())) {
    touching = in_adj_[id].to_vector();
    touching.insert(touching.end(), out_adj_[id].begin(), out_adj_[id].end());
  }
  for (int e : touching) remove_edge(e);
  touch();
  return std::move(nodes_[id]);
}

void State::remove_edge(int id) {
  if (!edge(id)) return;
  unlink(id);
  edges_[id].reset();
  touch();
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
  return in_adj_[n].to_vector();
}

std::vector<int> State::out_edges(int n) const {
  if (n < 0 || n >= static_cast<int>(out_adj_.size())) return {};
  return out_adj_[n].to_vector();
}

void State::touch() {
  ControlFlowBlock::touch();
  scopes_valid_.store(false, std::memory_order_release);
}

void State::set_scope_entry(int exit, int entry) {
  Node* n = node(exit);
  if (!n) return;
  if (n->kind == NodeKind::MapExit) static_cast<MapExit*>(n)->entry = entry;
  if (n->kind == NodeKind::ConsumeExit) static_cast<ConsumeExit*>(n)->entry = entry;
  touch();
}

const State::ScopeCache& State::scopes() const {
  if (!scopes_valid_.load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> lock(scopes_mutex_);
    if (!scopes_valid_.load(std::memory_order_relaxed)) {
      compute_scopes(scopes_);
      scopes_valid_.store(true, std::memory_order_release);
    }
  }
  return scopes_;
}

const std::vector<int>& State::scope_parents() const { return scopes().parent; }

int State::exit_of(int entry) const {
  const std::vector<int>& exit = scopes().exit;
  return entry >= 0 && entry < static_cast<int>(exit.size()) ? exit[static_cast<size_t>(entry)] : -1;
}

void State::compute_scopes(ScopeCache& out) const {
  const int n = node_slots();
  // Each entry's exit: the lowest-numbered exit that names it (ascending scan).
  std::vector<int>& exit = out.exit;
  exit.assign(static_cast<size_t>(n), -1);
  for (int i = 0; i < n; ++i) {
    const Node* x = nodes_[i].get();
    if (!x || !x->is_scope_exit()) continue;
    const int e = x->kind == NodeKind::MapExit ? static_cast<const MapExit*>(x)->entry
                                               : static_cast<const ConsumeExit*>(x)->entry;
    if (e >= 0 && e < n && exit[static_cast<size_t>(e)] < 0) exit[static_cast<size_t>(e)] = i;
  }

  // A node's scope is found by walking edges backwards: the nearest entry reached without
  // crossing its matching exit. Done in one pass over a topological order, O(N + E) (a state
  // with cycles is rejected by validation before anything relies on this). The adjacency
  // lists are read in place: in_edges/out_edges would copy one per node.
  static const EdgeList kNone{};
  auto ins = [&](int u) -> const EdgeList& { return u < static_cast<int>(in_adj_.size()) ? in_adj_[u] : kNone; };
  auto outs = [&](int u) -> const EdgeList& { return u < static_cast<int>(out_adj_.size()) ? out_adj_[u] : kNone; };
  std::vector<int>& parent = out.parent;
  parent.assign(static_cast<size_t>(n), -1);
  std::vector<int> indeg(n, 0);
  for (const auto& e : edges_)
    if (e && node(e->src) && node(e->dst)) ++indeg[e->dst];
  std::vector<int> order, queue;
  for (int i = 0; i < n; ++i)
    if (nodes_[i] && indeg[i] == 0) queue.push_back(i);
  for (size_t head = 0; head < queue.size(); ++head) {
    int u = queue[head];
    order.push_back(u);
    for (int id : outs(u)) {
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
    for (int id : ins(u)) {
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
    for (int id : outs(u)) {
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
}

}  // namespace dace::ir
