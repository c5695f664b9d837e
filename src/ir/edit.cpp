#include "ir/edit.h"

#include <set>

namespace dace::ir {
namespace {

bool connector_used(const State& s, int node, bool output, const std::string& conn) {
  for (int x : output ? s.out_edges(node) : s.in_edges(node))
    if ((output ? s.edge(x)->src_conn : s.edge(x)->dst_conn) == conn) return true;
  return false;
}

// Drops connector `conn` of `node` when no edge uses it (a removed node has none).
void drop_if_unused(State& s, int node, bool output, const std::string& conn) {
  Node* n = s.node(node);
  if (!n || conn.empty() || connector_used(s, node, output, conn)) return;
  (output ? n->out_connectors : n->in_connectors).erase(conn);
}

}  // namespace

void ensure_connector(Node& node, bool output, const std::string& name) {
  auto& c = output ? node.out_connectors : node.in_connectors;
  if (!c.count(name)) c.emplace(name, DType());
}

std::pair<int, int> add_map(State& state, const std::string& label, MapScope map) {
  auto entry = std::make_unique<MapEntry>();
  entry->label = label;
  entry->map = std::move(map);
  auto exit = std::make_unique<MapExit>();
  exit->label = label;
  const int e = state.add_node(std::move(entry));
  exit->entry = e;
  const int x = state.add_node(std::move(exit));
  return {e, x};
}

void remove_edge_and_connectors(State& state, int e) {
  const DataflowEdge old = *state.edge(e);
  state.remove_edge(e);
  drop_if_unused(state, old.src, true, old.src_conn);
  drop_if_unused(state, old.dst, false, old.dst_conn);
}

void redirect_edge(State& state, int e, int src, const std::string& src_conn, int dst, const std::string& dst_conn) {
  const DataflowEdge old = *state.edge(e);
  state.set_edge_ends(e, src, dst);
  DataflowEdge& now = *state.edge(e);
  now.src_conn = src_conn;
  now.dst_conn = dst_conn;
  if (!src_conn.empty()) ensure_connector(*state.node(src), true, src_conn);
  if (!dst_conn.empty()) ensure_connector(*state.node(dst), false, dst_conn);
  drop_if_unused(state, old.src, true, old.src_conn);
  drop_if_unused(state, old.dst, false, old.dst_conn);
}

void remove_node_and_edges(State& state, int node) {
  std::vector<DataflowEdge> touching;
  for (int e : state.in_edges(node)) touching.push_back(*state.edge(e));
  for (int e : state.out_edges(node)) touching.push_back(*state.edge(e));
  state.remove_node(node);
  for (const DataflowEdge& e : touching) {
    if (e.src != node) drop_if_unused(state, e.src, true, e.src_conn);
    if (e.dst != node) drop_if_unused(state, e.dst, false, e.dst_conn);
  }
}

std::string unique_block_label(const ControlFlowRegion& region, const std::string& base) {
  std::set<std::string> labels;
  for (int slot : region.block_slots()) labels.insert(region.block(slot)->label);
  if (!labels.count(base)) return base;
  for (int i = 0;; ++i) {
    std::string l = base + "_" + std::to_string(i);
    if (!labels.count(l)) return l;
  }
}

int add_state_before(SDFG& sdfg, ControlFlowRegion& region, int slot, const std::string& label) {
  auto st = std::make_unique<State>();
  st->label = unique_block_label(region, label);
  sdfg.register_block(*st);
  const int fresh = region.add_block(std::move(st));
  for (int es : region.in_edges(slot)) {
    InterstateEdge e = *region.edge(es);
    region.remove_edge(es);
    e.dst = fresh;
    region.add_edge(std::move(e));
  }
  if (region.start_block == slot) region.start_block = fresh;
  InterstateEdge e;
  e.src = fresh;
  e.dst = slot;
  return region.add_edge(std::move(e));
}

}  // namespace dace::ir
