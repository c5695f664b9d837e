// Cached analyses with invalidation (DESIGN.md §5, LLVM's new pass manager): an analysis is
// computed on first request and kept until a pass or transformation reports that it modified
// something the analysis depends on. Keys are element addresses, used only for lookup, never
// for iteration order that could reach output.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>

#include "ir/state.h"
#include "transform/access_sets.h"
#include "transform/dependence_sets.h"
#include "transform/modifies.h"
#include "transform/scope_memlets.h"
#include "transform/scope_tree.h"
#include "transform/state_nesting.h"
#include "transform/symbol_ranges.h"

namespace dace::transform {

class AnalysisManager {
 public:
  // What the scope tree is computed from: the nodes of a state and its edges.
  static constexpr Modifies kScopeTreeDependsOn = Modifies::Nodes | Modifies::Memlets;

  // What the access sets are computed from: access nodes and the memlets at them.
  static constexpr Modifies kAccessSetsDependOn = Modifies::AccessNodes | Modifies::Memlets;

  // What the dependence sets are computed from: access nodes, their memlets and the scope
  // tree (which access nodes are at the top level).
  static constexpr Modifies kDependenceSetsDependOn = kScopeTreeDependsOn;

  // What a map's paths (the inner edges continuing each outer edge) are computed from.
  static constexpr Modifies kMapPathsDependOn = kScopeTreeDependsOn;

  // What a path's propagated memlet is computed from: its edges and the descriptors (shapes
  // bound the propagated subsets). Descriptors are the SDFG's, shared by all its states: a
  // state-local report of Descriptors drops every state's propagated memlets.
  static constexpr Modifies kScopeMemletsDependOn = kMapPathsDependOn | Modifies::Descriptors;

  // What the symbol ranges of an SDFG are computed from: its blocks and loop headers
  // (States), the assignments on interstate edges, the symbols' declarations and the shapes
  // of its containers. A change inside a nested SDFG, which has its own entry, is reported
  // as NestedSDFGs.
  static constexpr Modifies kSymbolRangesDependOn = Modifies::States | Modifies::InterstateEdges |
                                                    Modifies::Symbols | Modifies::Descriptors |
                                                    Modifies::NestedSDFGs;

  const ScopeTree& scope_tree(const ir::State& state);
  const AccessSets& access_sets(const ir::State& state);
  // Per map or consume scope of the state; computed from its scope tree and access nodes, so
  // dropped when either would be.
  const ScopeAccessSets& scope_access_sets(const ir::State& state);
  // The memlets at every access node of the state (dependence_sets.h): what LoopToMap's
  // dependence test reads from each state of a loop body.
  const DependenceSets& dependence_sets(const ir::State& state);
  // The data paths of the map scope of `entry` (scope_memlets.h), computed on the first
  // request for that map; null when `entry` is not a map entry with an exit.
  const MapMemlets* map_memlets(const ir::State& state, int entry);
  // The outer memlet of the path of `outer_edge` through the map of `entry`, propagated over
  // the map's range; `sdfg` owns the state (its descriptors). Computed on the first request
  // for that path and cached per (sdfg, state): another sdfg given with the same state gets its
  // own. Null when `outer_edge` is no path of that map.
  const ir::Memlet* propagated_memlet(const ir::SDFG& sdfg, const ir::State& state, int entry, int outer_edge);
  // The range of each symbol at each block of `sdfg` (symbol_ranges.h), and its loops'
  // headers as loop_bounds() reads them. A nested SDFG is asked for with its own SDFG.
  const SymbolRanges& symbol_ranges(const ir::SDFG& sdfg);

  // Drops every cached analysis that depends on `modified` (all states).
  void invalidate(Modifies modified);
  // Drops the analyses of one state that depend on `modified`; a pass that edited only this
  // state keeps every other state's analyses. States drops every state's; NestedSDFGs (a
  // nested SDFG added, removed or changed in this state) drops this state's and those of the
  // states nested in it, at any depth, which may have been freed since.
  void invalidate(const ir::State& state, Modifies modified);
  void clear() {
    scope_trees_.clear();
    access_sets_.clear();
    scope_access_sets_.clear();
    dependence_sets_.clear();
    map_memlets_.clear();
    propagated_memlets_.clear();
    nesting_.clear();
    symbol_ranges_.clear();
  }

  // Counters for tests and reports: how often an analysis was computed or served cached.
  int64_t computed() const { return computed_; }
  int64_t cached() const { return cached_; }

 private:
  // Called by every analysis computed for `state` (state_nesting.h).
  void note_computed(const ir::State& state) { nesting_.note(state); }
  void drop_state(const ir::State* state);  // every cached analysis of `state`

  std::unordered_map<const ir::State*, std::unique_ptr<ScopeTree>> scope_trees_;
  std::unordered_map<const ir::State*, std::unique_ptr<AccessSets>> access_sets_;
  std::unordered_map<const ir::State*, std::unique_ptr<ScopeAccessSets>> scope_access_sets_;
  std::unordered_map<const ir::State*, std::unique_ptr<DependenceSets>> dependence_sets_;
  // Per state, per map entry: the map's paths, or nothing when the node is not a map entry.
  std::unordered_map<const ir::State*, std::map<int, std::optional<MapMemlets>>> map_memlets_;
  // Per (sdfg, state), per (map entry, outer edge): the propagated memlet.
  std::map<std::pair<const ir::SDFG*, const ir::State*>, std::map<std::pair<int, int>, ir::Memlet>> propagated_memlets_;
  // Which states are nested in which, noted for every state an analysis is computed for.
  StateNesting nesting_;
  std::unordered_map<const ir::SDFG*, std::unique_ptr<SymbolRanges>> symbol_ranges_;
  int64_t computed_ = 0, cached_ = 0;
};

}  // namespace dace::transform
