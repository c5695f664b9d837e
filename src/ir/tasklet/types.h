// Scalar types of the tasklet language and DaCe/NumPy type promotion.
// Self-contained on purpose: the IR layer may later move it next to the data descriptors.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace dace::tasklet {

enum class ScalarType {
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Float16,
  Float32,
  Float64,
  Complex64,
  Complex128,
  Unknown,
};

// DaCe's name of the type ("float64", "int32", "bool", "complex128"; "unknown" for Unknown).
const char* type_name(ScalarType type);

// Accepts DaCe's names, including the "bool_" spelling DaCe's JSON writes, and the aliases
// "float"/"double"/"half"/"int"/"complex" as DaCe's typeclasses do. Unknown names: nullopt.
std::optional<ScalarType> type_from_name(std::string_view name);

bool is_bool(ScalarType type);
bool is_integer(ScalarType type);  // signed or unsigned, not bool
bool is_signed_integer(ScalarType type);
bool is_unsigned_integer(ScalarType type);
bool is_float(ScalarType type);    // real floating point
bool is_complex(ScalarType type);
bool is_numeric(ScalarType type);  // anything but Unknown

// Size in bytes (0 for Unknown).
int type_size(ScalarType type);

// NumPy's result_type for two typed operands (array-array promotion, no value-based
// casting): bool yields to anything; same-signedness integers take the wider; a signed and an
// unsigned integer give the smallest signed integer holding both (int64 + uint64 -> float64);
// an integer and a float give a float wide enough for the integer (int8/uint8 -> float16,
// 16-bit -> float32, 32/64-bit -> float64) and at least the float's width; complex absorbs
// everything with its component promoted the same way. Unknown in, Unknown out.
ScalarType promote(ScalarType a, ScalarType b);

// Real type of a complex type's components (complex64 -> float32); identity otherwise.
ScalarType component_type(ScalarType type);

// Complex type whose components are `real` (float32 -> complex64, float64 -> complex128,
// float16 -> complex64); integers go to complex128.
ScalarType complex_of(ScalarType real);

}  // namespace dace::tasklet
