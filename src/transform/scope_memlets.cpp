#include "transform/scope_memlets.h"

#include "transform/map_utils.h"

namespace dace::transform {
namespace {

PathMemlets path(const ir::State& s, int scope_node, int outer_edge, bool is_entry) {
  const ir::DataflowEdge& oe = *s.edge(outer_edge);
  PathMemlets p;
  p.outer_edge = outer_edge;
  const std::string x = is_entry ? connector_suffix(oe.dst_conn, "IN_") : connector_suffix(oe.src_conn, "OUT_");
  if (x.empty()) return p;
  p.through_connector = true;
  const std::string inner_conn = (is_entry ? "OUT_" : "IN_") + x;
  for (int ie : is_entry ? s.out_edges(scope_node) : s.in_edges(scope_node)) {
    const ir::DataflowEdge& edge = *s.edge(ie);
    if ((is_entry ? edge.src_conn : edge.dst_conn) == inner_conn) p.inner_edges.push_back(ie);
  }
  return p;
}

}  // namespace

std::optional<MapMemlets> MapMemlets::compute(const ir::State& s, const ScopeTree& scopes, int entry) {
  if (!as_map_entry(s.node(entry))) return std::nullopt;
  const int exit = scopes.exit_of(entry);
  if (exit < 0) return std::nullopt;
  MapMemlets m;
  m.entry = entry;
  m.exit = exit;
  for (int e : s.in_edges(entry)) m.inputs.push_back(path(s, entry, e, true));
  for (int e : s.out_edges(exit)) m.outputs.push_back(path(s, exit, e, false));
  return m;
}

const PathMemlets* MapMemlets::of_outer_edge(int e) const {
  for (const std::vector<PathMemlets>* side : {&inputs, &outputs})
    for (const PathMemlets& p : *side)
      if (p.outer_edge == e) return &p;
  return nullptr;
}

ir::Memlet propagate_path(const ir::SDFG& sdfg, const ir::State& s, const MapMemlets& map, const PathMemlets& path) {
  const ir::DataflowEdge& oe = *s.edge(path.outer_edge);
  if (!path.through_connector) return oe.memlet;
  const ir::MapScope& scope = as_map_entry(s.node(map.entry))->map;
  return propagate_edges(sdfg, s, path.inner_edges, scope.params, scope.range, oe.memlet);
}

}  // namespace dace::transform
