// Memoized memlet-path ends: every edge is walked at most once, so writing a state is linear
// in its size whatever the scope depth (see memlet_paths.h).
#include "ir/json/memlet_paths.h"

namespace dace::ir::json::detail {

MemletPaths::MemletPaths(const State& st)
    : st_(st),
      src_end_(static_cast<size_t>(st.edge_slots()), kUnknown),
      dst_end_(static_cast<size_t>(st.edge_slots()), kUnknown) {
  for (int node : st.node_ids()) {
    if (!is_scope(node)) continue;
    // emplace keeps the first edge of each connector, as the linear search did.
    for (int id : st.in_edges(node)) in_by_conn_.emplace(std::make_pair(node, st.edge(id)->dst_conn), id);
    for (int id : st.out_edges(node)) out_by_conn_.emplace(std::make_pair(node, st.edge(id)->src_conn), id);
  }
}

bool MemletPaths::is_scope(int node) const {
  const Node* n = st_.node(node);
  return n && (n->is_scope_entry() || n->is_scope_exit());
}

// Backwards: from an edge leaving a scope node's OUT_x to the edge entering its IN_x, until
// the source is not a scope node. Forwards: IN_x to OUT_x; a scope input that is not IN_x (a
// dynamic map-range input) ends the path there.
int MemletPaths::walk(int edge_id, bool backwards) {
  std::vector<int>& memo = backwards ? src_end_ : dst_end_;
  std::vector<int> chain;
  int result = kFail;
  int cur = edge_id;
  while (true) {
    int& known = memo[static_cast<size_t>(cur)];
    if (known == kVisiting) break;  // a cycle: DaCe's walk would not end either
    if (known != kUnknown) {
      result = known;
      break;
    }
    known = kVisiting;
    chain.push_back(cur);
    const DataflowEdge& e = *st_.edge(cur);
    const int node = backwards ? e.src : e.dst;
    if (!is_scope(node)) {
      result = node;
      break;
    }
    const std::string& conn = backwards ? e.src_conn : e.dst_conn;
    std::string want;
    if (backwards) {
      if (!conn.starts_with("OUT_")) break;
      want = "IN_" + conn.substr(4);
    } else {
      if (conn.empty()) break;
      if (!conn.starts_with("IN_")) {
        result = node;
        break;
      }
      want = "OUT_" + conn.substr(3);
    }
    const auto& index = backwards ? in_by_conn_ : out_by_conn_;
    auto next = index.find(std::make_pair(node, want));
    if (next == index.end()) break;
    cur = next->second;
  }
  for (int id : chain) memo[static_cast<size_t>(id)] = result;
  return result;
}

std::optional<MemletPaths::Ends> MemletPaths::ends(int edge_id) {
  const DataflowEdge& e = *st_.edge(edge_id);
  if (e.src_conn.empty() && e.dst_conn.empty() && e.memlet.is_empty()) return Ends{e.src, e.dst};
  int src = walk(edge_id, /*backwards=*/true);
  if (src < 0) return std::nullopt;
  int dst = walk(edge_id, /*backwards=*/false);
  if (dst < 0) return std::nullopt;
  return Ends{src, dst};
}

}  // namespace dace::ir::json::detail
