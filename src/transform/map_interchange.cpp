#include "transform/map_interchange.h"

#include <algorithm>
#include <map>

#include "transform/map_utils.h"
#include "transform/symbol_use.h"

namespace dace::transform {

void MapInterchange::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  nested_map_matches(state, out);
}

bool MapInterchange::can_apply(const Site& site, const std::vector<int>& nodes) {
  const ir::State& state = site.state;
  const int outer_id = nodes[0], inner_id = nodes[1];
  if (std::string why = nested_maps_problem(state, site.scopes, outer_id, inner_id); !why.empty())
    return refuse(std::move(why));
  if (has_dynamic_inputs(state, outer_id) || has_dynamic_inputs(state, inner_id))
    return refuse("dynamic map-range inputs are not interchanged");
  const std::string nesting = nesting_problem(state, site.scopes, outer_id, inner_id);
  if (!nesting.empty()) return refuse(nesting);
  return true;
}

Status MapInterchange::apply_at(const Site& site, const std::vector<int>& nodes) {
  ir::State& state = site.state;
  const int outer = nodes[0], inner = nodes[1];
  const int outer_exit = site.scopes.exit_of(outer), inner_exit = site.scopes.exit_of(inner);

  // The connectors stay with the positions: the node now outside takes the outer entry's
  // connectors, so every edge keeps its connector names.
  std::swap(state.node(outer)->in_connectors, state.node(inner)->in_connectors);
  std::swap(state.node(outer)->out_connectors, state.node(inner)->out_connectors);
  std::swap(state.node(outer_exit)->in_connectors, state.node(inner_exit)->in_connectors);
  std::swap(state.node(outer_exit)->out_connectors, state.node(inner_exit)->out_connectors);

  std::vector<int> between_entries, between_exits;
  for (int e : state.out_edges(outer)) between_entries.push_back(e);
  for (int e : state.out_edges(inner_exit)) between_exits.push_back(e);
  std::vector<int> from_outside = state.in_edges(outer), to_body = state.out_edges(inner);
  std::vector<int> from_body = state.in_edges(inner_exit), to_outside = state.out_edges(outer_exit);
  for (int e : from_outside) state.set_edge_ends(e, state.edge(e)->src, inner);
  for (int e : to_body) state.set_edge_ends(e, outer, state.edge(e)->dst);
  for (int e : from_body) state.set_edge_ends(e, state.edge(e)->src, outer_exit);
  for (int e : to_outside) state.set_edge_ends(e, inner_exit, state.edge(e)->dst);
  for (int e : between_entries) state.set_edge_ends(e, inner, outer);
  for (int e : between_exits) state.set_edge_ends(e, outer_exit, inner_exit);

  // The memlets between the two maps now describe one iteration of the new outer map over
  // all iterations of the new inner one (the former outer map).
  const auto& now_inner = static_cast<const ir::MapEntry*>(state.node(outer))->map;
  for (int e : between_entries) {
    ir::DataflowEdge* edge = state.edge(e);
    if (edge->memlet.is_empty()) continue;
    std::vector<int> inside;
    const std::string x = connector_suffix(edge->dst_conn, "IN_");
    for (int b : state.out_edges(outer))
      if (state.edge(b)->src_conn == "OUT_" + x) inside.push_back(b);
    edge->memlet = propagate_edges(site.sdfg, state, inside, now_inner.params, now_inner.range, edge->memlet);
  }
  for (int e : between_exits) {
    ir::DataflowEdge* edge = state.edge(e);
    if (edge->memlet.is_empty()) continue;
    std::vector<int> inside;
    const std::string x = connector_suffix(edge->src_conn, "OUT_");
    for (int b : state.in_edges(outer_exit))
      if (state.edge(b)->dst_conn == "IN_" + x) inside.push_back(b);
    edge->memlet = propagate_edges(site.sdfg, state, inside, now_inner.params, now_inner.range, edge->memlet);
  }
  return Status::success();
}

}  // namespace dace::transform
