#include "transform/analysis_manager.h"

#include <utility>

namespace dace::transform {
namespace {

// The cached entry of `state` in `cache`, or the one `compute()` makes now; counts either.
template <class T, class Compute>
const T& lookup(std::unordered_map<const ir::State*, std::unique_ptr<T>>& cache, const ir::State& state,
                int64_t& computed, int64_t& cached, Compute compute) {
  auto it = cache.find(&state);
  if (it != cache.end()) {
    ++cached;
    return *it->second;
  }
  auto value = std::make_unique<T>(compute());
  ++computed;
  return *cache.emplace(&state, std::move(value)).first->second;
}

}  // namespace

const ScopeTree& AnalysisManager::scope_tree(const ir::State& state) {
  return lookup(scope_trees_, state, computed_, cached_, [&] {
    note_computed(state);
    return ScopeTree::compute(state);
  });
}

const AccessSets& AnalysisManager::access_sets(const ir::State& state) {
  return lookup(access_sets_, state, computed_, cached_, [&] {
    note_computed(state);
    return AccessSets::compute(state);
  });
}

const ScopeAccessSets& AnalysisManager::scope_access_sets(const ir::State& state) {
  return lookup(scope_access_sets_, state, computed_, cached_,
                [&] {
                  note_computed(state);
                  return ScopeAccessSets::compute(state, scope_tree(state));
                });
}

const DependenceSets& AnalysisManager::dependence_sets(const ir::State& state) {
  return lookup(dependence_sets_, state, computed_, cached_,
                [&] {
                  note_computed(state);
                  return DependenceSets::compute(state, scope_tree(state));
                });
}

const MapMemlets* AnalysisManager::map_memlets(const ir::State& state, int entry) {
  std::map<int, std::optional<MapMemlets>>& of_state = map_memlets_[&state];
  auto it = of_state.find(entry);
  if (it != of_state.end()) {
    ++cached_;
    return it->second ? &*it->second : nullptr;
  }
  std::optional<MapMemlets> value = MapMemlets::compute(state, scope_tree(state), entry);
  ++computed_;
  note_computed(state);
  const std::optional<MapMemlets>& kept = of_state.emplace(entry, std::move(value)).first->second;
  return kept ? &*kept : nullptr;
}

const ir::Memlet* AnalysisManager::propagated_memlet(const ir::SDFG& sdfg, const ir::State& state, int entry,
                                                     int outer_edge) {
  auto& of_state = propagated_memlets_[{&sdfg, &state}];
  auto it = of_state.find({entry, outer_edge});
  if (it != of_state.end()) {
    ++cached_;
    return &it->second;
  }
  const MapMemlets* map = map_memlets(state, entry);
  const PathMemlets* path = map ? map->of_outer_edge(outer_edge) : nullptr;
  if (!path) return nullptr;
  ir::Memlet value = propagate_path(sdfg, state, *map, *path);
  ++computed_;
  return &of_state.emplace(std::make_pair(entry, outer_edge), std::move(value)).first->second;
}

void AnalysisManager::drop_state(const ir::State* state) {
  scope_trees_.erase(state);
  access_sets_.erase(state);
  scope_access_sets_.erase(state);
  dependence_sets_.erase(state);
  map_memlets_.erase(state);
  std::erase_if(propagated_memlets_, [&](const auto& entry) { return entry.first.second == state; });
}

const SymbolRanges& AnalysisManager::symbol_ranges(const ir::SDFG& sdfg) {
  auto it = symbol_ranges_.find(&sdfg);
  if (it != symbol_ranges_.end()) {
    ++cached_;
    return *it->second;
  }
  auto value = std::make_unique<SymbolRanges>(SymbolRanges::compute(sdfg));
  ++computed_;
  return *symbol_ranges_.emplace(&sdfg, std::move(value)).first->second;
}

void AnalysisManager::invalidate(Modifies modified) {
  // Removing or merging states may free a State and reuse its address for a new one: any
  // change to the set of states drops every per-state analysis. So does a change to nested
  // SDFGs anywhere (a removed one frees its states), as a state-local report of it would for
  // the states nested there.
  auto drops = [&](Modifies depends_on) {
    return any(modified & (depends_on | Modifies::States | Modifies::NestedSDFGs));
  };
  if (drops(kScopeTreeDependsOn)) scope_trees_.clear();
  if (drops(kAccessSetsDependOn)) access_sets_.clear();
  if (drops(kScopeTreeDependsOn | kAccessSetsDependOn)) scope_access_sets_.clear();
  if (drops(kDependenceSetsDependOn)) dependence_sets_.clear();
  if (drops(kMapPathsDependOn)) map_memlets_.clear();
  if (drops(kScopeMemletsDependOn)) propagated_memlets_.clear();
  if (drops(Modifies::Nothing)) nesting_.clear();
  if (drops(kSymbolRangesDependOn)) symbol_ranges_.clear();
}

void AnalysisManager::invalidate(const ir::State& state, Modifies modified) {
  if (any(modified & Modifies::States)) {
    clear();
    return;
  }
  if (any(modified & Modifies::NestedSDFGs)) {
    // A nested SDFG added, removed or changed in this state changes the states nested in it
    // (a removal may free them for reuse): drop those recorded under this state, and those
    // whose holder was never recorded, which may be among them.
    drop_state(&state);
    for (const ir::State* s : nesting_.take_nested_in(&state)) drop_state(s);
    for (const ir::State* s : nesting_.take_unplaced()) drop_state(s);
  }
  if (any(modified & kScopeTreeDependsOn)) scope_trees_.erase(&state);
  if (any(modified & kAccessSetsDependOn)) access_sets_.erase(&state);
  if (any(modified & (kScopeTreeDependsOn | kAccessSetsDependOn))) scope_access_sets_.erase(&state);
  if (any(modified & kDependenceSetsDependOn)) dependence_sets_.erase(&state);
  if (any(modified & kMapPathsDependOn)) map_memlets_.erase(&state);
  // Symbol ranges are per SDFG, and which SDFG holds this state is not known here.
  if (any(modified & kSymbolRangesDependOn)) symbol_ranges_.clear();
  // Descriptors belong to the SDFG, not to this state: every state's propagation may use them.
  if (any(modified & Modifies::Descriptors)) propagated_memlets_.clear();
  else if (any(modified & kScopeMemletsDependOn))
    std::erase_if(propagated_memlets_, [&](const auto& entry) { return entry.first.second == &state; });
}

}  // namespace dace::transform
