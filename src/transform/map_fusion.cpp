// MapFusion: pattern and legality. The checks follow DaCe's MapFusionVertical
// (can_topologically_be_fused, has_inner_read_write_dependency, has_read_write_dependency,
// partition_first_outputs), with set questions answered by ISL (analysis/sets.h). Where
// DaCe handles a rare shape that needs more machinery (views between the maps, nested SDFGs
// whose strides would change, per-iteration sizes that depend on a map parameter), we refuse instead.
#include "transform/map_fusion.h"

#include <algorithm>
#include <set>

#include "analysis/sets.h"
#include "transform/map_fusion_util.h"
#include "transform/map_utils.h"
#include "transform/reduce_to_outer_map.h"
#include "transform/symbol_use.h"

namespace dace::transform {
namespace {

using map_fusion::subset_of;

const ir::AccessNode* as_access(const ir::Node* n) {
  return n && n->kind == ir::NodeKind::Access ? static_cast<const ir::AccessNode*>(n) : nullptr;
}

using map_fusion::node_name;

std::string map_text(const ir::MapScope& m) {
  std::string s = "[";
  for (size_t i = 0; i < m.params.size(); ++i) {
    s += (i ? ", " : "") + m.params[i] + "=";
    if (i < m.range.dims.size()) s += sym::to_string(sym::Subset{{m.range.dims[i]}});
  }
  return s + "]";
}

// Out-edges of `entry` continuing the in-edge connector `in_conn` (IN_x -> OUT_x).
std::vector<int> continuing_out(const ir::State& state, int entry, const std::string& in_conn) {
  std::vector<int> out;
  const std::string x = connector_suffix(in_conn, "IN_");
  if (x.empty()) return out;
  for (int e : state.out_edges(entry))
    if (state.edge(e)->src_conn == "OUT_" + x) out.push_back(e);
  return out;
}
// In-edges of `exit` feeding the out-edge connector `out_conn` (IN_x -> OUT_x).
std::vector<int> feeding_in(const ir::State& state, int exit, const std::string& out_conn) {
  std::vector<int> out;
  const std::string x = connector_suffix(out_conn, "OUT_");
  if (x.empty()) return out;
  for (int e : state.in_edges(exit))
    if (state.edge(e)->dst_conn == "IN_" + x) out.push_back(e);
  return out;
}

// The nodes that finally write (producer side, walking up through nested map exits) or read
// (consumer side, walking down through nested map entries) along a memlet tree. Tasklets and
// access nodes see the new per-iteration container through their memlets alone; a nested
// SDFG or library node would also need its inner descriptor re-strided, which we do not do,
// except for a nested SDFG whose connector holds one element (a Scalar or an array of
// extent 1 everywhere) when the per-iteration container is one element too: strides of
// a single element never matter.
bool single_element_connector(const ir::NestedSDFGNode& n, const std::string& conn) {
  if (!n.sdfg) return false;
  auto it = n.sdfg->arrays.find(conn);
  if (it == n.sdfg->arrays.end()) return false;
  if (it->second.kind == ir::DataKind::Scalar) return true;
  if (it->second.kind != ir::DataKind::Array) return false;
  for (sym::Expr x : it->second.shape)
    if (sym::as_integer(x) != 1) return false;
  return true;
}

bool tree_leaves_ok(const ir::State& state, int edge, bool producer, bool one_element, std::string* bad) {
  const ir::DataflowEdge& e = *state.edge(edge);
  const int n = producer ? e.src : e.dst;
  const ir::Node* node = state.node(n);
  if (producer && node->kind == ir::NodeKind::MapExit) {
    for (int in : feeding_in(state, n, e.src_conn))
      if (!tree_leaves_ok(state, in, producer, one_element, bad)) return false;
    return true;
  }
  if (!producer && node->kind == ir::NodeKind::MapEntry) {
    for (int out : continuing_out(state, n, e.dst_conn))
      if (!tree_leaves_ok(state, out, producer, one_element, bad)) return false;
    return true;
  }
  if (node->kind == ir::NodeKind::Tasklet || node->kind == ir::NodeKind::Access) return true;
  // A Reduce has no inner descriptor: its lowering reads the container's shape and strides
  // and the memlet's subset, which the fusion rewrites like a tasklet's. Writing, it must set
  // its identity: without one it accumulates into the old value, and the per-iteration
  // container is fresh (uninitialised) after the fusion.
  if (is_reduce_node(*node) && (!producer || reduce_has_identity(static_cast<const ir::LibraryNode&>(*node))))
    return true;
  if (one_element && node->kind == ir::NodeKind::NestedSDFG &&
      single_element_connector(static_cast<const ir::NestedSDFGNode&>(*node), producer ? e.src_conn : e.dst_conn))
    return true;
  *bad = node_name(state, n);
  return false;
}

// Names bound by scopes at `entry`: its parameters and dynamic range inputs (connectors other
// than IN_x), and those of every enclosing scope.
std::set<std::string> scope_bound_names(const ir::State& state, const ScopeTree& scopes, int entry) {
  std::set<std::string> names;
  for (int n = entry; n >= 0; n = scopes.parent[static_cast<size_t>(n)]) {
    const ir::Node* node = state.node(n);
    if (const ir::MapEntry* m = as_map_entry(node)) names.insert(m->map.params.begin(), m->map.params.end());
    if (node->kind == ir::NodeKind::ConsumeEntry) {
      const auto& c = static_cast<const ir::ConsumeEntry&>(*node).consume;
      names.insert(c.pe_index);
    }
    for (const auto& [conn, type] : node->in_connectors)
      if (!conn.starts_with("IN_")) names.insert(conn);
  }
  return names;
}

}  // namespace

MapFusion::MapFusion() { props_.bind_bool("require_exclusive_intermediates", &require_exclusive_intermediates_); }

void MapFusion::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  // Paths map exit -> access node -> map entry, ascending by exit, then access node, then entry.
  for (int exit : state.node_ids()) {
    if (state.node(exit)->kind != ir::NodeKind::MapExit) continue;
    std::set<int> arrays;
    for (int e : state.out_edges(exit))
      if (as_access(state.node(state.edge(e)->dst))) arrays.insert(state.edge(e)->dst);
    for (int a : arrays) {
      std::set<int> entries;
      for (int e : state.out_edges(a))
        if (state.node(state.edge(e)->dst)->kind == ir::NodeKind::MapEntry) entries.insert(state.edge(e)->dst);
      for (int m : entries) out.push_back({exit, a, m});
    }
  }
}

