// Control flow: the blocks of a region become basic blocks joined by their interstate edges
// (conditions tested in edge order, ordered assignments on the taken edge); LoopRegion,
// ConditionalBlock, Break, Continue and Return map to branches. When no out-edge of a block
// applies, the region ends (as in DaCe's generated code).
#pragma once
#include "codegen/frame.h"

namespace dace::codegen {

struct FlowTargets {
  llvm::BasicBlock* exit = nullptr;         // after the region
  llvm::BasicBlock* break_to = nullptr;     // innermost loop's exit
  llvm::BasicBlock* continue_to = nullptr;  // innermost loop's next iteration
  llvm::BasicBlock* return_to = nullptr;    // end of the SDFG
};

// Emits `region` starting at the frame's insertion point; on return the insertion point is
// `targets.exit` (empty).
Status emit_region(Frame& f, const ir::ControlFlowRegion& region, const FlowTargets& targets);

}  // namespace dace::codegen
