// The functions and constants tasklet code may name (math.*, dace.math.*, numpy/np.*, Python
// builtins, DaCe/NumPy casts), with their arity and result-type rule.
#pragma once
#include <optional>
#include <string_view>

#include "ir/tasklet/types.h"

namespace dace::tasklet {

enum class BuiltinRule {
  FloatMath,      // sin, exp, sqrt, ...: float/complex keep their type, bool/int -> float64
  RealMath,       // floor, ceil, erf, ...: like FloatMath, complex rejected
  FloatBinary,    // atan2, hypot, fmod, copysign: promoted, then bool/int -> float64
  PowLike,        // pow, power: as the `**` operator
  MinMax,         // min, max, fmin, fmax, minimum, maximum: promoted over all arguments
  Abs,            // abs: same type; complex -> its component type
  Sign,           // sign: same type
  Predicate,      // isnan, isinf, isfinite -> bool
  RealPart,       // real, imag -> component type
  Conj,           // conj: same type
  IntBinary,      // int_floor, int_ceil (DaCe): integer division helpers -> promoted integer
  PyArith,        // py_floor, py_mod, cpp_mod (DaCe's runtime helpers): promoted, bool -> int64
  FloatPow,       // np_float_pow: float64 (complex128 for complex)
  IntegerOnly,    // gcd, lcm: promoted integer; floats rejected
  Reciprocal,     // reciprocal: promoted, bool -> int64
  FirstFloat,     // ldexp(x, i): x's float type
  FrexpExponent,  // np_frexp_exponent: int32
  Cast,           // float(x), int(x), dace.float32(x), np.int64(x), ...: -> `cast_type`
};

struct Builtin {
  std::string_view name;  // bare name, without module prefix
  BuiltinRule rule;
  int min_args;
  int max_args;  // -1: unbounded
  ScalarType cast_type = ScalarType::Unknown;  // Cast only
};

// Resolves a called dotted name: "math.sin", "dace.math.exp", "np.maximum", "dace.float32",
// "numpy.int64", bare "exp"/"tanh" (DaCe writes them), and the Python builtins "abs", "min",
// "max", "float", "int", "bool", "complex", "pow". nullopt for anything else.
std::optional<Builtin> find_builtin(std::string_view dotted);

// Module-level constants ("math.pi", "math.e", "math.inf", "math.nan", "math.tau", and the
// same under numpy/np/dace.math): their value. nullopt when not a known constant.
std::optional<double> find_constant(std::string_view dotted);

// "math", "dace", "numpy", "np", "cmath": names that are modules, not values.
bool is_module_name(std::string_view name);

// CUDA's thread/block indices and dimensions as DaCe's GPU expansions write them in Python
// tasklets: "threadIdx.x", "blockIdx.y", "blockDim.z", "gridDim.x", ...
bool is_gpu_builtin(std::string_view dotted);

}  // namespace dace::tasklet
