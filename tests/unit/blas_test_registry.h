// The CPU plugin's registrations for tests that compile MatMul-family nodes: the
// CPU_Multicore schedule, its C++ tasklet lowering and (optionally) its OpenBLAS lowering of
// MatMul, Gemm, Gemv and Dot, and libopenblas loaded into the test JIT session.
#pragma once
#include <memory>

#include "plugin/registry.h"

namespace dace::codegen::testing {

// `with_blas` false leaves the OpenBLAS expansions out; `blas_loaded` is the vendor library
// status the registry reports.
std::unique_ptr<plugin::Registry> make_blas_registry(bool with_blas, bool blas_loaded);

// True once libopenblas is loaded into the test JIT session (false where it is not installed).
bool openblas_in_session();

}  // namespace dace::codegen::testing
