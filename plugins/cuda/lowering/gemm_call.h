// One call of the runtime's dace_cuda_gemm from host code: C = alpha * A * B + beta * C over
// strided operands in GPU_Global memory (element (i, j) of an operand at i * rs + j * cs;
// runtime/gemm_plan.h maps that onto one column-major cuBLAS call). Used by the MatMul/Gemm/
// Gemv/Dot library nodes (blas.h) and by DaCe's cuBLAS C++ tasklets (cublas_tasklet.h).
#pragma once
#include <optional>
#include <string>

#include "codegen/frame.h"
#include "codegen/state_emit.h"

namespace dace::cuda {

struct GemmOperand {
  llvm::Value* base = nullptr;  // device pointer to element (0, 0)
  llvm::Value* rs = nullptr;    // i64 row stride (elements)
  llvm::Value* cs = nullptr;    // i64 column stride (elements)
};

struct GemmCall {
  ir::ScalarType type = ir::ScalarType::Float64;  // Float32, Float64, Complex64 or Complex128
  llvm::Value *m = nullptr, *n = nullptr, *k = nullptr;  // i64: C is m x n, A m x k, B k x n
  double alpha = 1, beta = 0;
  // Run-time alpha/beta (double), replacing the numbers above: a Gemm whose property names a
  // scalar container, a symbol or an input connector.
  llvm::Value* alpha_value = nullptr;
  llvm::Value* beta_value = nullptr;
  GemmOperand a, b, c;
  std::string where;  // the node or tasklet, for the status of a failed call
  // The state being emitted and the node (library node or tasklet) the product does: a work
  // item of the state's stream plan is queued on its stream (lowering/stream_emit.h).
  codegen::StateEmitter* se = nullptr;
  int node = -1;
};

// The runtime's element type code of `t` (DACE_CUDA_FLOAT32 ...), or nothing for a type cuBLAS
// products do not take here.
std::optional<int32_t> gemm_type_code(ir::ScalarType t);

// Emits the call into `f` at its insertion point; the program's device module is made first
// (init checks for a device; emulated, the call goes to the emulation's gemm).
Status emit_gemm_call(codegen::Frame& f, const GemmCall& call);

}  // namespace dace::cuda