bool MapFusion::can_apply(const Site& site, const std::vector<int>& nodes) {
  Plan plan;
  return analyze(site, nodes, plan);
}

bool MapFusion::analyze(const Site& site, const std::vector<int>& nodes, Plan& plan) {
  const ir::State& state = site.state;
  const ir::Node* exit = state.node(nodes[0]);
  const ir::Node* array = state.node(nodes[1]);
  const ir::Node* entry = state.node(nodes[2]);
  if (!exit || exit->kind != ir::NodeKind::MapExit || !as_access(array) || !entry ||
      entry->kind != ir::NodeKind::MapEntry)
    return refuse("the pattern is map exit -> access node -> map entry");
  bool linked_in = false, linked_out = false;
  for (int e : state.out_edges(nodes[0])) linked_in |= state.edge(e)->dst == nodes[1];
  for (int e : state.out_edges(nodes[1])) linked_out |= state.edge(e)->dst == nodes[2];
  if (!linked_in || !linked_out) return refuse("the three nodes do not form a path exit -> access node -> entry");

  plan.first_exit = nodes[0];
  plan.second_entry = nodes[2];
  plan.first_entry = site.scopes.partner[static_cast<size_t>(nodes[0])];
  plan.second_exit = site.scopes.exit_of(nodes[2]);
  if (plan.first_entry < 0 || plan.second_exit < 0) return refuse("a map scope is incomplete");
  if (plan.first_entry == plan.second_entry) return refuse("the pattern closes a cycle through one map");
  const auto& first = static_cast<const ir::MapEntry*>(state.node(plan.first_entry))->map;
  const auto& second = static_cast<const ir::MapEntry*>(entry)->map;
  if (first.schedule != second.schedule) return refuse("the maps have different schedules");
  if (site.scopes.parent[static_cast<size_t>(plan.first_entry)] != site.scopes.parent[static_cast<size_t>(plan.second_entry)])
    return refuse("the maps are in different scopes");
  if (has_dynamic_inputs(state, plan.second_entry)) return refuse("the second map has dynamic range inputs");
  return check_params(site, plan) && check_bodies(site, plan) && check_read_write(site, plan) && partition(site, plan);
}

