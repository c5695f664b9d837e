// The blocks of a control-flow region in an order where every block comes after its
// predecessors (Kahn's algorithm, ties by ascending slot, so the order is deterministic).
// LoopToMap walks loop bodies in this order to learn what each iteration has written or
// assigned before a block runs.
#pragma once
#include <optional>
#include <vector>

#include "ir/control_flow.h"

namespace dace::transform {

// Slots of `region` in topological order; nullopt when its edges form a cycle.
std::optional<std::vector<int>> topological_blocks(const ir::ControlFlowRegion& region);

// Slots of `region` in reverse post-order of a depth-first walk from its entry block (out-edges
// in slot order), then the blocks the entry does not reach, ascending. Defined with cycles too:
// the propagation passes visit states in this order until their values settle.
std::vector<int> reverse_post_order(const ir::ControlFlowRegion& region);

}  // namespace dace::transform
