#include "transform/strip_mining.h"

#include <map>

#include "transform/map_fusion_util.h"
#include "transform/map_utils.h"
#include "transform/symbol_use.h"

namespace dace::transform {
namespace {

bool provably_equal(sym::Expr a, sym::Expr b) {
  return a == b || sym::as_integer(sym::simplify(sym::sub(a, b))) == 0;
}

void add_pair(ir::Node& n, const std::string& x) {
  n.in_connectors.emplace("IN_" + x, ir::DType{});
  n.out_connectors.emplace("OUT_" + x, ir::DType{});
}

}  // namespace

std::pair<int, int> wrap_in_outer_map(const ir::SDFG& sdfg, ir::State& state, int entry_id, int exit_id,
                                      const ir::MapScope& outer, const std::string& label, const ir::MapScope& inner) {
  auto entry_node = std::make_unique<ir::MapEntry>();
  entry_node->label = label;
  entry_node->map = outer;
  const int new_entry = state.add_node(std::move(entry_node));
  auto exit_node = std::make_unique<ir::MapExit>();
  exit_node->label = label;
  exit_node->entry = new_entry;
  const int new_exit = state.add_node(std::move(exit_node));

  bool entry_data = false, exit_data = false;
  for (int e : state.in_edges(entry_id)) {
    ir::DataflowEdge* edge = state.edge(e);
    state.set_edge_ends(e, edge->src, new_entry);
    const std::string x = connector_suffix(edge->dst_conn, "IN_");
    if (x.empty()) continue;
    entry_data = true;
    add_pair(*state.node(new_entry), x);
    std::vector<int> inside;
    for (int b : state.out_edges(entry_id))
      if (state.edge(b)->src_conn == "OUT_" + x) inside.push_back(b);
    ir::Memlet m = propagate_edges(sdfg, state, inside, inner.params, inner.range, edge->memlet);
    state.add_edge({new_entry, entry_id, "OUT_" + x, "IN_" + x, std::move(m)});
  }
  if (!entry_data) state.add_edge({new_entry, entry_id, "", "", {}});
  for (int e : state.out_edges(exit_id)) {
    ir::DataflowEdge* edge = state.edge(e);
    state.set_edge_ends(e, new_exit, edge->dst);
    const std::string x = connector_suffix(edge->src_conn, "OUT_");
    if (x.empty()) continue;
    exit_data = true;
    add_pair(*state.node(new_exit), x);
    std::vector<int> inside;
    for (int b : state.in_edges(exit_id))
      if (state.edge(b)->dst_conn == "IN_" + x) inside.push_back(b);
    ir::Memlet m = propagate_edges(sdfg, state, inside, inner.params, inner.range, edge->memlet);
    state.add_edge({exit_id, new_exit, "OUT_" + x, "IN_" + x, std::move(m)});
  }
  if (!exit_data) state.add_edge({exit_id, new_exit, "", "", {}});
  return {new_entry, new_exit};
}

namespace strip_mining {

std::string new_parameter(const ir::SDFG& sdfg, const ir::State& state, const ScopeTree& scopes, int entry,
                          const std::string& prefix, const std::string& param) {
  const std::set<std::string> taken = names_in_use(sdfg, state, scopes, entry);
  std::string candidate = prefix + "_" + param;
  for (int k = 1; taken.count(candidate); ++k) candidate = prefix + std::to_string(k) + "_" + param;
  return candidate;
}

std::pair<sym::Range, sym::Range> normal_ranges(const sym::Range& r, const std::string& tile_param, sym::Expr T,
                                                bool divides_evenly) {
  const sym::Expr t = sym::symbol(tile_param), one = sym::integer(1);
  const sym::Expr last = sym::simplify(sym::sub(sym::add(t, T), one));
  return {sym::Range{r.start, r.end, T, one}, sym::Range{t, divides_evenly ? last : sym::min(last, r.end), r.step, one}};
}

std::pair<int, int> apply(const ir::SDFG& sdfg, ir::State& state, int entry_id, int exit_id, size_t dim,
                          const std::string& tile_param, const sym::Range& outer_range, const sym::Range& inner,
                          ir::ScheduleType outer_schedule, const std::string& label) {
  auto* entry = static_cast<ir::MapEntry*>(state.node(entry_id));
  ir::MapScope outer;
  outer.params = {tile_param};
  outer.range.dims = {outer_range};
  outer.schedule = outer_schedule;
  entry->map.range.dims[dim] = inner;
  entry->map.schedule = ir::ScheduleType::Sequential;
  return wrap_in_outer_map(sdfg, state, entry_id, exit_id, outer, label, entry->map);
}

}  // namespace strip_mining

StripMining::StripMining() {
  props_.bind_int("dim_idx", &dim_idx_);
  props_.bind_string("new_dim_prefix", &new_dim_prefix_);
  props_.bind_string("tile_size", &tile_size_);
  props_.bind_string("tile_stride", &tile_stride_);
  props_.bind_string("tile_offset", &tile_offset_);
  props_.bind_bool("divides_evenly", &divides_evenly_);
  props_.bind_bool("strided", &strided_);
  props_.bind_string("tiling_type", &tiling_type_);
  props_.bind_bool("skew", &skew_);
}

void StripMining::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  map_entry_matches(state, out);
}

