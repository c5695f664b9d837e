// Warp collectives in DaCe's GPU SDFGs: the C++ tasklet
//   out = dace::warpReduce<dace::ReductionType::Max, float>::reduce(in);
// that DaCe's block reduction expansion ("CUDA (block)") places at the top level of a
// GPU_ThreadBlock map of 32 threads. Every lane of a warp gets the combination of all 32
// lanes' values.
//
// On the device it is a butterfly of warp shuffles (shfl.sync.bfly, all lanes). In emulation
// the threads of a block run one after the other, so the GPU_ThreadBlock scope is cut at the
// collective (lower_thread_block_map): one thread loop up to it that leaves each thread's
// input in a per-block buffer, the combination per warp, one thread loop that writes each
// thread's result, and one for the rest of the scope; containers private to the scope's
// threads (Register scalars) become one element per thread so values cross the cut.
#pragma once
#include <optional>
#include <string>

#include "codegen/state_emit.h"

namespace dace::cuda {

// DaCe's ReductionType values a warp reduction lowers; the bitwise and logical ones take
// integer types only (logical: the result is 0 or 1).
enum class WarpOp { Sum, Product, Min, Max, BitwiseAnd, BitwiseOr, BitwiseXor, LogicalAnd, LogicalOr, LogicalXor };

struct WarpReduce {
  WarpOp op = WarpOp::Sum;
  ir::ScalarType type = ir::ScalarType::Float32;
  int in_edge = -1;   // the edge into the tasklet's input connector
  int out_edge = -1;  // the edge out of its output connector
};

// Whether tasklet `node` of `se`'s state is a warp reduction: nullopt when it is not one at
// all (other code), an error when it is one that cannot be lowered (named).
Result<std::optional<WarpReduce>> match_warp_reduce(const codegen::StateEmitter& se, int node);

// The value of the reduction's input for the current thread (its memlet, converted).
Result<llvm::Value*> load_warp_input(codegen::StateEmitter& se, const WarpReduce& w);
// Stores `v` (of w.type) through the reduction's output memlet for the current thread.
Status store_warp_output(codegen::StateEmitter& se, const WarpReduce& w, llvm::Value* v);

// op(a, b) in w.type.
llvm::Value* warp_combine(llvm::IRBuilder<>& b, const WarpReduce& w, llvm::Value* a, llvm::Value* x);

// Device: the whole collective for the current lane (load, five shuffle levels, store).
Status emit_warp_reduce_device(codegen::StateEmitter& se, const WarpReduce& w);

}  // namespace dace::cuda
