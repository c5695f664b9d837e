// Where a kernel's indices come from, shared by the GPU_Device and GPU_ThreadBlock lowerings.
//
// A map's points are laid out over three axes like a CUDA grid: the last parameter along x,
// the one before along y, all others collapsed into z (de-linearized in the kernel). On the
// device the block and thread indices are NVPTX special registers; in emulation
// (docs/cuda.md) the block index is the one the runtime's launch loop is running
// (dace_cuda_emu_block_index) and the thread index the induction variable of a thread loop
// the lowering emits around the code that runs once per thread.
#pragma once
#include <array>
#include <vector>

#include "codegen/loops.h"
#include "codegen/map_emit.h"
#include "codegen/state_emit.h"
#include "lowering/device_module.h"

namespace dace::cuda {

// Start, step and trip count of a map dimension (codegen::map_dimensions).
using Dim = codegen::MapDimension;

// Number of points along x, y, z.
std::array<llvm::Value*, 3> grid_extent(llvm::IRBuilder<>& b, const std::vector<Dim>& dims);

// The constant extents along x, y, z of a map whose range is constant (GPU_ThreadBlock maps
// give the block its size), or nothing.
std::optional<std::array<int64_t, 3>> constant_extent(const ir::MapScope& map);

// Constant upper bounds of the extents along x, y, z of a map whose range may be symbolic but
// is bounded by a constant in each dimension: a constant range, or a tile such as
// `ti:Min(N, ti + 32)` (the end is a Min one of whose arguments lies a constant past the start;
// DaCe over-approximates such a tile to its size). Nothing when some dimension is unbounded.
std::optional<std::array<int64_t, 3>> bounded_extent(const ir::MapScope& map);

// i1: index < extent along every axis.
llvm::Value* within(llvm::IRBuilder<>& b, const std::array<llvm::Value*, 3>& index, const std::array<llvm::Value*, 3>& extent);

// Binds the map's parameters to the point at `index` (x, y, z as grid_extent lays them out)
// in the current scope of `f`, and records them as scope symbols of `se`.
void bind_point(codegen::StateEmitter& se, codegen::Frame& f, const ir::MapScope& map, const std::vector<Dim>& dims,
                const std::array<llvm::Value*, 3>& index);

enum class Special { BlockIndex, ThreadIndex };

// Binds CUDA's built-ins that DaCe's GPU expansions read in Python tasklets, as uint32
// symbols of their dotted names in the current scope of `f`: "blockIdx.x/y/z" from `block`
// and "threadIdx.x/y/z" from `thread` (each skipped when null), "blockDim.x/y/z" from the
// kernel's block size.
void bind_builtins(codegen::Frame& f, const KernelState& ks, const std::array<llvm::Value*, 3>* block,
                   const std::array<llvm::Value*, 3>* thread);

// Binds "gridDim.x/y/z" as uint32 symbols in the current scope of `f`: the grid the kernel
// runs with (%nctaid on the device, the emulated launch's grid), which for a cooperative
// kernel is the capped grid of resident blocks, not the map's extent.
void bind_grid_dim(codegen::Frame& f, DeviceModule& dm);

// The block or thread index along `axis` (0 = x) as i64. Block sizes are compile-time
// constants (KernelState::block), so the block dimension is never read.
Result<llvm::Value*> special_index(codegen::Frame& f, DeviceModule& dm, Special which, int axis);

// The thread's index along x, y, z and its linear index in the block, x + Bx * (y + By * z)
// (the order in which CUDA numbers a block's threads, so consecutive threads of a warp get
// consecutive linear indices).
struct ThreadPosition {
  std::array<llvm::Value*, 3> index{};
  llvm::Value* linear = nullptr;
};
Result<ThreadPosition> thread_position(codegen::Frame& f, DeviceModule& dm);

// Emulation: loops z, y, x over the threads of the block; KernelState::tid holds their
// induction variables until end_thread_loop, which is where a block barrier would be.
struct ThreadLoop {
  std::array<codegen::CountedLoop, 3> loops;
  std::array<llvm::Value*, 3> saved{};
};
ThreadLoop begin_thread_loop(codegen::Frame& f, DeviceModule& dm);
void end_thread_loop(codegen::Frame& f, DeviceModule& dm, ThreadLoop& loop);

}  // namespace dace::cuda
