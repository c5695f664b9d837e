// Built-ins of DaCe's C++ runtime (dace/math.h) that DaCe's NumPy frontend writes into Python
// tasklets for ufuncs (py_floor, py_mod, cpp_mod, np_float_pow, gcd, lcm, reciprocal, round,
// heaviside, nextafter, signbit, ldexp, and the parts of np_modf / np_frexp). Results follow
// NumPy where DaCe's runtime and NumPy differ only in corner cases (round half to even, NaN in
// heaviside, x % 0 == 0 for integers).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "codegen/types.h"
#include "ir/result.h"
#include "ir/tasklet/builtins.h"

namespace dace::codegen {

// nullopt when `builtin` is not one of these functions.
std::optional<Result<TypedValue>> emit_runtime_builtin(llvm::IRBuilder<>& b, const tasklet::Builtin& builtin,
                                                      const std::string& fname, const std::vector<TypedValue>& args,
                                                      ScalarType result);

}  // namespace dace::codegen
