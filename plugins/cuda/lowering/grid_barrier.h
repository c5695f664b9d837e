// A barrier across all blocks of a cooperative kernel (a GPU_Persistent map whose GPU_Device
// maps run one after another, docs/cuda.md): every thread of the grid waits until all have
// finished the phase before it, and what they wrote is visible to all of them after it.
//
// Device: a counter and a generation word of the kernel's own in global memory (zero when
// the module is loaded; each barrier leaves the counter at zero again). Thread 0 of each block
// arrives for its block after a block barrier; the last block to arrive bumps the generation,
// the others spin until it changes; a block barrier then releases the block's other threads.
// Emulated: dace_cuda_emu_grid_sync, where the runtime switches to the next block.
#pragma once
#include "codegen/frame.h"
#include "lowering/device_module.h"

namespace dace::cuda {

// Emits the grid barrier at f's insertion point (uniform control flow: every thread of every
// block must reach it the same number of times). Outside emulated thread loops.
void emit_grid_barrier(codegen::Frame& f, DeviceModule& dm);

// Blocks in the grid (%nctaid.x; emulated, the grid of the running launch), i64.
llvm::Value* grid_blocks(codegen::Frame& f, DeviceModule& dm);

}  // namespace dace::cuda
