// Memlet propagation per map scope (issue 10 item 1): for each data path through a map's
// entry or exit, the edges inside that continue it (`MapMemlets`), and the outer memlet
// propagated from them over the map's range (`propagate_path`: map_utils.h's propagate_edges,
// the hull of the inner subsets, or the outer memlet itself when it cannot be told). Cached by
// the AnalysisManager lazily: a map's paths on the first request for that map (they depend on
// the state's nodes and memlets), a path's propagated memlet on the first request for that
// path (it depends on the SDFG's descriptors too: shapes bound the hull).
#pragma once
#include <optional>
#include <vector>

#include "ir/memlet.h"
#include "ir/sdfg.h"
#include "ir/state.h"
#include "transform/scope_tree.h"

namespace dace::transform {

// One outer edge of a map entry (into `IN_x`) or exit (out of `OUT_x`).
struct PathMemlets {
  int outer_edge = -1;
  // False when the outer edge's connector is not `IN_x` / `OUT_x` (a dynamic range input, an
  // unnamed connector): then `inner_edges` is empty and the propagated memlet is the outer one.
  bool through_connector = false;
  std::vector<int> inner_edges;  // out of `OUT_x` of the entry / into `IN_x` of the exit, in the state's order
};

struct MapMemlets {
  int entry = -1, exit = -1;
  std::vector<PathMemlets> inputs;   // the entry's in-edges, in the state's order
  std::vector<PathMemlets> outputs;  // the exit's out-edges, in the state's order

  // The paths of the map scope of `entry`; nothing for a node that is not a map entry with an exit.
  static std::optional<MapMemlets> compute(const ir::State& state, const ScopeTree& scopes, int entry);
  // The path of outer edge `e` (of the entry or of the exit), or null.
  const PathMemlets* of_outer_edge(int e) const;
};

// The outer memlet of `path` (a path of `map`) propagated from its inner edges over the map's
// range, with the descriptors of `sdfg`.
ir::Memlet propagate_path(const ir::SDFG& sdfg, const ir::State& state, const MapMemlets& map, const PathMemlets& path);

}  // namespace dace::transform
