// Moving a block out of its region, for transformations that regroup blocks (LoopLifting,
// ControlFlowRaising). The IR has no release of a block yet, so this copies it (label, id,
// guid and contents stay) and removes the original with its edges.
#pragma once
#include <memory>

#include "ir/control_flow.h"

namespace dace::transform {

inline std::unique_ptr<ir::ControlFlowBlock> take_block(ir::ControlFlowRegion& region, int slot) {
  std::unique_ptr<ir::ControlFlowBlock> copy = region.block(slot)->clone();
  region.remove_block(slot);
  return copy;
}

}  // namespace dace::transform