bool MapFusion::check_params(const Site& site, Plan& plan) {
  const ir::State& state = site.state;
  const auto& first = static_cast<const ir::MapEntry*>(state.node(plan.first_entry))->map;
  const auto& second = static_cast<const ir::MapEntry*>(state.node(plan.second_entry))->map;
  auto remap = map_fusion::parameter_remapping(first, second);
  if (!remap) return refuse("the map ranges differ: " + map_text(first) + " vs " + map_text(second));
  plan.rename = std::move(*remap);

  const std::string problem =
      map_fusion::renaming_problem(state, site.scopes, first, plan.second_entry, plan.second_exit, plan.rename);
  if (!problem.empty()) return refuse(problem);
  return true;
}

bool MapFusion::check_bodies(const Site& site, const Plan& plan) {
  // Containers accessed inside both bodies would be shared between the two halves of one
  // iteration, and non-transient ones inside a body could alias across iterations: DaCe
  // refuses both without further analysis, so do we.
  const ir::State& state = site.state;
  std::set<std::string> seen[2];
  const int entries[2] = {plan.first_entry, plan.second_entry};
  for (int k = 0; k < 2; ++k) {
    for (int n : site.scopes.scope_nodes(entries[k])) {
      const ir::AccessNode* a = as_access(state.node(n));
      if (!a) continue;
      auto it = site.sdfg.arrays.find(a->data);
      if (it == site.sdfg.arrays.end()) return refuse("unknown container \"" + a->data + "\"");
      if (map_fusion::is_view(it->second)) continue;
      if (!it->second.transient) return refuse("a map body accesses non-transient \"" + a->data + "\" directly");
      seen[k].insert(a->data);
    }
  }
  for (const std::string& d : seen[0])
    if (seen[1].count(d)) return refuse("both map bodies access \"" + d + "\"");
  return true;
}

