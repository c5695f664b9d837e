// StripMining (DaCe's name, properties and semantics, dace/transformation/dataflow/
// strip_mining.py): one dimension `i = a:b:s` of a map (`dim_idx`, Python-style: -1 is the
// last) is split: a new outer map iterates over the tiles, the original map, now inside it
// and Sequential (DaCe's choice; the outer map takes the original schedule), over one tile.
// tiling_type (DaCe's TilingType names):
//   Normal:        new `tile_i = a:b:T`, inner `i = tile_i : min(tile_i + T - 1, b) : s`
//   CeilRange:     new `tile_i = 0 : int_ceil(b + 1 - a, T) - 1` (label `tile_i_<label>`),
//                  inner `i = a + T*tile_i : min(b + 1, a + T*tile_i + T) - 1 : s`
//   NumberOfTiles: T is the number of tiles K; new `tile_i = 0 : K - 1`, inner
//                  `i = (tile_i*n)//K : min(((tile_i + 1)*n)//K, b + 1) - 1` (n = b + 1)
// `divides_evenly` drops the min (the caller promises it), `skew` shifts the inner range to
// start at 0 (uses of i become i + start). The new parameter is `new_dim_prefix_i`, else
// `new_dim_prefix1_i`, ... avoiding symbols, containers and enclosing parameters. Memlets
// between the two maps are re-propagated over the inner map.
// Refused where DaCe would raise or compute something else: a tile_stride other than 0 or
// the tile size (overlapping or skipping tiles), a non-zero tile_offset (DaCe's offset code
// path raises), `strided` (its outer range does not cover the dimension), a tile that is
// not a multiple of a non-unit step (Normal, CeilRange), NumberOfTiles on a dimension not
// starting at 0 or with a step, dynamic range inputs, an empty prefix (DaCe then drops the
// dimension when one element is left, else the new parameter shadows the old one), a
// dimension index out of range.
#pragma once
#include <utility>

#include "transform/transformation.h"

namespace dace::transform {

// Puts map scope `entry`..`exit` inside a new map `outer` labelled `label` (nodes added in
// DaCe's order, entry then exit): outside edges move to the new map, each IN_x / OUT_x
// continues into the old one with the memlet propagated over `inner` (the old map's
// scope after the change), an empty edge joins the two where no data does. Returns the new
// entry and exit. Shared by StripMining and MapTiling.
std::pair<int, int> wrap_in_outer_map(const ir::SDFG& sdfg, ir::State& state, int entry, int exit,
                                      const ir::MapScope& outer, const std::string& label, const ir::MapScope& inner);

namespace strip_mining {

// DaCe's name of the new outer parameter for `param` of the map at `entry`: prefix_param,
// else prefix1_param, prefix2_param, ... avoiding symbols, containers and enclosing parameters.
std::string new_parameter(const ir::SDFG& sdfg, const ir::State& state, const ScopeTree& scopes, int entry,
                          const std::string& prefix, const std::string& param);

// The Normal tiling of `r` in tiles of T: outer `tile = a:b:T`, inner
// `i = tile : min(tile + T - 1, b) : s` (the min dropped with divides_evenly).
std::pair<sym::Range, sym::Range> normal_ranges(const sym::Range& r, const std::string& tile_param, sym::Expr T,
                                                bool divides_evenly);

// Strip-mines dimension `dim` of the map at `entry` (exit `exit`): its range becomes `inner`,
// it turns Sequential, and a new map `tile_param = outer` (schedule `outer_schedule`,
// label `label`) wraps it. Returns the new entry and exit.
std::pair<int, int> apply(const ir::SDFG& sdfg, ir::State& state, int entry, int exit, size_t dim,
                          const std::string& tile_param, const sym::Range& outer, const sym::Range& inner,
                          ir::ScheduleType outer_schedule, const std::string& label);

}  // namespace strip_mining

class StripMining : public SingleStateTransformation {
 public:
  StripMining();
  std::string_view name() const override { return "StripMining"; }
  Modifies modifies() const override { return Modifies::Scopes | Modifies::Memlets; }

 protected:
  size_t pattern_size() const override { return 1; }  // map_entry
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;

 private:
  struct Plan {
    size_t dim = 0;
    std::string param;                 // the new outer parameter
    sym::Range outer, inner;           // its range, and the tiled dimension's new range
    std::string label;                 // of the new map
  };
  bool plan(const Site& site, int entry, Plan& out);

  int64_t dim_idx_ = -1;
  std::string new_dim_prefix_ = "tile";
  std::string tile_size_ = "64";
  std::string tile_stride_ = "0";
  std::string tile_offset_ = "0";
  bool divides_evenly_ = false;
  bool strided_ = false;
  std::string tiling_type_ = "Normal";
  bool skew_ = false;
};

}  // namespace dace::transform
