// Nesting a control-flow region into a NestedSDFG (DaCe's way to put several states, or
// whole control flow, where dataflow is expected, e.g. inside a map): copies of the region's
// blocks and edges become a new SDFG, held by a NestedSDFGNode in a new state. Containers
// are passed by connectors named like them, with whole-container memlets; containers only
// the region uses move inside. Used by LoopToMap for bodies of several states.
#pragma once
#include <memory>
#include <set>
#include <string>

#include "ir/sdfg.h"

namespace dace::transform {

struct NestingPlan {
  std::string label;                      // of the new state, the node and the nested SDFG
  std::set<std::string> inputs, outputs;  // containers read / written by the region
  std::set<std::string> moved;            // transients only the region uses: they move inside
};

// The new state (not yet in a region). Inside, passed containers are non-transient copies of
// the outer descriptors; `moved` descriptors leave `owner`. Symbols the region assigns
// (interstate assignments, inner loop variables; not `region`'s own loop variable) are
// declared inside; every other free symbol of the new SDFG is declared with the outer type
// and mapped to the outer symbol of the same name. Constants are copied.
std::unique_ptr<ir::State> nest_region(ir::SDFG& owner, const ir::ControlFlowRegion& region, const NestingPlan& plan);

}  // namespace dace::transform
