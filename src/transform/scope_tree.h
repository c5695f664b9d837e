// The scope tree of one state (DaCe's scope_dict / scope_children): which map or consume
// entry directly encloses each node, each entry's exit, and each scope's children. Computed
// once per state by the analysis manager and shared by every transformation that asks.
#pragma once
#include <vector>

#include "ir/state.h"

namespace dace::transform {

struct ScopeTree {
  // Indexed by node slot: the directly enclosing entry, -1 at top level or for empty slots.
  std::vector<int> parent;
  // Indexed by node slot: for an entry its exit, for an exit its entry; -1 otherwise.
  std::vector<int> partner;
  // Children of each scope, ascending node ids; index 0 is the top level, index e + 1 the
  // scope of entry e (exits belong to their entry's parent, as in DaCe).
  std::vector<std::vector<int>> children;
  std::vector<char> is_entry;  // indexed by node slot

  static ScopeTree compute(const ir::State& state);

  const std::vector<int>& children_of(int entry) const { return children[static_cast<size_t>(entry + 1)]; }
  int exit_of(int entry) const { return entry >= 0 && entry < static_cast<int>(partner.size()) ? partner[entry] : -1; }
  // Every node strictly inside the scope of `entry` (nested scopes included), ascending.
  std::vector<int> scope_nodes(int entry) const;
  // Whether `node` lies (at any depth) inside the scope of `entry`.
  bool is_inside(int node, int entry) const;
};

}  // namespace dace::transform
