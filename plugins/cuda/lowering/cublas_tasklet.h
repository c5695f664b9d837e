// DaCe's cuBLAS C++ tasklets (the "cuBLAS" expansions of Gemm, Gemv and Dot in *.gpu.sdfg
// files), e.g. gemm's
//   const int __dace_cuda_device = -1;
//   cublasHandle_t &__dace_cublas_handle = __state->cublas_handle.Get(__dace_cuda_device);
//   cublasSetStream(__dace_cublas_handle, __dace_current_stream);
//   cublasDgemm(__dace_cublas_handle, CUBLAS_OP_N, CUBLAS_OP_N, NJ, NI, NK,
//               __state->cublas_handle.Constants(__dace_cuda_device).DoublePone(),
//               (double*)_b, NJ, (double*)_a, NK,
//               __state->cublas_handle.Constants(__dace_cuda_device).DoubleZero(), (double*)_c, NJ);
// or, with other scalars, host pointer mode and declared `double alpha = double(2);` passed
// as `(double *)&alpha`. Recognized exactly (statement by statement) and lowered to the
// plugin's own cuBLAS call (gemm_call.h: dace_cuda_gemm, run by the same plan emulated);
// anything else a tasklet naming cuBLAS holds is refused, naming the tasklet.
#pragma once
#include <string_view>

#include "codegen/target_lowering.h"

namespace dace::cuda {

// Whether the C++ code is the CUDA plugin's to lower (it talks to cuBLAS).
bool is_cublas_tasklet(std::string_view code);

Status lower_cublas_tasklet(codegen::CppTaskletContext& context);

}  // namespace dace::cuda
