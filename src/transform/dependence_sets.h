// The memlets at each access node of a state, in the form LoopToMap's dependence test
// (loop_dependence.h) consumes: per container, the subset each non-empty memlet touches and
// whether it writes it (with which WCR). Cached per state by the AnalysisManager (issue 10
// item 1, "dependence sets"): a loop body's states are read once for every legality check of
// every loop around them until a pass reports a node or memlet change there.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ir/state.h"
#include "ir/symbolic/expr.h"
#include "transform/scope_tree.h"

namespace dace::transform {

// One non-empty memlet at an access node of `data`.
struct AccessMemlet {
  // The subset of `data` the memlet touches: its subset when it names `data`, else its other
  // subset; nullopt when it names neither (the whole container; the shape is the SDFG's, so
  // the user fills it in and the analysis stays state-local).
  std::optional<sym::Subset> subset;
  bool write = false;
  std::string wcr;  // empty for reads and plain writes
};

struct AccessNodeMemlets {
  int node = -1;
  std::string data;
  bool top_level = true;  // not inside a map or consume scope
  // Inside a scope: whether the node's data crosses it (read whole from the entry, or what
  // is written into it leaves only through exits, memlets naming the container), so that
  // the top-level memlets (propagated) describe its accesses completely.
  bool crosses_scope = false;
  bool isolated = false;  // no edges at all (the container is still used here)
  // Top level only: writes (in-edges) then reads (out-edges), each in edge order.
  std::vector<AccessMemlet> memlets;
};

struct DependenceSets {
  std::vector<AccessNodeMemlets> access_nodes;  // ascending node id

  static DependenceSets compute(const ir::State& state, const ScopeTree& scopes);
};

}  // namespace dace::transform
