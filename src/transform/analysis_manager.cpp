#include "transform/analysis_manager.h"

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
  return lookup(scope_trees_, state, computed_, cached_, [&] { return ScopeTree::compute(state); });
}

const AccessSets& AnalysisManager::access_sets(const ir::State& state) {
  return lookup(access_sets_, state, computed_, cached_, [&] { return AccessSets::compute(state); });
}

const ScopeAccessSets& AnalysisManager::scope_access_sets(const ir::State& state) {
  return lookup(scope_access_sets_, state, computed_, cached_,
                [&] { return ScopeAccessSets::compute(state, scope_tree(state)); });
}

const DependenceSets& AnalysisManager::dependence_sets(const ir::State& state) {
  return lookup(dependence_sets_, state, computed_, cached_,
                [&] { return DependenceSets::compute(state, scope_tree(state)); });
}

const ScopeMemlets& AnalysisManager::scope_memlets(const ir::SDFG& sdfg, const ir::State& state) {
  auto it = scope_memlets_.find({&sdfg, &state});
  if (it != scope_memlets_.end()) {
    ++cached_;
    return *it->second;
  }
  auto value = std::make_unique<ScopeMemlets>(ScopeMemlets::compute(sdfg, state, scope_tree(state)));
  ++computed_;
  return *scope_memlets_.emplace(std::make_pair(&sdfg, &state), std::move(value)).first->second;
}

void AnalysisManager::invalidate(Modifies modified) {
  // Removing or merging states may free a State and reuse its address for a new one: any
  // change to the set of states drops every per-state analysis.
  auto drops = [&](Modifies depends_on) { return any(modified & (depends_on | Modifies::States)); };
  if (drops(kScopeTreeDependsOn)) scope_trees_.clear();
  if (drops(kAccessSetsDependOn)) access_sets_.clear();
  if (drops(kScopeTreeDependsOn | kAccessSetsDependOn)) scope_access_sets_.clear();
  if (drops(kDependenceSetsDependOn)) dependence_sets_.clear();
  if (drops(kScopeMemletsDependOn)) scope_memlets_.clear();
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
  if (any(modified & kDependenceSetsDependOn)) dependence_sets_.erase(&state);
  // Descriptors belong to the SDFG, not to this state: every state's propagation may use them.
  if (any(modified & Modifies::Descriptors)) scope_memlets_.clear();
  else if (any(modified & kScopeMemletsDependOn))
    std::erase_if(scope_memlets_, [&](const auto& entry) { return entry.first.second == &state; });
}

}  // namespace dace::transform
