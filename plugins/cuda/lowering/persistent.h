// GPU_Persistent maps: a persistent kernel (docs/cuda.md). The grid is what the device keeps
// resident at once (multiprocessors x blocks per multiprocessor, dace_cuda_persistent_blocks,
// never more than the points need) and each thread walks the map's points in grid strides:
// point p, p + grid x block, ... (DaCe: grid = SMs x occupancy, grid-stride loops).
#pragma once
#include "codegen/target_lowering.h"

namespace dace::cuda {

// Refused naming the element: GPU maps of any schedule inside it (DaCe's persistent scopes of
// GPU_Device maps separated by grid-wide barriers are not lowered yet), a block that is not
// 1-D, and the places a GPU_Device map is refused.
Status lower_persistent_map(codegen::ScopeContext& context);

}  // namespace dace::cuda
