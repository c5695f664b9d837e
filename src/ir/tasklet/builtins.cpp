#include "ir/tasklet/builtins.h"

#include <cmath>
#include <limits>
#include <string>

namespace dace::tasklet {

namespace {

using R = BuiltinRule;

constexpr Builtin kFunctions[] = {
    {"sin", R::FloatMath, 1, 1},     {"cos", R::FloatMath, 1, 1},
    {"tan", R::FloatMath, 1, 1},     {"asin", R::FloatMath, 1, 1},
    {"acos", R::FloatMath, 1, 1},    {"atan", R::FloatMath, 1, 1},
    {"arcsin", R::FloatMath, 1, 1},  {"arccos", R::FloatMath, 1, 1},
    {"arctan", R::FloatMath, 1, 1},  {"sinh", R::FloatMath, 1, 1},
    {"cosh", R::FloatMath, 1, 1},    {"tanh", R::FloatMath, 1, 1},
    {"asinh", R::FloatMath, 1, 1},   {"acosh", R::FloatMath, 1, 1},
    {"atanh", R::FloatMath, 1, 1},   {"arcsinh", R::FloatMath, 1, 1},
    {"arccosh", R::FloatMath, 1, 1}, {"arctanh", R::FloatMath, 1, 1},
    {"exp", R::FloatMath, 1, 1},     {"exp2", R::FloatMath, 1, 1},
    {"expm1", R::FloatMath, 1, 1},   {"log", R::FloatMath, 1, 1},
    {"log2", R::FloatMath, 1, 1},    {"log10", R::FloatMath, 1, 1},
    {"log1p", R::FloatMath, 1, 1},   {"sqrt", R::FloatMath, 1, 1},
    {"cbrt", R::RealMath, 1, 1},     {"ceil", R::RealMath, 1, 1},
    {"floor", R::RealMath, 1, 1},    {"trunc", R::RealMath, 1, 1},
    {"rint", R::RealMath, 1, 1},     {"fabs", R::RealMath, 1, 1},
    {"erf", R::RealMath, 1, 1},      {"erfc", R::RealMath, 1, 1},
    {"gamma", R::RealMath, 1, 1},    {"lgamma", R::RealMath, 1, 1},
    {"degrees", R::RealMath, 1, 1},  {"radians", R::RealMath, 1, 1},
    {"atan2", R::FloatBinary, 2, 2}, {"arctan2", R::FloatBinary, 2, 2},
    {"hypot", R::FloatBinary, 2, 2}, {"fmod", R::FloatBinary, 2, 2},
    {"copysign", R::FloatBinary, 2, 2},
    {"pow", R::PowLike, 2, 2},       {"power", R::PowLike, 2, 2},
    {"min", R::MinMax, 2, -1},       {"max", R::MinMax, 2, -1},
    {"fmin", R::MinMax, 2, 2},       {"fmax", R::MinMax, 2, 2},
    {"minimum", R::MinMax, 2, 2},    {"maximum", R::MinMax, 2, 2},
    {"abs", R::Abs, 1, 1},           {"absolute", R::Abs, 1, 1},
    {"sign", R::Sign, 1, 1},
    {"isnan", R::Predicate, 1, 1},   {"isinf", R::Predicate, 1, 1},
    {"isfinite", R::Predicate, 1, 1},
    {"real", R::RealPart, 1, 1},     {"imag", R::RealPart, 1, 1},
    {"conj", R::Conj, 1, 1},         {"conjugate", R::Conj, 1, 1},
    {"int_floor", R::IntBinary, 2, 2}, {"int_ceil", R::IntBinary, 2, 2},
    // Helpers of DaCe's C++ runtime (dace/math.h) that its NumPy frontend writes into Python
    // tasklets for ufuncs; np_modf_* and np_frexp_* are the two results of np_modf/np_frexp,
    // which the parser splits into one assignment per output.
    {"py_floor", R::PyArith, 2, 2},  {"py_mod", R::PyArith, 2, 2},
    {"cpp_mod", R::PyArith, 2, 2},   {"np_float_pow", R::FloatPow, 2, 2},
    {"gcd", R::IntegerOnly, 2, 2},   {"lcm", R::IntegerOnly, 2, 2},
    {"reciprocal", R::Reciprocal, 1, 1},
    {"round", R::RealMath, 1, 1},    {"rad2deg", R::RealMath, 1, 1},
    {"deg2rad", R::RealMath, 1, 1},  {"heaviside", R::FloatBinary, 2, 2},
    {"nextafter", R::FloatBinary, 2, 2},
    {"signbit", R::Predicate, 1, 1}, {"ldexp", R::FirstFloat, 2, 2},
    {"np_modf_integral", R::RealMath, 1, 1}, {"np_modf_fractional", R::RealMath, 1, 1},
    {"np_frexp_mantissa", R::RealMath, 1, 1}, {"np_frexp_exponent", R::FrexpExponent, 1, 1},
};

// Python's own conversions: float is a double, int a 64-bit integer in DaCe's code.
constexpr Builtin kPythonCasts[] = {
    {"float", R::Cast, 1, 1, ScalarType::Float64},
    {"int", R::Cast, 1, 1, ScalarType::Int64},
    {"bool", R::Cast, 1, 1, ScalarType::Bool},
    {"complex", R::Cast, 1, 2, ScalarType::Complex128},
};

// Type names callable as casts under dace./numpy./np. (and bare, as DaCe sometimes writes).
constexpr std::string_view kCastNames[] = {
    "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128"};

constexpr std::string_view kModulePrefixes[] = {"dace.math.", "math.", "cmath.", "numpy.",
                                                "np.", "dace."};

std::optional<Builtin> find_bare(std::string_view name, bool with_prefix) {
  for (const Builtin& b : kFunctions)
    if (b.name == name) return b;
  for (std::string_view c : kCastNames)
    if (c == name) return Builtin{c, R::Cast, 1, 1, type_from_name(c).value_or(ScalarType::Unknown)};
  // `dace.bool(x)` / `np.bool(x)` name the NumPy type; bare `bool(x)` is Python's.
  if (with_prefix && name == "bool") return Builtin{name, R::Cast, 1, 1, ScalarType::Bool};
  if (!with_prefix)
    for (const Builtin& b : kPythonCasts)
      if (b.name == name) return b;
  return std::nullopt;
}

std::string_view strip_module(std::string_view dotted, bool& stripped) {
  stripped = false;
  for (std::string_view p : kModulePrefixes) {
    if (dotted.substr(0, p.size()) == p) {
      stripped = true;
      return dotted.substr(p.size());
    }
  }
  return dotted;
}

}  // namespace

std::optional<Builtin> find_builtin(std::string_view dotted) {
  bool stripped = false;
  std::string_view name = strip_module(dotted, stripped);
  if (name.find('.') != std::string_view::npos) return std::nullopt;
  return find_bare(name, stripped);
}

std::optional<double> find_constant(std::string_view dotted) {
  bool stripped = false;
  std::string_view name = strip_module(dotted, stripped);
  if (!stripped) return std::nullopt;
  if (name == "pi") return 3.14159265358979323846;
  if (name == "e") return 2.71828182845904523536;
  if (name == "tau") return 6.28318530717958647692;
  if (name == "inf") return std::numeric_limits<double>::infinity();
  if (name == "nan") return std::numeric_limits<double>::quiet_NaN();
  return std::nullopt;
}

bool is_module_name(std::string_view name) {
  return name == "math" || name == "dace" || name == "numpy" || name == "np" || name == "cmath";
}

bool is_gpu_builtin(std::string_view dotted) {
  for (std::string_view base : {"threadIdx.", "blockIdx.", "blockDim.", "gridDim."}) {
    if (dotted.substr(0, base.size()) != base) continue;
    std::string_view member = dotted.substr(base.size());
    return member == "x" || member == "y" || member == "z";
  }
  return false;
}

}  // namespace dace::tasklet