bool StripMining::plan(const Site& site, int entry_id, Plan& out) {
  const ir::MapEntry* entry = as_map_entry(site.state.node(entry_id));
  if (!entry) return refuse("node " + std::to_string(entry_id) + " is not a map entry");
  const std::string name = "map \"" + entry->label + "\" (node " + std::to_string(entry_id) + ")";
  const ir::MapScope& map = entry->map;
  const int64_t rank = static_cast<int64_t>(map.params.size());
  if (map.range.dims.size() != map.params.size()) return refuse(name + " has not as many ranges as parameters");
  if (site.scopes.exit_of(entry_id) < 0) return refuse(name + " has no exit");
  if (has_dynamic_inputs(site.state, entry_id)) return refuse(name + " has dynamic range inputs");
  const int64_t d = dim_idx_ < 0 ? dim_idx_ + rank : dim_idx_;
  if (d < 0 || d >= rank) return refuse("dim_idx " + std::to_string(dim_idx_) + " is out of range for " + name);
  out.dim = static_cast<size_t>(d);
  const std::string& p = map.params[out.dim];
  const sym::Range& r = map.range.dims[out.dim];
  if (tiling_type_ != "Normal" && tiling_type_ != "CeilRange" && tiling_type_ != "NumberOfTiles")
    return refuse("unknown tiling_type '" + tiling_type_ + "' (Normal, CeilRange or NumberOfTiles)");
  Result<sym::Expr> tile = sym::parse(tile_size_);
  Result<sym::Expr> stride = sym::parse(tile_stride_);
  Result<sym::Expr> offset = sym::parse(tile_offset_);
  if (!tile.ok() || !stride.ok() || !offset.ok()) return refuse("tile_size, tile_stride or tile_offset does not parse");
  const sym::Expr T = *tile;
  if (sym::prove(sym::ge(T, sym::integer(1))) != true)
    return refuse("tile_size " + sym::to_string(T) + " is not provably positive");
  if (sym::as_integer(*stride) != 0 && !provably_equal(*stride, T))
    return refuse("tile_stride " + sym::to_string(*stride) + " differs from the tile size (overlapping or skipping tiles)");
  if (sym::as_integer(*offset) != 0) return refuse("a non-zero tile_offset is not supported");
  if (strided_) return refuse("strided tiles are not supported (the outer range would not cover dimension " + p + ")");
  if (new_dim_prefix_.empty()) return refuse("new_dim_prefix is empty: the new parameter would be '" + p + "' itself");
  const std::optional<int64_t> step = sym::as_integer(r.step);
  if (!step || *step < 1) return refuse("dimension " + p + " has step " + sym::to_string(r.step) + ", not a positive constant");
  if (tiling_type_ == "NumberOfTiles") {
    if (*step != 1) return refuse("NumberOfTiles on dimension " + p + " with step " + std::to_string(*step));
    if (sym::as_integer(sym::simplify(r.start)) != 0)
      return refuse("NumberOfTiles on dimension " + p + ", which does not start at 0 (DaCe's tiles would start at 0)");
  } else if (*step != 1) {
    const std::optional<int64_t> t = sym::as_integer(T);
    if (!t || *t % *step != 0)
      return refuse("tile size " + sym::to_string(T) + " is not a multiple of the step " + std::to_string(*step) + " of " + p);
  }
  if (skew_)
    for (int n : site.scopes.scope_nodes(entry_id)) {
      const ir::Node& node = *site.state.node(n);
      if (node_code_mentions(node, p))
        return refuse("skew: parameter \"" + p + "\" occurs in the code of " + map_fusion::node_name(site.state, n));
      if (node.kind != ir::NodeKind::Tasklet && node.kind != ir::NodeKind::Access &&
          node.kind != ir::NodeKind::MapEntry && node.kind != ir::NodeKind::MapExit)
        return refuse("skew: cannot offset parameter \"" + p + "\" inside " + map_fusion::node_name(site.state, n));
    }
  const std::string candidate = strip_mining::new_parameter(site.sdfg, site.state, site.scopes, entry_id, new_dim_prefix_, p);
  out.param = candidate;

  const sym::Expr t = sym::symbol(candidate);
  const sym::Expr one = sym::integer(1), zero = sym::integer(0);
  out.label = entry->label;
  if (tiling_type_ == "Normal") {
    std::tie(out.outer, out.inner) = strip_mining::normal_ranges(r, candidate, T, divides_evenly_);
  } else if (tiling_type_ == "CeilRange") {
    const sym::Expr count = sym::simplify(sym::sub(sym::add(r.end, one), r.start));
    out.outer = {zero, sym::sub(sym::ceildiv(count, T), one), one, one};
    if (sym::as_integer(T) == 1) out.outer.end = sym::simplify(sym::sub(r.end, r.start));
    const sym::Expr first = sym::simplify(sym::add(r.start, sym::mul(T, t)));
    const sym::Expr last = sym::simplify(sym::sub(sym::add(first, T), one));
    out.inner = {first, divides_evenly_ ? last : sym::sub(sym::min(sym::add(r.end, one), sym::add(first, T)), one), r.step, one};
    out.label = candidate + "_" + entry->label;
  } else {
    const sym::Expr n = sym::simplify(sym::add(r.end, one));
    out.outer = {zero, sym::sub(T, one), one, one};
    const sym::Expr first = sym::floordiv(sym::mul(t, n), T);
    const sym::Expr next = sym::floordiv(sym::mul(sym::add(t, one), n), T);
    out.inner = {first, sym::sub(divides_evenly_ ? next : sym::min(next, n), one), r.step, one};
  }
  return true;
}

