// The CPU plugin's LAPACK / linear-algebra library nodes and the LAPACKE C++ tasklets of
// DaCe's OpenBLAS expansions, called through LAPACKE (liblapacke.so.3) when the plugin
// registry offers the "OpenBLAS" implementation of the class and the library loaded. There
// is no loop-nest fallback: without LAPACKE the node or tasklet is Unsupported, naming it and
// the library.
//
// Compiled into the plugin and, for tests that lower without loading it, into the unit-test
// binary (target dace_cpu_lowering).
#pragma once
#include <string>
#include <vector>

#include "codegen/state_emit.h"

namespace dace::cpu {

inline constexpr const char* kLapackeLibrary = "liblapacke.so.3";

// The DaCe classes lowered through LAPACKE (the CPU plugin registers "OpenBLAS" for each).
const std::vector<std::string>& lapack_classpaths();

// True when LAPACKE may be called for `classpath` (LowerOptions + registry, as for CBLAS).
bool lapacke_available(const codegen::LowerOptions& options, const std::string& classpath);

// Solve, Inv, Cholesky (dace.libraries.linalg) and Getrf, Getri, Getrs, Potrf, Potrs
// (dace.libraries.lapack); lapack.cpp.
Status emit_lapack_node(codegen::StateEmitter& se, int node);

// C++ tasklets of DaCe's OpenBLAS expansions of those nodes (lapacke_tasklet.cpp):
//   _res = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', N, _xin, N);
//   _res = LAPACKE_zgetrs(LAPACK_ROW_MAJOR, 'N', N, M, (lapack_complex_double*)_a, N, _ipiv, ...);
//   _out = (__i < __j) ? 0 : _inp;        (Cholesky's zeroing of the other triangle)
// is_cpp_lapack_tasklet says whether the code has one of these shapes.
bool is_cpp_lapack_tasklet(const std::string& code);
Status emit_cpp_lapack_tasklet(codegen::StateEmitter& se, int node);

// LAPACKE's matrix layouts (lapacke.h).
inline constexpr int32_t kLapackRowMajor = 101, kLapackColMajor = 102;

}  // namespace dace::cpu
