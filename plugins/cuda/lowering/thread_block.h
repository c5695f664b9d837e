// GPU_ThreadBlock maps: the threads of one block inside a GPU_Device map (docs/cuda.md).
//
// A GPU_Device map that holds GPU_ThreadBlock maps (in its scope or in nested SDFGs there)
// runs one block per point of its range; the block has the largest extents of those maps
// along x, y, z, and each GPU_ThreadBlock map gives its points to the block's threads (a
// thread past the map's extent skips it). A barrier follows every GPU_ThreadBlock scope, so
// what one block-level scope writes is visible to the next (DaCe's __syncthreads between
// consecutive block-level scopes). Emulated, each GPU_ThreadBlock scope is a loop over the
// block's threads that ends before the code after it starts: that loop's end is the barrier.
// A GPU_ThreadBlock map inside another runs as loops in each thread of the outer one (no
// barrier of its own, nothing to the block's size).
#pragma once
#include <array>
#include <vector>

#include "codegen/target_lowering.h"

namespace dace::cuda {

// Whether the GPU_Device map at `device_entry` holds GPU_ThreadBlock maps, and then the block
// they need (x, y, z). Their ranges must be constant (GPU_ThreadBlock_Dynamic maps: dynamic_map.h).
// `parents` is the state's scope_parents() (the state emitter's, computed once per state).
Result<bool> thread_block_layout(const ir::State& state, const std::vector<int>& parents, int device_entry,
                                 std::array<int64_t, 3>& block);

Status lower_thread_block_map(codegen::ScopeContext& context);

}  // namespace dace::cuda
