#include "transform/trivial_map_elimination.h"

#include <map>

#include "transform/map_utils.h"
#include "transform/symbol_use.h"

namespace dace::transform {
namespace {

// Edges whose memlets may name the scope's parameters: those leaving the entry, entering the
// exit, and touching a node inside.
std::vector<int> scope_edges(const ir::State& state, const ScopeTree& scopes, int entry, int exit) {
  std::vector<int> out = state.out_edges(entry);
  for (int e : state.in_edges(exit)) out.push_back(e);
  for (int n : scopes.scope_nodes(entry)) {
    for (int e : state.out_edges(n)) out.push_back(e);
    for (int e : state.in_edges(n)) out.push_back(e);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

void TrivialMapElimination::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  map_entry_matches(state, out);
}

bool TrivialMapElimination::can_apply(const Site& site, const std::vector<int>& nodes) {
  const ir::MapEntry* entry = as_map_entry(site.state.node(nodes[0]));
  if (!entry) return refuse("node " + std::to_string(nodes[0]) + " is not a map entry");
  const int exit = site.scopes.exit_of(nodes[0]);
  if (exit < 0) return refuse("map entry " + std::to_string(nodes[0]) + " has no exit");
  const ir::MapScope& map = entry->map;
  if (is_gpu_schedule(map.schedule)) return refuse("GPU maps are kept: the kernel needs their scope");
  if (map.params.size() != map.range.dims.size()) return refuse("map parameters and ranges differ in number");

  std::map<std::string, sym::Expr> values;
  for (size_t i = 0; i < map.params.size(); ++i)
    if (single_iteration(map.range.dims[i])) values[map.params[i]] = map.range.dims[i].start;
  if (values.empty()) return refuse("no dimension has a single iteration");
  const bool removes_map = values.size() == map.params.size();
  if (removes_map && has_dynamic_inputs(site.state, nodes[0]))
    return refuse("the map has dynamic range inputs, which need a map to stay");

  const std::vector<int> inside = site.scopes.scope_nodes(nodes[0]);
  for (int n : inside) {
    const ir::Node& node = *site.state.node(n);
    for (const auto& [param, value] : values) {
      if (node_code_mentions(node, param))
        return refuse("parameter \"" + param + "\" occurs in the code of node " + std::to_string(n));
      // An inner scope redefining a symbol of the value would capture it.
      if (const ir::MapEntry* inner = as_map_entry(&node))
        for (const std::string& p : inner->map.params)
          if (sym::free_symbols(value).count(p) || p == param)
            return refuse("inner map " + std::to_string(n) + " redefines \"" + p + "\"");
    }
  }
  if (!removes_map) return true;

  // Removing the scope reconnects IN_x/OUT_x pairs: each must be a plain one-to-one path.
  for (int e : site.state.out_edges(nodes[0])) {
    const ir::DataflowEdge& edge = *site.state.edge(e);
    if (edge.memlet.is_empty()) continue;
    std::string x = connector_suffix(edge.src_conn, "OUT_");
    int feeding = 0;
    for (int in : site.state.in_edges(nodes[0]))
      if (site.state.edge(in)->dst_conn == "IN_" + x) ++feeding;
    if (x.empty() || feeding != 1) return refuse("map entry connector \"" + edge.src_conn + "\" is not fed by one edge");
  }
  for (int e : site.state.in_edges(exit)) {
    const ir::DataflowEdge& edge = *site.state.edge(e);
    if (edge.memlet.is_empty()) continue;
    std::string x = connector_suffix(edge.dst_conn, "IN_");
    int leaving = 0, entering = 0;
    for (int out : site.state.out_edges(exit))
      if (site.state.edge(out)->src_conn == "OUT_" + x) ++leaving;
    for (int in : site.state.in_edges(exit))
      if (site.state.edge(in)->dst_conn == edge.dst_conn) ++entering;
    if (x.empty() || leaving != 1 || entering != 1)
      return refuse("map exit connector \"" + edge.dst_conn + "\" is not a one-to-one path");
  }
  return true;
}

Status TrivialMapElimination::apply_at(const Site& site, const std::vector<int>& nodes) {
  ir::State& state = site.state;
  const int entry_id = nodes[0];
  const int exit = site.scopes.exit_of(entry_id);
  auto* entry = static_cast<ir::MapEntry*>(state.node(entry_id));
  ir::MapScope& map = entry->map;

  std::map<std::string, sym::Expr> values;
  std::vector<std::string> params;
  std::vector<sym::Range> dims;
  for (size_t i = 0; i < map.params.size(); ++i) {
    if (single_iteration(map.range.dims[i])) {
      values[map.params[i]] = map.range.dims[i].start;
    } else {
      params.push_back(map.params[i]);
      dims.push_back(map.range.dims[i]);
    }
  }
  for (int e : scope_edges(state, site.scopes, entry_id, exit)) substitute(state.edge(e)->memlet, values);
  for (int n : site.scopes.scope_nodes(entry_id)) {
    ir::Node* node = state.node(n);
    if (node->kind == ir::NodeKind::MapEntry) {
      for (sym::Range& r : static_cast<ir::MapEntry*>(node)->map.range.dims) {
        r.start = sym::substitute(r.start, values);
        r.end = sym::substitute(r.end, values);
        r.step = sym::substitute(r.step, values);
        if (r.tile) r.tile = sym::substitute(r.tile, values);
      }
    } else if (node->kind == ir::NodeKind::ConsumeEntry) {
      ir::ConsumeScope& c = static_cast<ir::ConsumeEntry*>(node)->consume;
      if (c.num_pes) c.num_pes = sym::substitute(c.num_pes, values);
      if (c.chunksize) c.chunksize = sym::substitute(c.chunksize, values);
    } else if (node->kind == ir::NodeKind::NestedSDFG) {
      for (auto& [inner, outer] : static_cast<ir::NestedSDFGNode*>(node)->symbol_mapping)
        if (outer) outer = sym::substitute(outer, values);
    }
  }
  if (!params.empty()) {
    map.params = std::move(params);
    map.range.dims = std::move(dims);
    return Status::success();
  }
  remove_map(site, entry_id, exit);
  return Status::success();
}

void TrivialMapElimination::remove_map(const Site& site, int entry, int exit) {
  ir::State& state = site.state;
  const int parent = site.scopes.parent[static_cast<size_t>(entry)];
  const int parent_exit = parent >= 0 ? site.scopes.exit_of(parent) : -1;
  const std::vector<int> children = site.scopes.children_of(entry);

  // entry: (src -> IN_x) + (OUT_x -> dst) becomes src -> dst with the inner memlet.
  for (int e : state.out_edges(entry)) {
    ir::DataflowEdge out = *state.edge(e);
    if (out.memlet.is_empty()) continue;
    const std::string x = connector_suffix(out.src_conn, "OUT_");
    for (int in : state.in_edges(entry)) {
      const ir::DataflowEdge& feed = *state.edge(in);
      if (feed.dst_conn != "IN_" + x) continue;
      state.add_edge(ir::DataflowEdge{feed.src, out.dst, feed.src_conn, out.dst_conn, out.memlet});
      break;
    }
  }
  // exit: (src -> IN_x) + (OUT_x -> dst) becomes src -> dst with the inner memlet.
  for (int e : state.in_edges(exit)) {
    ir::DataflowEdge in = *state.edge(e);
    if (in.memlet.is_empty()) continue;
    const std::string x = connector_suffix(in.dst_conn, "IN_");
    for (int out : state.out_edges(exit)) {
      const ir::DataflowEdge& leave = *state.edge(out);
      if (leave.src_conn != "OUT_" + x) continue;
      state.add_edge(ir::DataflowEdge{in.src, leave.dst, in.src_conn, leave.dst_conn, in.memlet});
      break;
    }
  }
  // Empty memlets into the entry (out of the exit) order the whole scope after (before) some
  // node; keep that order on what was directly inside. (Edges from the enclosing entry / to
  // its exit are restored below for every child that needs one.)
  for (int in : state.in_edges(entry)) {
    const ir::DataflowEdge feed = *state.edge(in);
    if (!feed.memlet.is_empty() || feed.src == parent) continue;
    for (int out : state.out_edges(entry)) {
      const int dst = state.edge(out)->dst;
      if (dst != exit) state.add_edge(ir::DataflowEdge{feed.src, dst, "", "", {}});
    }
  }
  for (int out : state.out_edges(exit)) {
    const ir::DataflowEdge leave = *state.edge(out);
    if (!leave.memlet.is_empty() || leave.dst == parent_exit) continue;
    for (int in : state.in_edges(exit)) {
      const int src = state.edge(in)->src;
      if (src != entry) state.add_edge(ir::DataflowEdge{src, leave.dst, "", "", {}});
    }
  }
  state.remove_node(entry);
  state.remove_node(exit);
  // Nodes that hung on the removed scope only through empty memlets now belong to the
  // enclosing scope: keep them attached to it (DaCe does the same).
  for (int c : children) {
    if (c == entry || c == exit || !state.node(c)) continue;
    if (parent >= 0 && state.in_edges(c).empty()) state.add_edge(ir::DataflowEdge{parent, c, "", "", {}});
    if (parent_exit >= 0 && state.out_edges(c).empty()) state.add_edge(ir::DataflowEdge{c, parent_exit, "", "", {}});
  }
}

}  // namespace dace::transform
