// GPU_Device maps become kernels: the map body is outlined into the device module (its
// Frame's lazy captures become the kernel's parameters) and the host calls the runtime's
// dace_cuda_launch with the grid the map's range needs.
#pragma once
#include "codegen/target_lowering.h"

namespace dace::cuda {

// Block size when the map has no gpu_block_size: 256 threads for 1-D maps, 32x8 for 2-D,
// 32x4x2 for more dimensions (x runs along the last, contiguous parameter).
constexpr int64_t kDefaultBlock1D = 256;

Status lower_device_map(codegen::ScopeContext& context);

}  // namespace dace::cuda
