// C++ tasklets that DaCe's OpenBLAS expansions write (one cblas_?gemm/gemv/dot call):
// lowered to the same CBLAS call when the registry offers OpenBLAS.
// LAPACKE calls (and Cholesky's zeroing tasklet) are handed to cpp_lapack_tasklet.cpp.
#pragma once
#include <string>
#include <vector>

#include "codegen/state_emit.h"

namespace dace::codegen {

// One C++ call statement, `[result =] function(arg, ...);`, split at top-level commas.
struct CppCall {
  std::string result;  // "_result" in `_result = cblas_ddot(...)`, else ""
  std::string function;
  std::vector<std::string> args;
};
// Unsupported with the reason when `code` is not one such statement.
Result<CppCall> parse_cpp_call(const std::string& code);
std::string trim_cpp(const std::string& s);
bool is_cpp_identifier(const std::string& s);

// Unsupported, naming the tasklet and why, for any other C++ code (or without OpenBLAS).
Status emit_cpp_blas_tasklet(StateEmitter& se, int node);

}  // namespace dace::codegen
