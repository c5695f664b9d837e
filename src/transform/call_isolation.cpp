#include "transform/call_isolation.h"

#include <deque>
#include <map>
#include <set>

#include "ir/nodes.h"

namespace dace::transform {
namespace {

bool is_scope_node(const ir::Node& n) { return n.is_scope_entry() || n.is_scope_exit(); }

// DaCe's memlet_path: the edge, extended backwards through OUT_x -> IN_x and forwards through
// IN_x -> OUT_x of scope nodes (the first matching edge each way, in edge order).
std::vector<int> memlet_path(const ir::State& s, int edge) {
  std::deque<int> path{edge};
  const ir::DataflowEdge& start = *s.edge(edge);
  if (start.src_conn.empty() && start.dst_conn.empty() && start.memlet.is_empty()) return {edge};
  std::set<int> seen{edge};
  for (int cur = edge;;) {
    const ir::DataflowEdge& e = *s.edge(cur);
    if (!is_scope_node(*s.node(e.src)) || e.src_conn.rfind("OUT_", 0) != 0) break;
    int next = -1;
    for (int c : s.in_edges(e.src))
      if (s.edge(c)->dst_conn == "IN_" + e.src_conn.substr(4)) {
        next = c;
        break;
      }
    if (next < 0 || !seen.insert(next).second) break;
    path.push_front(next);
    cur = next;
  }
  for (int cur = edge;;) {
    const ir::DataflowEdge& e = *s.edge(cur);
    if (!is_scope_node(*s.node(e.dst)) || e.dst_conn.rfind("IN_", 0) != 0) break;
    int next = -1;
    for (int c : s.out_edges(e.dst))
      if (s.edge(c)->src_conn == "OUT_" + e.dst_conn.substr(3)) {
        next = c;
        break;
      }
    if (next < 0 || !seen.insert(next).second) break;
    path.push_back(next);
    cur = next;
  }
  return {path.begin(), path.end()};
}

std::string node_name(const ir::State& s, int n) {
  return "node " + std::to_string(n) + " ('" + s.node(n)->label + "')";
}

}  // namespace

bool plan_call_isolation(const ir::State& s, int call, CallIsolation& plan, std::string& why) {
  const size_t nodes = static_cast<size_t>(s.node_slots()), edges = static_cast<size_t>(s.edge_slots());
  plan.moved.assign(nodes, 0);
  plan.boundary.assign(nodes, 0);
  plan.vanishes.assign(nodes, 0);
  plan.carried.assign(edges, 0);
  auto collect_path = [&](int e) {
    for (int p : memlet_path(s, e)) {
      plan.moved[static_cast<size_t>(s.edge(p)->src)] = 1;
      plan.carried[static_cast<size_t>(p)] = 1;
    }
  };

  // DaCe's state_fission_after: the call, its inputs' paths, everything downstream.
  plan.moved[static_cast<size_t>(call)] = 1;
  for (int e : s.in_edges(call)) collect_path(e);
  std::vector<char> visited(nodes, 0);
  visited[static_cast<size_t>(call)] = 1;
  std::deque<int> queue{call};
  while (!queue.empty()) {
    const int n = queue.front();
    queue.pop_front();
    for (int e : s.out_edges(n)) {
      const int dst = s.edge(e)->dst;
      plan.moved[static_cast<size_t>(dst)] = 1;
      plan.carried[static_cast<size_t>(e)] = 1;
      if (s.node(dst)->kind != ir::NodeKind::Access)
        for (int in : s.in_edges(dst))
          if (in != e) collect_path(in);
      if (!visited[static_cast<size_t>(dst)]) {
        visited[static_cast<size_t>(dst)] = 1;
        queue.push_back(dst);
      }
    }
  }

  // Boundary nodes: moved access nodes with an edge to or from a node that stays.
  for (int e : s.edge_ids()) {
    const ir::DataflowEdge& edge = *s.edge(e);
    const bool src_moves = plan.moved[static_cast<size_t>(edge.src)], dst_moves = plan.moved[static_cast<size_t>(edge.dst)];
    if (src_moves && dst_moves && !plan.carried[static_cast<size_t>(e)]) {
      why = "edge " + std::to_string(e) + " from " + node_name(s, edge.src) + " to " + node_name(s, edge.dst) +
            " would be lost by the state fission that isolates the call";
      return false;
    }
    if (src_moves == dst_moves) continue;
    const int inside = src_moves ? edge.src : edge.dst;
    if (s.node(inside)->kind != ir::NodeKind::Access) {
      why = "edge " + std::to_string(e) + " joins " + node_name(s, inside) +
            ", which moves after the call, to a node that stays before it";
      return false;
    }
    plan.boundary[static_cast<size_t>(inside)] = 1;
  }

  // DaCe's state_fission of the call and its neighbours in the state after: neighbours with a
  // carried edge to a moved node outside that neighbourhood stay there.
  std::vector<char> direct(nodes, 0);
  direct[static_cast<size_t>(call)] = 1;
  for (int e : s.in_edges(call)) direct[static_cast<size_t>(s.edge(e)->src)] = 1;
  for (int e : s.out_edges(call)) direct[static_cast<size_t>(s.edge(e)->dst)] = 1;
  std::vector<char> keeps(nodes, 0);
  for (int e : s.edge_ids()) {
    if (!plan.carried[static_cast<size_t>(e)]) continue;
    const ir::DataflowEdge& edge = *s.edge(e);
    const bool a = direct[static_cast<size_t>(edge.src)], b = direct[static_cast<size_t>(edge.dst)];
    if (a && !b) keeps[static_cast<size_t>(edge.src)] = 1;
    if (b && !a) keeps[static_cast<size_t>(edge.dst)] = 1;
  }
  for (size_t n = 0; n < nodes; ++n) plan.vanishes[n] = direct[n] && !keeps[n];
  plan.vanishes[static_cast<size_t>(call)] = 1;
  return true;
}

bool isolation_moves_nothing(const ir::State& s, const CallIsolation& plan) {
  for (int n : s.node_ids())
    if (!plan.vanishes[static_cast<size_t>(n)] || plan.boundary[static_cast<size_t>(n)]) return false;
  return true;
}

void isolate_call(ir::State& s, ir::State& after, const CallIsolation& plan) {
  const std::vector<int> all_nodes = s.node_ids();
  const std::vector<int> all_edges = s.edge_ids();
  std::vector<ir::DataflowEdge> edges;
  for (int e : all_edges) edges.push_back(*s.edge(e));

  // Copies of the boundary nodes stay, with their edges to the nodes that stay.
  std::map<int, int> copy;
  for (int n : all_nodes)
    if (plan.boundary[static_cast<size_t>(n)]) {
      std::unique_ptr<ir::Node> c = s.node(n)->clone();
      c->guid.clear();
      copy[n] = s.add_node(std::move(c));
    }
  auto moved = [&](int n) { return plan.moved[static_cast<size_t>(n)] != 0; };
  for (const ir::DataflowEdge& e : edges) {
    const bool sb = copy.count(e.src), db = copy.count(e.dst);
    if (!(sb || db)) continue;
    if ((sb && db) || (sb && !moved(e.dst)) || (db && !moved(e.src))) {
      ir::DataflowEdge c = e;
      c.memlet.guid.clear();
      if (sb) c.src = copy[e.src];
      if (db) c.dst = copy[e.dst];
      s.add_edge(std::move(c));
    }
  }

  // The moved nodes go after the call (in their order), unless they vanish with it.
  std::map<int, int> to;
  for (int n : all_nodes) {
    if (!moved(n)) continue;
    std::unique_ptr<ir::Node> node = s.release_node(n);
    if (!plan.vanishes[static_cast<size_t>(n)]) to[n] = after.add_node(std::move(node));
  }
  for (const auto& [from, id] : to) {
    ir::Node* n = after.node(id);
    const int* entry = nullptr;
    if (n->kind == ir::NodeKind::MapExit) entry = &static_cast<ir::MapExit*>(n)->entry;
    if (n->kind == ir::NodeKind::ConsumeExit) entry = &static_cast<ir::ConsumeExit*>(n)->entry;
    if (entry && to.count(*entry)) after.set_scope_entry(id, to[*entry]);
  }
  for (size_t k = 0; k < all_edges.size(); ++k) {
    const ir::DataflowEdge& e = edges[k];
    if (!plan.carried[static_cast<size_t>(all_edges[k])] || !to.count(e.src) || !to.count(e.dst)) continue;
    ir::DataflowEdge c = e;
    c.src = to[e.src];
    c.dst = to[e.dst];
    after.add_edge(std::move(c));
  }
}

}  // namespace dace::transform
