// Isolating a nested SDFG call before multi-state inlining, as DaCe's InlineMultistateSDFG
// does with two state fissions (helpers.state_fission_after, then state_fission of the call and
// its direct neighbours): what the call depends on by dataflow stays in the calling state,
// what depends on the call moves into a state after it, and the call with its access nodes is
// what the nested control flow replaces.
//
// The set that moves after (DaCe's nodes_to_move): the call, the sources of its input edges,
// every node downstream of the call, and for each downstream node that is not an access node
// the nodes on the memlet paths of its other inputs. Moved access nodes that also have an edge
// to or from a node that stays (boundary nodes) are copied: the copy stays with those edges,
// the original moves. Of the moved nodes, the call and its neighbours vanish with the inlined
// state, except neighbours that also have an edge to a moved node beyond them (they stay in the
// state after, and the vanishing state had a copy).
//
// DaCe moves only the edges it collects on the way; a plan is refused where an edge between
// two moved nodes would not be collected, or where an edge leaves the moved set at a node
// that is not an access node (DaCe's fission would drop both).
#pragma once
#include <string>
#include <vector>

#include "ir/state.h"

namespace dace::transform {

struct CallIsolation {
  std::vector<char> moved;     // by node slot: goes after the call (or vanishes with it)
  std::vector<char> boundary;  // by node slot: moved, and a copy stays in the calling state
  std::vector<char> vanishes;  // by node slot: the call and the neighbours that go with it
  std::vector<char> carried;   // by edge slot: an edge DaCe's fission moves with the nodes
};

// Plans the isolation of node `call` (outside any scope) of `state`; false and `why` naming the
// edge when DaCe's fission would lose part of the dataflow.
bool plan_call_isolation(const ir::State& state, int call, CallIsolation& plan, std::string& why);

// Whether the state holds anything besides the call and what vanishes with it.
bool isolation_moves_nothing(const ir::State& state, const CallIsolation& plan);

// Carries out a plan: `state` keeps the nodes that do not move (in their order) followed by
// the copies of the boundary nodes (in the order of their originals) with their edges to the
// nodes that stay; `after` receives the moved nodes that do not vanish (in their order) and
// the carried edges among them; the call and what vanishes with it are removed.
void isolate_call(ir::State& state, ir::State& after, const CallIsolation& plan);

}  // namespace dace::transform
