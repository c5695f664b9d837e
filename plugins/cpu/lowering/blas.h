// The CPU plugin's OpenBLAS lowerings: MatMul, Gemm, Gemv and Dot nodes as CBLAS calls, with
// the core's loop nest (codegen/library_matmul.h) for the layouts CBLAS cannot take
// (blas.cpp), and the C++ tasklets of DaCe's OpenBLAS expansions, one CBLAS call each
// (cblas_tasklet.cpp; LAPACKE calls go on to lapacke_tasklet.cpp).
//
// Compiled into the plugin and, for tests that lower without loading it, into the unit-test
// binary (target dace_cpu_lowering).
#pragma once
#include <string>
#include <vector>

#include "codegen/plugin_nodes.h"

namespace dace::cpu {

inline constexpr const char* kOpenBlasLibrary = "libopenblas.so.0";

// The DaCe classes with an OpenBLAS implementation (the plugin registers "OpenBLAS" for each).
const std::vector<std::string>& blas_classpaths();

// A node of one of those classes: the CBLAS call, or the core's loop nest where the node runs
// in device code, vendor libraries are off (LowerOptions::use_vendor_libraries) or the
// operands have no CBLAS form (decided at run time when strides are symbolic).
Status lower_blas_node(codegen::LibraryNodeContext& context);

// A C++ tasklet that is one CBLAS call of DaCe's expansions (or a LAPACKE call, or the
// zeroing tasklet of DaCe's Cholesky expansion: lapack.h); Unsupported, naming the tasklet
// and why, for any other code, and for the calls while OpenBLAS is not available.
Status emit_cpp_blas_tasklet(codegen::StateEmitter& se, int node);

}  // namespace dace::cpu
