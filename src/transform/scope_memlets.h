// Memlet propagation per map scope (issue 10 item 1): for each data path through a map's
// entry or exit, the edges inside that continue it and the outer memlet propagated from them
// over the map's range (map_utils.h's propagate_edges: the hull of the inner subsets, or the
// outer memlet itself when it cannot be told). Cached per state by the AnalysisManager;
// computed from the state's nodes and memlets and the SDFG's descriptors (shapes bound the
// hull), so dropped when either changes.
#pragma once
#include <map>
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
  // unnamed connector): then `inner_edges` is empty and `propagated` is the outer memlet.
  bool through_connector = false;
  std::vector<int> inner_edges;  // out of `OUT_x` of the entry / into `IN_x` of the exit, in the state's order
  ir::Memlet propagated;
};

struct MapMemlets {
  std::vector<PathMemlets> inputs;   // the entry's in-edges, in the state's order
  std::vector<PathMemlets> outputs;  // the exit's out-edges, in the state's order
  // The path of outer edge `e` (of the entry or of the exit), or null.
  const PathMemlets* of_outer_edge(int e) const;
};

struct ScopeMemlets {
  std::map<int, MapMemlets> by_entry;  // every map entry with an exit

  static ScopeMemlets compute(const ir::SDFG& sdfg, const ir::State& state, const ScopeTree& scopes);
  // The paths of the map scope of `entry`, or null for a node that is not such an entry.
  const MapMemlets* of(int entry) const;
};

}  // namespace dace::transform
