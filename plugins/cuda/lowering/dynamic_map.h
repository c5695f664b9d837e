// GPU_ThreadBlock_Dynamic maps: iterations whose number each thread only learns at run time
// (a CSR row's nonzeros), spread over the threads of the block instead of each thread
// running its own (docs/cuda.md).
//
// DaCe's form: a 1-D GPU_ThreadBlock_Dynamic map directly inside a GPU_Device map (one point
// per thread), its range read from the thread's data through dynamic map inputs
// (`A_row[i]:A_row[i + 1]`). Every thread first evaluates its own range and leaves it in
// shared memory; after a barrier the block works through the ranges of all its threads in
// turn, each range block-strided over the threads (thread t runs iterations t, t + B, ...),
// with the map body seeing the owning thread's point of the GPU_Device map. So a long row is
// shared by the whole block and short rows cost one pass each: every (owner, iteration)
// pair runs exactly once. The block may have any shape: its threads are taken in their linear
// order (x fastest), each owning the point of the GPU_Device map under it. Emulated, the two
// phases are two loops over the block's threads, the end of the first being the barrier.
//
// Code beside the dynamic map in the kernel's scope runs in phase 1, each thread for its own
// point, before the thread evaluates its range. The thread-private scalars it writes that the
// map reads live in shared memory, one slot per thread, so the threads running an owner's
// iterations in phase 2 read the owner's values (the barrier between the phases orders them).
#pragma once
#include "codegen/target_lowering.h"
#include "lowering/device_module.h"

namespace dace::cuda {

// The GPU_ThreadBlock_Dynamic map directly inside the GPU_Device map at `device_entry`, or
// -1. Refused, naming the map: a second one there, more than one parameter, code after it in
// the kernel's scope (the iterations' results are spread over the block's threads), a value
// passed to it from beside it other than through a container, and a container written beside
// it and read by it that is not a thread-private scalar (an array would need a copy per thread).
Result<int> dynamic_map_of(const codegen::StateEmitter& se, int device_entry);

// The kernel body of the GPU_Device map `device_entry` whose scope is the dynamic map
// `dynamic_entry`. Emits into se.f.
Status emit_dynamic_kernel(codegen::StateEmitter& se, DeviceModule& dm, int device_entry, int dynamic_entry);

// A GPU_ThreadBlock_Dynamic map anywhere else: refused naming it.
Status lower_misplaced_dynamic_map(codegen::ScopeContext& context);

}  // namespace dace::cuda
