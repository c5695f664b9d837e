// MapTiling (DaCe's name, properties and semantics, dace/transformation/dataflow/tiling.py
// with the strip-mining of strip_mining.py): every dimension `i = a:b` of a map is split
// into an outer tile loop `tile_i = a:b:T` and an inner `i = tile_i : min(tile_i + T - 1, b)`
// (the min() is dropped with `divides_evenly`); the tile loops of all dimensions form one new
// outer map (DaCe collapses them), the original map becomes the inner one. A dimension whose
// tile equals its extent is left alone, one with tile 1 moves to the outer map unchanged
// (both unless `tile_trivial`). `tile_sizes` and `strides` give one value per dimension, the
// last repeating. `skew` shifts each tiled inner range to start at 0 (`i = 0 : ... - tile_i`,
// uses of i becoming i + tile_i): StripMining's property in DaCe 1.0.2, whose MapTiling does
// not have it. Refused where DaCe would fail or compute something else: strides other than
// the tile size (overlapping tiles, NotImplementedError in DaCe), a non-zero tile_offset
// (ignored by DaCe's normal tiling), a tile that is not a multiple of a non-unit step (the
// tiles would skip iterations), dynamic range inputs, nothing to tile.
#pragma once
#include <optional>

#include "transform/transformation.h"

namespace dace::transform {

class MapTiling : public SingleStateTransformation {
 public:
  MapTiling();
  std::string_view name() const override { return "MapTiling"; }
  Modifies modifies() const override { return Modifies::Scopes | Modifies::Memlets; }

 protected:
  size_t pattern_size() const override { return 1; }  // map_entry
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;

 private:
  enum class Action { Keep, MoveOut, Tile };
  struct Dim {
    Action action = Action::Keep;
    sym::Expr tile = nullptr;
    std::string tile_param;  // Tile only
  };
  // What happens to each dimension, or false (with the reason recorded) when refused.
  bool plan(const Site& site, int entry, std::vector<Dim>& dims);

  std::string prefix_ = "tile";
  std::vector<std::string> tile_sizes_ = {"128", "128", "128"};
  std::vector<std::string> strides_;
  std::optional<std::vector<std::string>> tile_offset_;
  bool divides_evenly_ = false;
  bool tile_trivial_ = false;
  bool skew_ = false;
};

}  // namespace dace::transform