bool StripMining::can_apply(const Site& site, const std::vector<int>& nodes) {
  Plan p;
  return plan(site, nodes[0], p);
}

Status StripMining::apply_at(const Site& site, const std::vector<int>& nodes) {
  ir::State& state = site.state;
  const int entry_id = nodes[0], exit_id = site.scopes.exit_of(entry_id);
  Plan p;
  if (!plan(site, entry_id, p)) return make_error(Code::InvalidArgument, "StripMining: " + why_not_);
  auto* entry = static_cast<ir::MapEntry*>(state.node(entry_id));
  const ir::ScheduleType schedule = entry->map.schedule;  // the outer map takes it
  const std::string& var = entry->map.params[p.dim];
  std::map<std::string, sym::Expr> skew_by;
  sym::Range inner = p.inner;
  if (skew_) {
    skew_by[var] = sym::add(sym::symbol(var), inner.start);
    inner = {sym::integer(0), sym::simplify(sym::sub(inner.end, inner.start)), inner.step, inner.tile};
    // The scope's uses of `var` shift by the start (no map range of the scope mentions `var`).
    map_fusion::rename_scope(state, site.scopes, entry_id, exit_id, skew_by);
  }
  strip_mining::apply(site.sdfg, state, entry_id, exit_id, p.dim, p.param, p.outer, inner, schedule, p.label);
  return Status::success();
}

}  // namespace dace::transform
