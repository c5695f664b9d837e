// Moving a block out of its region, for transformations that regroup blocks (LoopLifting,
// ControlFlowRaising): the block object itself moves (label, id, guid and contents stay),
// so borrowed handles of nested SDFGs inside it stay valid; its edges are removed.
#pragma once
#include <memory>

#include "ir/control_flow.h"

namespace dace::transform {

inline std::unique_ptr<ir::ControlFlowBlock> take_block(ir::ControlFlowRegion& region, int slot) {
  return region.release_block(slot);
}

}  // namespace dace::transform
