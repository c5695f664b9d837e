#include "transform/map_fusion_horizontal.h"

#include <set>

#include "transform/analysis_manager.h"
#include "transform/map_fusion_util.h"
#include "transform/map_utils.h"

namespace dace::transform {
namespace {

// The first container of `a` that `b` also holds, or empty.
std::string common(const std::set<std::string>& a, const std::set<std::string>& b) {
  for (const std::string& x : a)
    if (b.count(x)) return x;
  return {};
}

}  // namespace

MapFusionHorizontal::MapFusionHorizontal() {
  props_.bind_bool("only_toplevel_maps", &only_toplevel_maps_);
  props_.bind_bool("only_inner_maps", &only_inner_maps_);
  props_.bind_bool("only_if_common_ancestor", &only_if_common_ancestor_);
}

void MapFusionHorizontal::state_matches(const ir::State& state, const ScopeTree& scopes,
                                        std::vector<std::vector<int>>& out) {
  // Pairs of map entries in the same scope, ascending (maps in different scopes can never
  // fuse, so they are not offered).
  const std::vector<int> ids = state.node_ids();
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!as_map_entry(state.node(ids[i]))) continue;
    for (size_t j = i + 1; j < ids.size(); ++j)
      if (as_map_entry(state.node(ids[j])) &&
          scopes.parent[static_cast<size_t>(ids[i])] == scopes.parent[static_cast<size_t>(ids[j])])
        out.push_back({ids[i], ids[j]});
  }
}

bool MapFusionHorizontal::can_apply(const Site& site, const std::vector<int>& nodes) {
  const ir::State& state = site.state;
  const int a = nodes[0], b = nodes[1];
  const ir::MapEntry* first = as_map_entry(state.node(a));
  const ir::MapEntry* second = as_map_entry(state.node(b));
  if (!first || !second || a == b) return refuse("the pattern needs two map entries");
  const std::string na = map_fusion::node_name(state, a), nb = map_fusion::node_name(state, b);
  if (site.scopes.exit_of(a) < 0 || site.scopes.exit_of(b) < 0) return refuse("a map entry has no exit");
  const int parent = site.scopes.parent[static_cast<size_t>(a)];
  if (parent != site.scopes.parent[static_cast<size_t>(b)]) return refuse(na + " and " + nb + " are in different scopes");
  if (only_toplevel_maps_ && parent >= 0) return refuse("only_toplevel_maps: the maps are inside a scope");
  if (only_inner_maps_ && parent < 0) return refuse("only_inner_maps: the maps are at the top level");
  if (only_if_common_ancestor_) {
    std::set<int> sources;
    for (int e : state.in_edges(a)) sources.insert(state.edge(e)->src);
    bool shared = false;
    for (int e : state.in_edges(b)) shared |= sources.count(state.edge(e)->src) > 0;
    if (!shared) return refuse("only_if_common_ancestor: " + na + " and " + nb + " have no common direct ancestor");
  }
  if (first->map.schedule != second->map.schedule) return refuse("the maps have different schedules");
  if (has_dynamic_inputs(state, a) || has_dynamic_inputs(state, b)) return refuse("a map has dynamic range inputs");
  if (map_fusion::reachable(state, a, b) || map_fusion::reachable(state, b, a))
    return refuse("a path leads from one map to the other (" + na + ", " + nb + ")");

  // What each map reads and writes (memlets through its entry and exit, access nodes inside),
  // from the state's cached scope access sets: computed once per state for all pairs.
  const ScopeAccessSets& sets = site.am.scope_access_sets(state);
  const AccessSets &x = sets.of(a), &y = sets.of(b);
  for (const std::set<std::string>* s : {&x.read, &x.written, &y.read, &y.written})
    for (const std::string& data : *s) {
      auto it = site.sdfg.arrays.find(data);
      if (it == site.sdfg.arrays.end()) return refuse("unknown container \"" + data + "\"");
      if (map_fusion::is_view(it->second)) return refuse("a map accesses view or reference \"" + data + "\"");
    }
  std::string c;
  if (!(c = common(x.written, y.read)).empty()) return refuse(na + " writes \"" + c + "\", which " + nb + " reads");
  if (!(c = common(y.written, x.read)).empty()) return refuse(nb + " writes \"" + c + "\", which " + na + " reads");
  if (!(c = common(x.written, y.written)).empty()) return refuse("both maps write \"" + c + "\"");

  auto remap = map_fusion::parameter_remapping(first->map, second->map);
  if (!remap) return refuse("the ranges of " + na + " and " + nb + " differ");
  const std::string problem =
      map_fusion::renaming_problem(state, site.scopes, first->map, b, site.scopes.exit_of(b), *remap);
  if (!problem.empty()) return refuse(problem);
  return true;
}

Status MapFusionHorizontal::apply_at(const Site& site, const std::vector<int>& nodes) {
  ir::State& state = site.state;
  const int a = nodes[0], b = nodes[1];
  const int a_exit = site.scopes.exit_of(a), b_exit = site.scopes.exit_of(b);
  const auto& first = static_cast<const ir::MapEntry*>(state.node(a))->map;
  const auto& second = static_cast<const ir::MapEntry*>(state.node(b))->map;
  const auto remap = map_fusion::parameter_remapping(first, second);
  if (!remap) return make_error(Code::InvalidArgument, "MapFusionHorizontal: the ranges differ");
  if (!remap->empty()) map_fusion::rename_scope(state, site.scopes, b, b_exit, map_fusion::as_symbols(*remap));
  map_fusion::move_connections(state, b, a);
  map_fusion::move_connections(state, b_exit, a_exit);
  state.remove_node(b);
  state.remove_node(b_exit);
  return Status::success();
}

}  // namespace dace::transform
