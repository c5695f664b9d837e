// LoopToMap as the GPU pipeline (auto_optimize_gpu) applies it: everywhere legal, except on
// loops whose body holds a large matrix-matrix product (a MatMul or Gemm library node with a
// matrix result). Such a loop turned into a GPU_Device map runs the whole product inside each
// thread, sequentially, with its operands in per-thread memory: doitgen's `for r: A[r] = A[r]
// @ C4` became NR threads each doing NQ*NP*NP multiply-adds, about 1000x slower than CuPy.
// Left a loop on the host, each iteration's product runs on GPU_Global data as one device
// call (cuBLAS through the CUDA plugin), parallel over the whole result.
// A product is large unless its multiply-add count (rows * columns * inner) is a constant
// below kSmallProductWork; for those, one kernel thread per iteration still pays. Only
// products a device call takes as they are count: float32/float64 operands that are
// matrices once dimensions of extent 1 are dropped (no batched 3-D operand), no `_cin` other
// than C itself (the in-place update cuBLAS takes: same container and subset as `_c`).
// Each application is recorded as LoopToMap (DaCe replays it as such).
#pragma once
#include <memory>

#include "ir/control_flow.h"
#include "transform/pass.h"

namespace dace::transform {

inline constexpr int64_t kSmallProductWork = 32 * 32 * 32;

// Whether `region` (a loop body, with its nested regions and nested SDFGs) holds a MatMul or
// Gemm node of float32/float64 matrices whose work is not a constant below
// kSmallProductWork.
bool holds_large_matrix_product(const ir::ControlFlowRegion& region);

std::unique_ptr<Pass> make_gpu_loop_to_map_pass();

}  // namespace dace::transform