bool MapFusion::partition(const Site& site, Plan& plan) {
  const ir::State& state = site.state;
  const auto& first = static_cast<const ir::MapEntry*>(state.node(plan.first_entry))->map;
  const sym::Assumptions assume = map_fusion::any_iteration(first.params);
  const std::map<std::string, sym::Expr> rename = map_fusion::as_symbols(plan.rename);
  std::set<int> seen;
  for (int oe : state.out_edges(plan.first_exit)) {
    const ir::DataflowEdge& out = *state.edge(oe);
    const int inter = out.dst;
    if (!seen.insert(inter).second)
      return refuse("the first map writes " + node_name(state, inter) + " through more than one edge");
    if (!map_fusion::reachable(state, inter, plan.second_entry)) continue;  // pure output
    for (int ie : state.in_edges(inter)) {
      const int src = state.edge(ie)->src;
      if (ie != oe && (src == plan.first_exit || map_fusion::reachable(state, plan.first_exit, src)))
        return refuse(node_name(state, inter) + " is also written downstream of the first map");
    }
    if (out.memlet.is_empty()) return refuse("an empty memlet leads from the first map to the second");
    const ir::AccessNode* a = as_access(state.node(inter));
    if (!a) return refuse(node_name(state, inter) + " between the maps is not an access node");
    const std::string& data = a->data;
    auto desc = site.sdfg.arrays.find(data);
    if (desc == site.sdfg.arrays.end()) return refuse("unknown container \"" + data + "\"");
    if (map_fusion::is_view(desc->second) || desc->second.kind == ir::DataKind::Stream)
      return refuse("intermediate \"" + data + "\" is a view or a stream");

    const std::vector<int> producers = feeding_in(state, plan.first_exit, out.src_conn);
    if (producers.size() != 1) return refuse("\"" + data + "\" is written by " + std::to_string(producers.size()) + " edges inside the first map");
    const ir::Memlet& pm = state.edge(producers[0])->memlet;
    if (pm.is_empty() || pm.dynamic) return refuse("the first map writes \"" + data + "\" dynamically");
    if (!pm.wcr.empty()) return refuse("the first map writes \"" + data + "\" with a write-conflict resolution");
    const sym::Subset* produced = subset_of(pm, data);
    if (!produced) return refuse("cannot tell which part of \"" + data + "\" the first map writes");
    for (const sym::Range& r : produced->dims)
      if (r.start != r.end && r.step && sym::as_integer(sym::simplify(r.step)) != 1)
        return refuse("the first map writes \"" + data + "\" with a stride, [" + sym::to_string(*produced) + "]");
    // The per-iteration container takes the block's shape: a constant, or symbols of the
    // whole SDFG (softmax's row of SM elements). Never a name bound by a scope (a parameter
    // of this map or an enclosing one, a dynamic range input): it would become a free symbol
    // of the SDFG in the new container's shape.
    const std::set<std::string> bound = scope_bound_names(state, site.scopes, plan.first_entry);
    bool one_element = true;
    for (sym::Expr s : sym::size(*produced)) {
      const sym::Expr extent = sym::simplify(s);
      for (const std::string& used : sym::free_symbols(extent))
        if (bound.count(used) || !site.sdfg.symbols.count(used))
          return refuse("the size of the part of \"" + data + "\" one iteration writes, [" +
                        sym::to_string(*produced) + "], depends on \"" + used +
                        "\", which is not a symbol of the whole SDFG");
      one_element = one_element && sym::as_integer(extent) == std::optional<int64_t>(1);
    }
    std::string bad;
    if (!tree_leaves_ok(state, producers[0], true, one_element, &bad))
      return refuse("\"" + data + "\" is written by " + bad + ", whose inner container would need new strides");

    for (int ce : state.out_edges(inter)) {
      const ir::DataflowEdge& c = *state.edge(ce);
      if (c.dst != plan.second_entry) {
        if (map_fusion::reachable(state, c.dst, plan.second_entry))
          return refuse("\"" + data + "\" reaches the second map through " + node_name(state, c.dst));
        continue;
      }
      if (!c.dst_conn.starts_with("IN_")) return refuse("\"" + data + "\" defines a dynamic range of the second map");
      for (int ie : continuing_out(state, plan.second_entry, c.dst_conn)) {
        const sym::Subset* read = subset_of(state.edge(ie)->memlet, data);
        if (!read) return refuse("cannot tell which part of \"" + data + "\" the second map reads");
        const sym::Subset renamed = map_fusion::substitute(*read, rename);
        if (!(*produced == renamed) && analysis::subset_covers(*produced, renamed, assume) != std::optional<bool>(true))
          return refuse("an iteration of the second map reads " + data + "[" + sym::to_string(renamed) +
                        "], which the same iteration of the first map does not write (it writes " + data + "[" +
                        sym::to_string(*produced) + "])");
        if (!tree_leaves_ok(state, ie, false, one_element, &bad))
          return refuse("\"" + data + "\" is read by " + bad + ", whose inner container would need new strides");
      }
    }

    std::set<int> srcs, dsts;
    for (int e : state.in_edges(inter)) srcs.insert(state.edge(e)->src);
    for (int e : state.out_edges(inter)) dsts.insert(state.edge(e)->dst);
    const bool shared = !desc->second.transient || srcs.size() > 1 || dsts.size() > 1 ||
                        map_fusion::used_elsewhere(site.sdfg, state, inter, data);
    if (!shared) {
      plan.exclusive.push_back(oe);
      continue;
    }
    if (require_exclusive_intermediates_)
      return refuse("intermediate \"" + data + "\" would be kept (used elsewhere), and require_exclusive_intermediates is set");
    // DaCe's strict dataflow: a kept intermediate is written again after the fused map, so a
    // later access to the same container in this state would see the order change.
    if (map_fusion::accessed_downstream(state, inter, data))
      return refuse("\"" + data + "\" is kept and accessed again downstream in this state");
    if (pm.data != data) return refuse("the first map writes kept \"" + data + "\" through a copy");
    plan.shared.push_back(oe);
  }
  if (plan.exclusive.empty() && plan.shared.empty()) return refuse("no data flows from the first map to the second");
  return true;
}

}  // namespace dace::transform
