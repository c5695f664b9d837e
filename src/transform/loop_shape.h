// Small queries on the shape of a LoopRegion, shared by the loop transformations (LoopToMap,
// MoveLoopIntoMap, LoopUnroll).
#pragma once
#include <vector>

#include "ir/sdfg.h"

namespace dace::transform {

// The block as a loop region, or null.
inline const ir::LoopRegion* as_loop(const ir::ControlFlowBlock* b) {
  return b && b->kind == ir::BlockKind::Loop ? static_cast<const ir::LoopRegion*>(b) : nullptr;
}

// The body state of a loop made of exactly one state and no interstate edges, or null.
inline const ir::State* single_body(const ir::LoopRegion& loop) {
  const std::vector<int> blocks = loop.block_slots();
  if (blocks.size() != 1 || !loop.edge_slots().empty()) return nullptr;
  const ir::ControlFlowBlock* b = loop.block(blocks.front());
  return b->kind == ir::BlockKind::State ? static_cast<const ir::State*>(b) : nullptr;
}

}  // namespace dace::transform
