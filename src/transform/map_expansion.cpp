#include "transform/map_expansion.h"

#include <map>

#include "transform/map_utils.h"

namespace dace::transform {
namespace {

void add_pair(ir::Node& n, const std::string& x) {
  n.in_connectors.emplace("IN_" + x, ir::DType{});
  n.out_connectors.emplace("OUT_" + x, ir::DType{});
}

}  // namespace

MapExpansion::MapExpansion() {
  props_.bind_optional_string("inner_schedule", &inner_schedule_);
  props_.bind_optional_int("expansion_limit", &expansion_limit_);
}

void MapExpansion::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  map_entry_matches(state, out);
}

std::vector<std::vector<size_t>> MapExpansion::levels(size_t dims) const {
  // As DaCe: no limit, a limit <= 0, or one that leaves at most one parameter for the
  // innermost map expands every parameter.
  const bool full = !expansion_limit_ || *expansion_limit_ <= 0 || static_cast<int64_t>(dims) - *expansion_limit_ <= 1;
  const size_t single = full ? dims : static_cast<size_t>(*expansion_limit_);
  std::vector<std::vector<size_t>> out;
  for (size_t d = 0; d < single; ++d) out.push_back({d});
  if (!full) {
    out.emplace_back();
    for (size_t d = single; d < dims; ++d) out.back().push_back(d);
  }
  return out;
}

bool MapExpansion::can_apply(const Site& site, const std::vector<int>& nodes) {
  const ir::MapEntry* entry = as_map_entry(site.state.node(nodes[0]));
  if (!entry) return refuse("node " + std::to_string(nodes[0]) + " is not a map entry");
  const std::string name = "map \"" + entry->label + "\" (node " + std::to_string(nodes[0]) + ")";
  if (entry->map.params.size() < 2) return refuse(name + " has a single parameter");
  if (entry->map.range.dims.size() != entry->map.params.size())
    return refuse(name + " has " + std::to_string(entry->map.range.dims.size()) + " ranges for " +
                  std::to_string(entry->map.params.size()) + " parameters");
  if (site.scopes.exit_of(nodes[0]) < 0) return refuse(name + " has no exit");
  if (has_dynamic_inputs(site.state, nodes[0])) return refuse(name + " has dynamic range inputs");
  if (inner_schedule_ && !ir::parse_schedule(*inner_schedule_))
    return refuse("inner_schedule \"" + *inner_schedule_ + "\" is not a schedule type");
  return true;
}

