// GPU_Persistent maps holding GPU_Device maps: one cooperative kernel whose inner maps run one
// after another, each grid-strided over the resident blocks, with a grid barrier after each
// (DaCe's persistent scopes, docs/cuda.md). The persistent map's own points run in order in
// every thread: each point runs all inner maps, so the barriers stay in uniform control flow.
#pragma once
#include <vector>

#include "codegen/target_lowering.h"
#include "lowering/device_module.h"

namespace dace::cuda {

// Whether the GPU_Persistent map at `entry` is a cooperative kernel: its scope holds
// GPU_Device maps, or nested SDFGs whose states hold them at their top level (DaCe's
// persistent states: a barrier after each of their maps). `maps`: the GPU_Device maps
// directly in the scope. Refused naming the element: anything else in that scope or in
// those states but access nodes (tasklets, other maps, deeper nested SDFGs, copies between
// access nodes: code DaCe runs in one thread of the grid), GPU maps inside the inner maps,
// and control flow of those SDFGs that reads what the kernel writes (cooperative_control.h).
struct CooperativeScope {
  bool cooperative = false;
  std::vector<int> maps;
};
Result<CooperativeScope> cooperative_scope(const codegen::StateEmitter& se, int entry);

// The body of the cooperative kernel of the GPU_Persistent map at `entry` (KernelState::block
// is 1-D, `cooperative` set): the persistent map's points in order, its scope emitted for
// each, whose GPU_Device maps come to lower_grid_strided_map.
Status emit_cooperative_kernel(codegen::StateEmitter& se, int entry);

// A GPU_Device map inside a cooperative kernel: its points walked by all threads of the grid
// in strides of the grid, then the grid barrier.
Status lower_grid_strided_map(codegen::ScopeContext& context, DeviceModule& dm);

}  // namespace dace::cuda
