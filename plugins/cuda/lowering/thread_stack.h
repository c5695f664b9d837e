// Per-thread stack of a kernel. Each thread's transient arrays in device code are stack arrays
// (codegen/allocation.cpp: device code has no heap), and the driver gives every thread 1 KiB
// of stack by default: a kernel whose threads hold larger arrays (doitgen's rows at NPBench
// M) faults with an illegal address. Before launching such a kernel the host asks the
// runtime to raise CU_LIMIT_STACK_SIZE to what its threads need (never lowering it).
#pragma once
#include <string>

#include "codegen/state_emit.h"

namespace dace::cuda {

// The driver's default per-thread stack, which kernels without arrays fit in; reserved on top
// of the arrays for the rest of a thread's frame (spills, scalars, calls).
constexpr int64_t kThreadFrameBytes = 1024;

// In the host frame of `se`, before the launch of the kernel of GPU_Device map `entry`: when
// its threads hold stack arrays — host-storage transients allocated inside the map's scope
// (its own and nested scopes, StateEmitter::scope_locals) and in the SDFGs nested in it — a
// call of dace_cuda_reserve_stack(sum of their sizes, each rounded to 16 bytes plus 16 for
// alignment, + kThreadFrameBytes), whose failure ends the call with its status. An array whose
// size the host cannot evaluate (symbols bound inside the kernel) is left out. Nothing is
// emitted for kernels without stack arrays.
Status reserve_thread_stack(codegen::StateEmitter& se, int entry, const std::string& where);

}  // namespace dace::cuda
