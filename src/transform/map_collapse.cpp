#include "transform/map_collapse.h"

#include <algorithm>

#include "transform/map_utils.h"
#include "transform/symbol_use.h"

namespace dace::transform {

void MapCollapse::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  nested_map_matches(state, out);
}

bool MapCollapse::can_apply(const Site& site, const std::vector<int>& nodes) {
  const ir::State& state = site.state;
  const int outer_id = nodes[0], inner_id = nodes[1];
  const ir::MapEntry* outer = as_map_entry(state.node(outer_id));
  const ir::MapEntry* inner = as_map_entry(state.node(inner_id));
  if (std::string why = nested_maps_problem(state, site.scopes, outer_id, inner_id); !why.empty())
    return refuse(std::move(why));
  if (outer->map.schedule != inner->map.schedule) return refuse("the maps have different schedules");
  if (has_dynamic_inputs(state, outer_id) || has_dynamic_inputs(state, inner_id))
    return refuse("dynamic map-range inputs are not collapsed");

  const std::string nesting = nesting_problem(state, site.scopes, outer_id, inner_id);
  if (!nesting.empty()) return refuse(nesting);
  return true;
}

Status MapCollapse::apply_at(const Site& site, const std::vector<int>& nodes) {
  ir::State& state = site.state;
  const int outer_id = nodes[0], inner_id = nodes[1];
  const int outer_exit = site.scopes.exit_of(outer_id), inner_exit = site.scopes.exit_of(inner_id);
  auto* outer = static_cast<ir::MapEntry*>(state.node(outer_id));
  const auto* inner = static_cast<const ir::MapEntry*>(state.node(inner_id));

  outer->map.params.insert(outer->map.params.end(), inner->map.params.begin(), inner->map.params.end());
  outer->map.range.dims.insert(outer->map.range.dims.end(), inner->map.range.dims.begin(), inner->map.range.dims.end());

  // Inner entry's OUT_x edges now leave the outer entry from the connector that fed IN_x.
  for (int e : state.out_edges(inner_id)) {
    ir::DataflowEdge* edge = state.edge(e);
    std::string from_conn;
    if (!edge->src_conn.empty()) {
      const std::string x = connector_suffix(edge->src_conn, "OUT_");
      for (int in : state.in_edges(inner_id))
        if (state.edge(in)->dst_conn == "IN_" + x) from_conn = state.edge(in)->src_conn;
    }
    edge->src_conn = from_conn;
    state.set_edge_ends(e, outer_id, edge->dst);
  }
  // Inner exit's IN_x edges now enter the outer exit at the connector OUT_x led to.
  for (int e : state.in_edges(inner_exit)) {
    ir::DataflowEdge* edge = state.edge(e);
    std::string to_conn;
    if (!edge->dst_conn.empty()) {
      const std::string x = connector_suffix(edge->dst_conn, "IN_");
      for (int out : state.out_edges(inner_exit))
        if (state.edge(out)->src_conn == "OUT_" + x) to_conn = state.edge(out)->dst_conn;
    }
    edge->dst_conn = to_conn;
    state.set_edge_ends(e, edge->src, outer_exit);
  }
  state.remove_node(inner_id);
  state.remove_node(inner_exit);
  return Status::success();
}

}  // namespace dace::transform
