// Matrix products (MatMul, Gemm, Gemv, Dot) whose operands live in GPU_Global memory, in
// host code: one cuBLAS gemm call through the runtime (dace_cuda_gemm: libcublas opened at
// run time; emulated, the same call plan run on the host). docs/cuda.md "Matrix products".
#pragma once
#include "codegen/plugin_nodes.h"

namespace dace::cuda {

Status lower_device_matmul(codegen::LibraryNodeContext& context);

}  // namespace dace::cuda
