// Reduce library nodes whose operands live in GPU_Global memory, in host code: one kernel
// with one block per output element, each thread combining a strided share of the reduced
// elements, then a tree over the block's threads in shared memory with a barrier between
// levels (DaCe's "CUDA (device)" expansion does the same with CUB). Emulated, each level is
// one loop over the block's threads (docs/cuda.md "Emulated device").
#pragma once
#include "codegen/plugin_nodes.h"

namespace dace::cuda {

// Threads per block of the reduction kernel (a power of two: the tree halves it).
constexpr int64_t kReduceBlock = 256;

Status lower_device_reduce(codegen::LibraryNodeContext& context);

}  // namespace dace::cuda
