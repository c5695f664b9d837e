#include "analysis/validate_state_info.h"

#include <algorithm>
#include <deque>

namespace dace::analysis::detail {

int entry_of_exit(const ir::Node& n) {
  if (n.kind == ir::NodeKind::MapExit) return static_cast<const ir::MapExit&>(n).entry;
  if (n.kind == ir::NodeKind::ConsumeExit) return static_cast<const ir::ConsumeExit&>(n).entry;
  return -1;
}

StateInfo::StateInfo(const SdfgContext& c, const ir::State& s, const RegionScope& scope) : ctx(c), state(s) {
  for (int e : s.edge_ids()) {
    const ir::DataflowEdge* edge = s.edge(e);
    if (s.node(edge->src) && s.node(edge->dst)) edges.push_back(e);
  }
  // Kahn's algorithm: the graph is acyclic iff every live node gets ordered.
  const int n = s.node_slots();
  in.resize(n);
  out.resize(n);
  for (int e : edges) {
    out[s.edge(e)->src].push_back(e);
    in[s.edge(e)->dst].push_back(e);
  }
  std::vector<int> indeg(n, 0);
  for (int e : edges) ++indeg[s.edge(e)->dst];
  std::deque<int> ready;
  int live = 0;
  for (int id : s.node_ids()) {
    ++live;
    if (indeg[id] == 0) ready.push_back(id);
  }
  std::vector<std::vector<int>> succ(n);
  for (int e : edges) succ[s.edge(e)->src].push_back(s.edge(e)->dst);
  int ordered = 0;
  while (!ready.empty()) {
    int u = ready.front();
    ready.pop_front();
    ++ordered;
    for (int v : succ[u])
      if (--indeg[v] == 0) ready.push_back(v);
  }
  acyclic = ordered == live;
  if (acyclic) parents = s.scope_parents();
  parents.resize(n, -1);

  base = c.declared;
  base.insert(c.assigned.begin(), c.assigned.end());
  base.insert(scope.loop_vars.begin(), scope.loop_vars.end());
}

std::vector<int> StateInfo::enclosing(int node) const {
  std::vector<int> out;
  if (!acyclic || node < 0 || node >= static_cast<int>(parents.size())) return out;
  int p = parents[node];
  // Bounded walk: a malformed parent chain must not loop forever.
  for (size_t steps = 0; p >= 0 && p < static_cast<int>(parents.size()) && steps < parents.size(); ++steps) {
    out.push_back(p);
    p = parents[p];
  }
  return out;
}

std::set<std::string> StateInfo::entry_symbols(int entry) const {
  std::set<std::string> out;
  const ir::Node* n = state.node(entry);
  if (!n) return out;
  if (n->kind == ir::NodeKind::MapEntry) {
    for (const auto& p : static_cast<const ir::MapEntry*>(n)->map.params) out.insert(p);
  } else if (n->kind == ir::NodeKind::ConsumeEntry) {
    out.insert(static_cast<const ir::ConsumeEntry*>(n)->consume.pe_index);
  } else {
    return out;
  }
  for (const auto& [conn, type] : n->in_connectors)
    if (conn.rfind("IN_", 0) != 0) out.insert(conn);
  return out;
}

std::set<std::string> StateInfo::defined_at(int node) const {
  std::set<std::string> out = base;
  for (int e : enclosing(node)) {
    auto syms = entry_symbols(e);
    out.insert(syms.begin(), syms.end());
  }
  return out;
}

bool StateInfo::in_gpu(int node) const {
  if (ctx.in_gpu) return true;
  for (int e : enclosing(node))
    if (const ir::Node* n = state.node(e); n && is_gpu_schedule(schedule_of(*n))) return true;
  return false;
}

bool StateInfo::in_default(int node) const {
  if (ctx.in_default) return true;
  for (int e : enclosing(node))
    if (const ir::Node* n = state.node(e); n && schedule_of(*n) == ir::ScheduleType::Default) return true;
  return false;
}

std::vector<int> StateInfo::memlet_path(int edge) const {
  // Most edges run between two nodes that are not scope nodes: their path is the edge alone,
  // found without the deque and set the walk below needs.
  {
    const ir::DataflowEdge* e = state.edge(edge);
    const ir::Node* src = state.node(e->src);
    const ir::Node* dst = state.node(e->dst);
    const bool continues_back = src && (src->is_scope_entry() || src->is_scope_exit()) && e->src_conn.starts_with("OUT_");
    const bool continues_on = dst && (dst->is_scope_entry() || dst->is_scope_exit()) && e->dst_conn.starts_with("IN_");
    if (!continues_back && !continues_on) return {edge};
  }
  std::deque<int> path{edge};
  std::set<int> seen{edge};
  // Backwards: an edge leaving OUT_x of a scope node continues the edge entering IN_x.
  for (int cur = edge;;) {
    const ir::DataflowEdge* e = state.edge(cur);
    const ir::Node* src = state.node(e->src);
    if (!src || !(src->is_scope_entry() || src->is_scope_exit()) || e->src_conn.rfind("OUT_", 0) != 0) break;
    std::string want = "IN_" + e->src_conn.substr(4);
    int next = -1;
    for (int cand : in[e->src])
      if (state.edge(cand)->dst_conn == want) { next = cand; break; }
    if (next < 0 || !seen.insert(next).second) break;
    path.push_front(next);
    cur = next;
  }
  for (int cur = edge;;) {
    const ir::DataflowEdge* e = state.edge(cur);
    const ir::Node* dst = state.node(e->dst);
    if (!dst || !(dst->is_scope_entry() || dst->is_scope_exit()) || e->dst_conn.rfind("IN_", 0) != 0) break;
    std::string want = "OUT_" + e->dst_conn.substr(3);
    int next = -1;
    for (int cand : out[e->dst])
      if (state.edge(cand)->src_conn == want) { next = cand; break; }
    if (next < 0 || !seen.insert(next).second) break;
    path.push_back(next);
    cur = next;
  }
  return {path.begin(), path.end()};
}

}  // namespace dace::analysis::detail
