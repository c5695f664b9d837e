// The C++ that DaCe's library expansions write into tasklets (one vendor call, scalar
// declarations before it), split into its parts for the plugins that lower such tasklets
// (plugin::CppTaskletLowering: the CPU plugin's CBLAS/LAPACKE calls, the CUDA plugin's cuBLAS
// calls). Only the syntax is parsed here; what a call means is the plugin's.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ir/result.h"

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
// in the CPU plugin, cuBLAS in the CUDA plugin).
struct CppScalarDeclaration {
  std::string type;       // the declared type as spelled ("double", "std::complex<float>")
  std::string name;
  std::string init_type;  // T of the initializer; "" for a plain number
  double re = 0, im = 0;
};
// nullopt when the statement is no declaration (no type before the name, or a '(' before
// the '='); Unsupported, naming the part, when it is one whose name or initializer is not.
Result<std::optional<CppScalarDeclaration>> parse_cpp_scalar_declaration(const std::string& statement);

// "double(1)", "1.0", "float(0.5)", "-2" -> the value; nullopt for anything else.
std::optional<double> parse_cpp_number(std::string s);

}  // namespace dace::codegen
