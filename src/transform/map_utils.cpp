#include "transform/map_utils.h"

#include <algorithm>

#include "analysis/memlet_propagation.h"
#include "transform/map_fusion_util.h"
#include "transform/symbol_use.h"

namespace dace::transform {

void map_entry_matches(const ir::State& state, std::vector<std::vector<int>>& out) {
  for (int id : state.node_ids())
    if (as_map_entry(state.node(id))) out.push_back({id});
}

void nested_map_matches(const ir::State& state, std::vector<std::vector<int>>& out) {
  for (int id : state.node_ids()) {
    if (!as_map_entry(state.node(id))) continue;
    std::vector<int> inner;
    for (int e : state.out_edges(id))
      if (as_map_entry(state.node(state.edge(e)->dst))) inner.push_back(state.edge(e)->dst);
    std::sort(inner.begin(), inner.end());
    inner.erase(std::unique(inner.begin(), inner.end()), inner.end());
    for (int i : inner) out.push_back({id, i});
  }
}

std::string nested_maps_problem(const ir::State& state, const ScopeTree& scopes, int outer_id, int inner_id) {
  const ir::MapEntry* outer = as_map_entry(state.node(outer_id));
  const ir::MapEntry* inner = as_map_entry(state.node(inner_id));
  if (!outer || !inner || outer_id == inner_id) return "the pattern needs two map entries";
  if (scopes.exit_of(outer_id) < 0 || scopes.exit_of(inner_id) < 0) return "a map entry has no exit";
  if (scopes.parent[static_cast<size_t>(inner_id)] != outer_id)
    return "map " + std::to_string(inner_id) + " is not directly inside map " + std::to_string(outer_id);
  const std::set<std::string> outer_params(outer->map.params.begin(), outer->map.params.end());
  for (const std::string& p : inner->map.params)
    if (outer_params.count(p)) return "both maps have a parameter \"" + p + "\"";
  // Outside (interchanged) or merged, the inner range is evaluated where the outer
  // parameters do not exist.
  for (const std::string& s : free_symbols(inner->map.range))
    if (outer_params.count(s))
      return "the range of map \"" + inner->label + "\" depends on outer parameter \"" + s + "\"";
  return {};
}

bool single_iteration(const sym::Range& r) {
  if (!r.start || !r.end) return false;
  if (r.start == r.end) return true;
  return sym::as_integer(sym::simplify(sym::sub(r.end, r.start))) == 0;
}

bool has_dynamic_inputs(const ir::State& state, int entry) {
  for (int e : state.in_edges(entry)) {
    const ir::DataflowEdge& edge = *state.edge(e);
    if (!edge.memlet.is_empty() && !edge.dst_conn.starts_with("IN_")) return true;
  }
  return false;
}

std::string connector_suffix(const std::string& conn, const char* prefix) {
  const std::string p(prefix);
  return conn.starts_with(p) ? conn.substr(p.size()) : std::string();
}

std::string nesting_problem(const ir::State& state, const ScopeTree& scopes, int outer, int inner) {
  const int outer_exit = scopes.exit_of(outer), inner_exit = scopes.exit_of(inner);
  if (outer_exit < 0 || inner_exit < 0) return "a map entry has no exit";
  if (scopes.parent[static_cast<size_t>(inner)] != outer)
    return "map " + std::to_string(inner) + " is not directly inside map " + std::to_string(outer);
  for (int e : state.out_edges(outer))
    if (state.edge(e)->dst != inner) return "the outer map feeds a node other than the inner map";
  for (int e : state.in_edges(inner))
    if (state.edge(e)->src != outer) return "the inner map is fed from outside the outer map";
  for (int e : state.out_edges(inner_exit))
    if (state.edge(e)->dst != outer_exit) return "the inner map writes to a node other than the outer exit";
  for (int e : state.in_edges(outer_exit))
    if (state.edge(e)->src != inner_exit) return "the outer exit receives from a node other than the inner exit";
  for (int e : state.out_edges(inner)) {
    const ir::DataflowEdge& edge = *state.edge(e);
    if (edge.memlet.is_empty() && edge.src_conn.empty()) continue;
    const std::string x = connector_suffix(edge.src_conn, "OUT_");
    int feeding = 0;
    for (int in : state.in_edges(inner))
      if (state.edge(in)->dst_conn == "IN_" + x) ++feeding;
    if (x.empty() || feeding != 1) return "inner entry connector \"" + edge.src_conn + "\" is not fed by one edge";
  }
  for (int e : state.in_edges(inner_exit)) {
    const ir::DataflowEdge& edge = *state.edge(e);
    if (edge.memlet.is_empty() && edge.dst_conn.empty()) continue;
    const std::string x = connector_suffix(edge.dst_conn, "IN_");
    int leaving = 0;
    for (int out : state.out_edges(inner_exit))
      if (state.edge(out)->src_conn == "OUT_" + x) ++leaving;
    if (x.empty() || leaving != 1) return "inner exit connector \"" + edge.dst_conn + "\" does not leave once";
  }
  return {};
}

ir::Memlet propagate_edges(const ir::SDFG& sdfg, const ir::State& state, const std::vector<int>& inner_edges,
                           const std::vector<std::string>& params, const sym::Subset& range,
                           const ir::Memlet& outside) {
  if (outside.is_empty() || inner_edges.empty()) return outside;
  auto desc = sdfg.arrays.find(outside.data);
  if (desc == sdfg.arrays.end()) return outside;
  std::optional<sym::Subset> hull;
  bool dynamic = false;
  for (int e : inner_edges) {
    const ir::Memlet& m = state.edge(e)->memlet;
    const sym::Subset* s = map_fusion::subset_of(m, outside.data);
    if (!s || s->rank() != desc->second.shape.size()) return outside;
    dynamic |= m.dynamic;
    sym::Subset p = analysis::propagate_over_map(*s, desc->second, params, range);
    if (!hull) {
      hull = std::move(p);
      continue;
    }
    for (size_t d = 0; d < p.dims.size(); ++d) {
      hull->dims[d].start = sym::simplify(sym::min(hull->dims[d].start, p.dims[d].start));
      hull->dims[d].end = sym::simplify(sym::max(hull->dims[d].end, p.dims[d].end));
    }
  }
  ir::Memlet out = outside;
  out.subset = *hull;
  out.other_subset.reset();
  out.volume = nullptr;
  out.dynamic = outside.dynamic || dynamic;
  return out;
}

std::set<std::string> names_in_use(const ir::SDFG& sdfg, const ir::State& state, const ScopeTree& scopes, int entry) {
  std::set<std::string> names;
  for (const auto& [name, type] : sdfg.symbols) names.insert(name);
  for (const auto& [name, desc] : sdfg.arrays) names.insert(name);
  for (int e = entry; e >= 0; e = scopes.parent[static_cast<size_t>(e)]) {
    const ir::Node* n = state.node(e);
    if (n->kind == ir::NodeKind::MapEntry)
      for (const std::string& p : static_cast<const ir::MapEntry*>(n)->map.params) names.insert(p);
    else if (n->kind == ir::NodeKind::ConsumeEntry)
      names.insert(static_cast<const ir::ConsumeEntry*>(n)->consume.pe_index);
  }
  return names;
}

}  // namespace dace::transform
