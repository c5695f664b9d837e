#include "transform/analysis_manager.h"

namespace dace::transform {

const ScopeTree& AnalysisManager::scope_tree(const ir::State& state) {
  auto it = scope_trees_.find(&state);
  if (it != scope_trees_.end()) {
    ++cached_;
    return *it->second;
  }
  ++computed_;
  auto tree = std::make_unique<ScopeTree>(ScopeTree::compute(state));
  return *scope_trees_.emplace(&state, std::move(tree)).first->second;
}

const AccessSets& AnalysisManager::access_sets(const ir::State& state) {
  auto it = access_sets_.find(&state);
  if (it != access_sets_.end()) {
    ++cached_;
    return *it->second;
  }
  ++computed_;
  auto sets = std::make_unique<AccessSets>(AccessSets::compute(state));
  return *access_sets_.emplace(&state, std::move(sets)).first->second;
}

const ScopeAccessSets& AnalysisManager::scope_access_sets(const ir::State& state) {
  auto it = scope_access_sets_.find(&state);
  if (it != scope_access_sets_.end()) {
    ++cached_;
    return *it->second;
  }
  const ScopeTree& tree = scope_tree(state);
  ++computed_;
  auto sets = std::make_unique<ScopeAccessSets>(ScopeAccessSets::compute(state, tree));
  return *scope_access_sets_.emplace(&state, std::move(sets)).first->second;
}

void AnalysisManager::invalidate(Modifies modified) {
  // Removing or merging states may free a State and reuse its address for a new one: any
  // change to the set of states drops every per-state analysis.
  if (any(modified & (kScopeTreeDependsOn | Modifies::States))) scope_trees_.clear();
  if (any(modified & (kAccessSetsDependOn | Modifies::States))) access_sets_.clear();
  if (any(modified & (kScopeTreeDependsOn | kAccessSetsDependOn | Modifies::States))) scope_access_sets_.clear();
}

void AnalysisManager::invalidate(const ir::State& state, Modifies modified) {
  // A nested SDFG added, removed or changed in this state changes states that are not this
  // one (its own, which a removal may free for reuse): drop everything, as for States.
  if (any(modified & (Modifies::States | Modifies::NestedSDFGs))) {
    clear();
    return;
  }
  if (any(modified & kScopeTreeDependsOn)) scope_trees_.erase(&state);
  if (any(modified & kAccessSetsDependOn)) access_sets_.erase(&state);
  if (any(modified & (kScopeTreeDependsOn | kAccessSetsDependOn))) scope_access_sets_.erase(&state);
}

}  // namespace dace::transform
