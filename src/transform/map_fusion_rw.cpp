// MapFusion: read/write conflicts through the scope nodes (DaCe's has_read_write_dependency).
// After fusion the second map's reads move up to the first map's entry and the first map's
// writes move down to the second map's exit, so a container read by one and written by the
// other is safe only when every iteration touches the same elements ("pointwise").
#include <map>
#include <set>

#include "analysis/sets.h"
#include "transform/map_fusion.h"
#include "transform/map_fusion_util.h"
#include "transform/map_utils.h"

namespace dace::transform {
namespace {

// Access nodes on the outer side of a scope node: sources feeding an entry, destinations of
// an exit. False when one container appears through two different access nodes.
bool outer_accesses(const ir::State& state, int scope_node, bool is_entry, std::map<std::string, int>& out) {
  const std::vector<int> edges = is_entry ? state.in_edges(scope_node) : state.out_edges(scope_node);
  for (int e : edges) {
    const int n = is_entry ? state.edge(e)->src : state.edge(e)->dst;
    const ir::Node* node = state.node(n);
    if (node->kind != ir::NodeKind::Access) continue;
    const std::string& data = static_cast<const ir::AccessNode*>(node)->data;
    auto [it, inserted] = out.emplace(data, n);
    if (!inserted && it->second != n) return false;
  }
  return true;
}

// The inner subsets of `data` that flow between access node `node` and scope node
// `scope_node` (inside the scope, per iteration); false when one cannot be told.
bool inner_subsets(const ir::State& state, int node, int scope_node, bool is_entry, const std::string& data,
                   const std::map<std::string, sym::Expr>& rename, std::vector<sym::Subset>& out) {
  const std::vector<int> outer = is_entry ? state.in_edges(scope_node) : state.out_edges(scope_node);
  for (int e : outer) {
    const ir::DataflowEdge& oe = *state.edge(e);
    if ((is_entry ? oe.src : oe.dst) != node) continue;
    const std::string x = is_entry ? connector_suffix(oe.dst_conn, "IN_") : connector_suffix(oe.src_conn, "OUT_");
    if (x.empty()) return false;
    const std::vector<int> inner = is_entry ? state.out_edges(scope_node) : state.in_edges(scope_node);
    for (int ie : inner) {
      const ir::DataflowEdge& edge = *state.edge(ie);
      if ((is_entry ? edge.src_conn : edge.dst_conn) != (is_entry ? "OUT_" : "IN_") + x) continue;
      const sym::Subset* s = map_fusion::subset_of(edge.memlet, data);
      if (!s) return false;
      out.push_back(map_fusion::substitute(*s, rename));
    }
  }
  return true;
}

bool pointwise(const std::vector<sym::Subset>& subsets, const sym::Assumptions& assume) {
  for (size_t i = 1; i < subsets.size(); ++i) {
    if (subsets[i] == subsets[0]) continue;
    if (analysis::subset_covers(subsets[0], subsets[i], assume) != std::optional<bool>(true) ||
        analysis::subset_covers(subsets[i], subsets[0], assume) != std::optional<bool>(true))
      return false;
  }
  return true;
}

}  // namespace

bool MapFusion::check_read_write(const Site& site, const Plan& plan) {
  const ir::State& state = site.state;
  std::map<std::string, int> read1, write1, read2, write2;
  if (!outer_accesses(state, plan.first_entry, true, read1) || !outer_accesses(state, plan.first_exit, false, write1) ||
      !outer_accesses(state, plan.second_entry, true, read2) || !outer_accesses(state, plan.second_exit, false, write2))
    return refuse("a map reads or writes one container through two access nodes");
  for (const auto* set : {&read1, &write1, &read2, &write2})
    for (const auto& [data, node] : *set) {
      auto it = site.sdfg.arrays.find(data);
      if (it == site.sdfg.arrays.end()) return refuse("unknown container \"" + data + "\"");
      if (map_fusion::is_view(it->second)) return refuse("a map reads or writes view \"" + data + "\"");
    }
  for (const auto& [data, node] : write1)
    if (write2.count(data)) return refuse("both maps write \"" + data + "\"");

  // Exchanged containers: written by the first map, read by the second, through one node.
  std::set<std::string> exchange;
  for (const auto& [data, node] : write1) {
    auto it = read2.find(data);
    if (it == read2.end()) continue;
    if (it->second != node) return refuse("\"" + data + "\" passes between the maps through two access nodes");
    exchange.insert(data);
  }
  const auto& first = static_cast<const ir::MapEntry*>(state.node(plan.first_entry))->map;
  const sym::Assumptions assume = map_fusion::any_iteration(first.params);
  const std::map<std::string, sym::Expr> none, rename = map_fusion::as_symbols(plan.rename);

  // Read by the first map and written by the second: each iteration must touch one element.
  for (const auto& [data, node] : read1) {
    auto w = write2.find(data);
    if (w == write2.end()) continue;
    if (exchange.count(data)) return refuse("\"" + data + "\" is read by the first map, exchanged and written by the second");
    std::vector<sym::Subset> subsets;
    if (!inner_subsets(state, node, plan.first_entry, true, data, none, subsets) ||
        !inner_subsets(state, w->second, plan.second_exit, false, data, rename, subsets) || !pointwise(subsets, assume))
      return refuse("the first map reads \"" + data + "\" and the second writes it at different elements");
  }
  // Read and written by the first map and exchanged: the second map's reads now happen
  // inside the same iteration, so the first map's own accesses must be pointwise too.
  for (const std::string& data : exchange) {
    auto r = read1.find(data);
    if (r == read1.end()) continue;
    std::vector<sym::Subset> subsets;
    if (!inner_subsets(state, r->second, plan.first_entry, true, data, none, subsets) ||
        !inner_subsets(state, write1.at(data), plan.first_exit, false, data, none, subsets) ||
        !pointwise(subsets, assume))
      return refuse("the first map reads and writes \"" + data + "\" at different elements");
  }
  return true;
}

}  // namespace dace::transform
