// The CPU plugin's vendor-library lowerings behind the plugin interface (docs/plugins.md
// "Lowering interface"): the "OpenBLAS" implementations of the BLAS node classes (CBLAS,
// blas.h) and of the LAPACK / linear-algebra classes (LAPACKE, lapack.h), which lower the
// nodes to LLVM IR themselves, and the C++ tasklet lowering of DaCe's CBLAS / LAPACKE
// tasklets. The vendor libraries themselves are declared by plugin.cpp (add_vendor_library);
// the implementations are used only when the registry reports theirs loaded.
//
// Compiled into the plugin and, for tests that lower without loading it, into the unit-test
// binary (target dace_cpu_lowering).
#pragma once

#include "plugin/registry.h"

namespace dace::cpu {

// The implementation name DaCe gives these expansions (for LAPACK too).
inline constexpr const char* kOpenBlasImplementation = "OpenBLAS";

// "OpenBLAS" for MatMul, Gemm, Gemv and Dot, calling libopenblas.so.0.
Status register_blas(plugin::Registry& registry);
// "OpenBLAS" for Solve, Inv, Cholesky, Getrf, Getri, Getrs, Potrf and Potrs, calling
// liblapacke.so.3.
Status register_lapack(plugin::Registry& registry);
// The C++ tasklets that name CBLAS or LAPACKE functions, and Cholesky's zeroing tasklet.
Status register_cpp_tasklets(plugin::Registry& registry);

}  // namespace dace::cpu
