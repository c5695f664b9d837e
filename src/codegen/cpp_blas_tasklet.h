// C++ tasklets that DaCe's OpenBLAS expansions write (one cblas_?gemm/gemv/dot call):
// lowered to the same CBLAS call when the registry offers OpenBLAS.
// LAPACKE calls (and Cholesky's zeroing tasklet) are handed to cpp_lapack_tasklet.cpp.
#pragma once
#include <optional>
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

// `TYPE NAME = INIT` (one statement, without its ';') declaring a scalar, INIT `T(re)`,
// `T(re, im)` or a number: what DaCe's BLAS expansions declare for alpha and beta (CBLAS
// here, cuBLAS in the CUDA plugin).
struct CppScalarDeclaration {
  std::string type;       // the declared type as spelled ("double", "std::complex<float>")
  std::string name;
  std::string init_type;  // T of the initializer; "" for a plain number
  double re = 0, im = 0;
};
// nullopt when the statement is no declaration (no type before the name, or a '(' before
// the '='); Unsupported, naming the part, when it is one whose name or initializer is not.
Result<std::optional<CppScalarDeclaration>> parse_cpp_scalar_declaration(const std::string& statement);

// Unsupported, naming the tasklet and why, for any other C++ code (or without OpenBLAS).
Status emit_cpp_blas_tasklet(StateEmitter& se, int node);

}  // namespace dace::codegen
