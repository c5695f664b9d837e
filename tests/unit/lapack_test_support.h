// A registry as the CPU plugin fills it for LAPACK: CPU_Multicore and the "OpenBLAS"
// (LAPACKE) implementation of every class codegen lowers through liblapacke.so.3, which is
// loaded into the test JIT session. Shared by codegen_lapack_test and codegen_lapack_tasklet_test.
#pragma once
#include <memory>

#include "codegen/lower.h"
#include "plugin/registry.h"

namespace dace::codegen::testing {

// `with_lapack` false leaves the expansions out; `loaded` is the vendor library's status.
std::unique_ptr<plugin::Registry> make_lapack_registry(bool with_lapack, bool loaded);
// True once liblapacke.so.3 is loaded into the test session.
bool lapacke_loaded();
const plugin::Registry& lapack_registry();
LowerOptions with_lapack();

#define REQUIRE_LAPACKE()                                                              \
  do {                                                                                 \
    if (!::dace::codegen::testing::lapacke_loaded())                                   \
      GTEST_SKIP() << "liblapacke.so.3 cannot be loaded here (Debian: liblapacke)"; \
  } while (0)

}  // namespace dace::codegen::testing
