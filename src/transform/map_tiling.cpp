#include "transform/map_tiling.h"

#include <map>

#include "transform/map_fusion_util.h"
#include "transform/map_utils.h"
#include "transform/strip_mining.h"
#include "transform/symbol_use.h"

namespace dace::transform {
namespace {

// Entry `d` of a per-dimension list, the last one repeating (DaCe's rule).
const std::string& per_dim(const std::vector<std::string>& list, size_t d) {
  return list[std::min(d, list.size() - 1)];
}

bool provably_equal(sym::Expr a, sym::Expr b) {
  return a == b || sym::as_integer(sym::simplify(sym::sub(a, b))) == 0;
}

}  // namespace

MapTiling::MapTiling() {
  props_.bind_string("prefix", &prefix_);
  props_.bind_string_list("tile_sizes", &tile_sizes_);
  props_.bind_string_list("strides", &strides_);
  props_.bind_optional_string_list("tile_offset", &tile_offset_);
  props_.bind_bool("divides_evenly", &divides_evenly_);
  props_.bind_bool("tile_trivial", &tile_trivial_);
  props_.bind_bool("skew", &skew_);
}

void MapTiling::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  map_entry_matches(state, out);
}

bool MapTiling::plan(const Site& site, int entry_id, std::vector<Dim>& dims) {
  const ir::MapEntry* entry = as_map_entry(site.state.node(entry_id));
  if (!entry) return refuse("node " + std::to_string(entry_id) + " is not a map entry");
  const std::string name = "map \"" + entry->label + "\" (node " + std::to_string(entry_id) + ")";
  const ir::MapScope& map = entry->map;
  if (map.range.dims.size() != map.params.size()) return refuse(name + " has as many ranges as parameters");
  if (site.scopes.exit_of(entry_id) < 0) return refuse(name + " has no exit");
  if (has_dynamic_inputs(site.state, entry_id)) return refuse(name + " has dynamic range inputs");
  if (tile_sizes_.empty()) return refuse("tile_sizes is empty");
  const std::vector<std::string>& strides = strides_.size() == tile_sizes_.size() ? strides_ : tile_sizes_;
  std::set<std::string> taken = names_in_use(site.sdfg, site.state, site.scopes, entry_id);
  dims.assign(map.params.size(), Dim{});
  for (size_t d = 0; d < map.params.size(); ++d) {
    const std::string& p = map.params[d];
    Result<sym::Expr> tile = sym::parse(per_dim(tile_sizes_, d));
    Result<sym::Expr> stride = sym::parse(per_dim(strides, d));
    if (!tile.ok() || !stride.ok()) return refuse("tile size or stride of dimension " + p + " does not parse");
    if (sym::prove(sym::ge(*tile, sym::integer(1))) != true)
      return refuse("tile size " + sym::to_string(*tile) + " of dimension " + p + " is not positive");
    if (!provably_equal(*tile, *stride))
      return refuse("stride " + sym::to_string(*stride) + " of dimension " + p + " differs from its tile size " +
                    sym::to_string(*tile) + " (overlapping tiles are not supported)");
    if (tile_offset_ && !tile_offset_->empty()) {
      Result<sym::Expr> offset = sym::parse(per_dim(*tile_offset_, d));
      if (!offset.ok() || sym::as_integer(*offset) != 0)
        return refuse("tile_offset of dimension " + p + " is not 0 (only ceil-range tiling offsets tiles)");
    }
    const sym::Range& r = map.range.dims[d];
    const std::vector<sym::Expr> extent = sym::size(sym::Subset{{r}});
    Dim& out = dims[d];
    out.tile = *tile;
    if (!tile_trivial_ && provably_equal(*tile, extent[0])) continue;  // one tile: nothing to do
    const std::optional<int64_t> step = sym::as_integer(r.step);
    if (!step || *step < 1) return refuse("dimension " + p + " has step " + sym::to_string(r.step) + ", not a positive constant");
    if (!tile_trivial_ && sym::as_integer(*tile) == 1) {
      if (*step != 1) return refuse("dimension " + p + " has step " + std::to_string(*step) + " and tile size 1");
      out.action = Action::MoveOut;
      continue;
    }
    if (*step != 1) {
      const std::optional<int64_t> t = sym::as_integer(*tile);
      if (!t || *t % *step != 0)
        return refuse("tile size " + sym::to_string(*tile) + " of dimension " + p + " is not a multiple of its step " +
                      std::to_string(*step));
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
    if (prefix_.empty()) return refuse("the prefix is empty: the tile parameter would shadow \"" + p + "\"");
    // DaCe's naming: prefix_i, else prefix1_i, prefix2_i, ...
    std::string candidate = prefix_ + "_" + p;
    for (int k = 1; taken.count(candidate); ++k) candidate = prefix_ + std::to_string(k) + "_" + p;
    taken.insert(candidate);
    out.action = Action::Tile;
    out.tile_param = candidate;
  }
  size_t moved = 0, tiled = 0;
  for (const Dim& d : dims) {
    moved += d.action == Action::MoveOut;
    tiled += d.action == Action::Tile;
  }
  if (moved + tiled == 0) return refuse("every tile of " + name + " spans its whole dimension: nothing to tile");
  if (moved == dims.size()) return refuse("every dimension of " + name + " has tile size 1: no inner map would be left");
  return true;
}

bool MapTiling::can_apply(const Site& site, const std::vector<int>& nodes) {
  std::vector<Dim> dims;
  return plan(site, nodes[0], dims);
}

Status MapTiling::apply_at(const Site& site, const std::vector<int>& nodes) {
  ir::State& state = site.state;
  const int entry_id = nodes[0], exit_id = site.scopes.exit_of(entry_id);
  std::vector<Dim> dims;
  if (!plan(site, entry_id, dims)) return make_error(Code::InvalidArgument, "MapTiling: " + why_not_);
  auto* entry = static_cast<ir::MapEntry*>(state.node(entry_id));
  const ir::MapScope original = entry->map;

  // The tile map: one parameter per tiled or moved dimension, in dimension order.
  ir::MapScope tiles;
  tiles.schedule = original.schedule;
  ir::MapScope inner = original;
  inner.params.clear();
  inner.range.dims.clear();
  std::map<std::string, sym::Expr> skew_by;
  for (size_t d = 0; d < dims.size(); ++d) {
    const std::string& p = original.params[d];
    const sym::Range& r = original.range.dims[d];
    const sym::Expr one = sym::integer(1);
    switch (dims[d].action) {
      case Action::Keep:
        inner.params.push_back(p);
        inner.range.dims.push_back(r);
        break;
      case Action::MoveOut:
        tiles.params.push_back(p);
        tiles.range.dims.push_back({r.start, r.end, one, one});
        break;
      case Action::Tile: {
        const sym::Expr t = sym::symbol(dims[d].tile_param);
        tiles.params.push_back(dims[d].tile_param);
        tiles.range.dims.push_back({r.start, r.end, dims[d].tile, one});
        const sym::Expr last = sym::simplify(sym::sub(sym::add(t, dims[d].tile), one));
        sym::Range in{t, divides_evenly_ ? last : sym::min(last, r.end), r.step, one};
        if (skew_) {
          in = {sym::integer(0), sym::simplify(sym::sub(in.end, t)), r.step, one};
          skew_by[p] = sym::add(sym::symbol(p), t);
        }
        inner.params.push_back(p);
        inner.range.dims.push_back(in);
        break;
      }
    }
  }
  entry->map = inner;
  if (!skew_by.empty()) map_fusion::rename_scope(state, site.scopes, entry_id, exit_id, skew_by);

  // New nodes in DaCe's order (entry, then exit), so later history ids agree; the tile map
  // wraps the original one as StripMining's new map does.
  wrap_in_outer_map(site.sdfg, state, entry_id, exit_id, tiles, entry->label, inner);
  return Status::success();
}

}  // namespace dace::transform
