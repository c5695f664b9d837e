// Which containers a state, or a control-flow block, reads and writes (DaCe's AccessSets
// analysis, issue 10 item 1): cached per state by the AnalysisManager, next to the scope tree,
// and dropped when a pass reports access-node or memlet changes.
#pragma once
#include <map>
#include <set>
#include <string>

#include "ir/control_flow.h"
#include "ir/state.h"
#include "transform/scope_tree.h"

namespace dace::transform {

class AnalysisManager;

// A container is read where one of its access nodes has an out-edge with a non-empty memlet,
// and written where one has such an in-edge (DaCe counts any edge; empty memlets only order
// nodes and move no data). Views and streams are listed under their own names.
struct AccessSets {
  std::set<std::string> read, written;
  // Every container with an access node in the state, with edges or without: whether a
  // container is used there at all (LoopToMap's privatization, MoveLoopIntoMap's locals).
  std::set<std::string> present;

  static AccessSets compute(const ir::State& state);
  bool operator==(const AccessSets&) const = default;
};

// The access sets of each map or consume scope of a state, by entry node id: read are the
// containers of non-empty memlets into the entry and of access nodes inside (at any depth)
// with such an out-edge, written those of non-empty memlets out of the exit and of access
// nodes inside with such an in-edge; present the access nodes inside. Cached per state
// (MapFusionHorizontal compares the sets of two maps for every pair of maps it tries).
struct ScopeAccessSets {
  std::map<int, AccessSets> by_entry;

  static ScopeAccessSets compute(const ir::State& state, const ScopeTree& scopes);
  // The sets of the scope of `entry` (empty sets for a node that is not an entry).
  const AccessSets& of(int entry) const;
};

// The access sets of a control-flow block: the union of its states' (from `am`, so each
// state is scanned once until it changes), everything nested in its regions included but not
// nested SDFGs, plus, as reads, the containers of `sdfg` its interstate code names
// (conditions, assignments, loop statements, branch conditions). Computed from the cached
// state sets on each call.
AccessSets block_access_sets(const ir::SDFG& sdfg, const ir::ControlFlowBlock& block, AnalysisManager& am);

// Every identifier that the block's own code (loop statements, branch conditions) and the
// interstate code inside its regions mention (edge conditions and assignments, recursively):
// a superset of the containers and symbols control flow reads there. Nothing for a state.
void collect_code_names(const ir::ControlFlowBlock& block, std::set<std::string>& out);
// The same for the edges and blocks of a region (an SDFG: its whole control flow, not that of
// nested SDFGs).
void collect_region_code_names(const ir::ControlFlowRegion& region, std::set<std::string>& out);

}  // namespace dace::transform