Status MapExpansion::apply_at(const Site& site, const std::vector<int>& nodes) {
  ir::State& state = site.state;
  const int entry_id = nodes[0], exit_id = site.scopes.exit_of(entry_id);
  auto* entry = static_cast<ir::MapEntry*>(state.node(entry_id));
  const ir::MapScope original = entry->map;
  const std::string label = entry->label;
  const std::vector<std::vector<size_t>> groups = levels(original.params.size());
  const size_t n_levels = groups.size();
  const ir::ScheduleType inner_schedule = inner_schedule_ ? *ir::parse_schedule(*inner_schedule_) : original.schedule;

  auto scope_of = [&](size_t level) {
    ir::MapScope m;
    for (size_t d : groups[level]) {
      m.params.push_back(original.params[d]);
      m.range.dims.push_back(original.range.dims[d]);
    }
    m.schedule = level == 0 ? original.schedule : inner_schedule;
    return m;
  };
  // Node order as DaCe adds them: the innermost entry, then the others from the outside in;
  // the exits from the inside out. Index 0 stands for the existing entry / exit.
  std::vector<int> entries(n_levels, entry_id), exits(n_levels, exit_id);
  auto make_entry = [&](size_t level) {
    auto e = std::make_unique<ir::MapEntry>();
    e->map = scope_of(level);
    // One-parameter maps are labelled after their parameter; the innermost map of a partial
    // expansion keeps the label (DaCe's names).
    e->label = groups[level].size() == 1 ? label + "_" + original.params[groups[level][0]] : label;
    entries[level] = state.add_node(std::move(e));
  };
  make_entry(n_levels - 1);
  for (size_t level = 1; level + 1 < n_levels; ++level) make_entry(level);
  for (size_t level = n_levels - 1; level >= 1; --level) {
    auto x = std::make_unique<ir::MapExit>();
    x->label = state.node(entries[level])->label;
    x->entry = entries[level];
    exits[level] = state.add_node(std::move(x));
  }
  entry->map = scope_of(0);

  // The body hangs below the innermost entry and above the innermost exit.
  const int innermost = entries.back(), innermost_exit = exits.back();
  std::map<std::string, std::vector<int>> body_in, body_out;  // by connector suffix
  for (int e : state.out_edges(entry_id)) {
    ir::DataflowEdge* edge = state.edge(e);
    if (!edge->src_conn.empty()) state.node(innermost)->out_connectors.emplace(edge->src_conn, ir::DType{});
    const std::string x = connector_suffix(edge->src_conn, "OUT_");
    if (!x.empty()) body_in[x].push_back(e);
    state.set_edge_ends(e, innermost, edge->dst);
  }
  std::vector<int> empty_out;
  for (int e : state.in_edges(exit_id)) {
    ir::DataflowEdge* edge = state.edge(e);
    const std::string x = connector_suffix(edge->dst_conn, "IN_");
    if (!x.empty()) body_out[x].push_back(e);
    else empty_out.push_back(e);
    state.set_edge_ends(e, edge->src, innermost_exit);
    if (!edge->dst_conn.empty()) state.node(innermost_exit)->in_connectors.emplace(edge->dst_conn, ir::DType{});
  }

  // Parameters and ranges of the levels from `level` inwards: what an edge into that level
  // is propagated over.
  auto inside = [&](size_t level, std::vector<std::string>& params, sym::Subset& range) {
    for (size_t l = level; l < n_levels; ++l)
      for (size_t d : groups[l]) {
        params.push_back(original.params[d]);
        range.dims.push_back(original.range.dims[d]);
      }
  };
  // Entry chains: one per IN_x connector, or empty ordering edges when there is none.
  std::vector<std::string> inputs;
  for (int e : state.in_edges(entry_id)) {
    const std::string x = connector_suffix(state.edge(e)->dst_conn, "IN_");
    if (!x.empty()) inputs.push_back(x);
  }
  if (inputs.empty())
    for (size_t level = 1; level < n_levels; ++level) state.add_edge({entries[level - 1], entries[level], "", "", {}});
  for (const std::string& x : inputs) {
    ir::Memlet outside;
    for (int e : state.in_edges(entry_id))
      if (state.edge(e)->dst_conn == "IN_" + x) outside = state.edge(e)->memlet;
    for (size_t level = 1; level < n_levels; ++level) {
      std::vector<std::string> params;
      sym::Subset range;
      inside(level, params, range);
      ir::Memlet m = propagate_edges(site.sdfg, state, body_in[x], params, range, outside);
      add_pair(*state.node(entries[level]), x);
      state.add_edge({entries[level - 1], entries[level], "OUT_" + x, "IN_" + x, std::move(m)});
    }
  }
  // Exit chains: one per IN_x connector of the exit, one of empty edges for the rest.
  for (const auto& [x, edges] : body_out) {
    ir::Memlet outside;
    for (int e : state.out_edges(exit_id))
      if (state.edge(e)->src_conn == "OUT_" + x) outside = state.edge(e)->memlet;
    if (outside.is_empty()) outside = state.edge(edges[0])->memlet;
    for (size_t level = n_levels - 1; level >= 1; --level) {
      std::vector<std::string> params;
      sym::Subset range;
      inside(level, params, range);
      ir::Memlet m = propagate_edges(site.sdfg, state, edges, params, range, outside);
      add_pair(*state.node(exits[level]), x);
      state.add_edge({exits[level], exits[level - 1], "OUT_" + x, "IN_" + x, std::move(m)});
    }
  }
  if (!empty_out.empty())
    for (size_t level = n_levels - 1; level >= 1; --level) state.add_edge({exits[level], exits[level - 1], "", "", {}});
  return Status::success();
}

}  // namespace dace::transform
