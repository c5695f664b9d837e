#include "transform/scope_memlets.h"

#include "transform/map_utils.h"

namespace dace::transform {
namespace {

PathMemlets path(const ir::SDFG& sdfg, const ir::State& s, const ir::MapEntry& me, int scope_node, int outer_edge,
                 bool is_entry) {
  const ir::DataflowEdge& oe = *s.edge(outer_edge);
  PathMemlets p;
  p.outer_edge = outer_edge;
  p.propagated = oe.memlet;
  const std::string x = is_entry ? connector_suffix(oe.dst_conn, "IN_") : connector_suffix(oe.src_conn, "OUT_");
  if (x.empty()) return p;
  p.through_connector = true;
  const std::string inner_conn = (is_entry ? "OUT_" : "IN_") + x;
  for (int ie : is_entry ? s.out_edges(scope_node) : s.in_edges(scope_node)) {
    const ir::DataflowEdge& edge = *s.edge(ie);
    if ((is_entry ? edge.src_conn : edge.dst_conn) == inner_conn) p.inner_edges.push_back(ie);
  }
  p.propagated = propagate_edges(sdfg, s, p.inner_edges, me.map.params, me.map.range, oe.memlet);
  return p;
}

}  // namespace

const PathMemlets* MapMemlets::of_outer_edge(int e) const {
  for (const std::vector<PathMemlets>* side : {&inputs, &outputs})
    for (const PathMemlets& p : *side)
      if (p.outer_edge == e) return &p;
  return nullptr;
}

ScopeMemlets ScopeMemlets::compute(const ir::SDFG& sdfg, const ir::State& s, const ScopeTree& scopes) {
  ScopeMemlets out;
  for (int n : s.node_ids()) {
    const ir::MapEntry* me = as_map_entry(s.node(n));
    const int exit = scopes.exit_of(n);
    if (!me || exit < 0) continue;
    MapMemlets& m = out.by_entry[n];
    for (int e : s.in_edges(n)) m.inputs.push_back(path(sdfg, s, *me, n, e, true));
    for (int e : s.out_edges(exit)) m.outputs.push_back(path(sdfg, s, *me, exit, e, false));
  }
  return out;
}

const MapMemlets* ScopeMemlets::of(int entry) const {
  auto it = by_entry.find(entry);
  return it == by_entry.end() ? nullptr : &it->second;
}

}  // namespace dace::transform
