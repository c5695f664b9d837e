// GPU_Device maps become kernels: the map body is outlined into the device module (its
// Frame's lazy captures become the kernel's parameters) and the host calls the runtime's
// dace_cuda_launch with the grid the map's range needs.
#pragma once
#include <array>
#include <functional>
#include <string>

#include "codegen/target_lowering.h"
#include "lowering/device_module.h"

namespace dace::cuda {

// Block size when the map has no gpu_block_size: 256 threads for 1-D maps, 32x8 for 2-D,
// 32x4x2 for more dimensions (x runs along the last, contiguous parameter).
constexpr int64_t kDefaultBlock1D = 256;
// A 1-D map whose threads each run loops (a nested map, SDFG or library node in its scope: syrk's rows,
// each a triangular update over M columns) has few, long threads: blocks of one warp, as
// DaCe's default block (32, 1, 1), spread them over as many multiprocessors as there are
// warps (syrk at NPBench M: 7 blocks on 7 SMs instead of one block of 256 on one SM, whose
// load/store units then serve all 200 threads' uncoalesced accesses).
constexpr int64_t kLoopingThreadsBlock1D = 32;

// A map that becomes a kernel of its own (GPU_Device, GPU_Persistent) must sit in host code and
// have parameters with a range each; `schedule` names it in the message.
Status check_kernel_map(const codegen::ScopeContext& context, const std::string& schedule);
Status lower_device_map(codegen::ScopeContext& context);

// The block of a kernel whose threads each run one point of the map at `entry`: its
// gpu_block_size, else the defaults above.
Result<std::array<int64_t, 3>> point_kernel_block(const codegen::StateEmitter& se, int entry, const std::string& where);

// Outlines device code into a kernel of the program's device module and launches it from
// the host frame of `se` (its insertion point). `emit_body` emits the kernel's code into the
// frame it is given (whose lookups of host values become kernel parameters) while
// `state` is the kernel being lowered; `grid` computes the grid (x, y, z) in the host frame.
// `label` names the kernel; `where` is for messages. `node` is the state's node the kernel
// does (a map entry, a library node): a work item of the state's stream plan is launched on
// its stream (lowering/stream_emit.h).
using KernelBody = std::function<Status(codegen::Frame& body, DeviceModule& dm)>;
using KernelGrid = std::function<Result<std::array<llvm::Value*, 3>>(codegen::Frame& host)>;
Status launch_kernel(codegen::StateEmitter& se, int node, KernelState& state, const std::string& label,
                     const std::string& where, const KernelBody& emit_body, const KernelGrid& grid);

}  // namespace dace::cuda
