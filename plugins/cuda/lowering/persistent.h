// GPU_Persistent maps: a persistent kernel (docs/cuda.md). The grid is what the device keeps
// resident at once (multiprocessors x blocks per multiprocessor, dace_cuda_persistent_blocks,
// never more than the points need) and each thread walks the map's points in grid strides:
// point p, p + grid x block, ... (DaCe: grid = SMs x occupancy, grid-stride loops).
// One whose scope holds GPU_Device maps is a cooperative kernel instead (lowering/cooperative.h).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "codegen/target_lowering.h"
#include "lowering/thread_index.h"

namespace dace::cuda {

// Refused naming the element: GPU maps inside it other than GPU_Device maps directly in its
// scope (those make it a cooperative kernel, lowering/cooperative.h), a block that is not
// 1-D, and the places a GPU_Device map is refused.
Status lower_persistent_map(codegen::ScopeContext& context);

// Shared with the cooperative kernels' grid-strided maps:
// The number of points of a map with dimensions `dims`.
llvm::Value* linear_point_count(llvm::IRBuilder<>& b, const std::vector<Dim>& dims);
// Binds the map's parameters to the point with row-major linear index `linear` (the last
// parameter fastest) in the current scope of `f`, and records them as scope symbols of `se`.
void bind_linear_point(codegen::StateEmitter& se, codegen::Frame& f, const ir::MapScope& map, const std::vector<Dim>& dims,
                       llvm::Value* linear);
// The first GPU-scheduled map (any GPU schedule) among the nodes of `state` that `counts`
// accepts, or in the SDFGs nested there: "map \"label\"".
std::optional<std::string> gpu_map_among(const ir::State& state, const std::function<bool(int)>& counts);

}  // namespace dace::cuda
