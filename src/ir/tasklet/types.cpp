#include "ir/tasklet/types.h"

#include <array>

namespace dace::tasklet {

namespace {

struct NameEntry {
  const char* name;
  ScalarType type;
};

// Canonical names first; later entries are accepted aliases.
constexpr std::array<NameEntry, 25> kNames{{
    {"bool", ScalarType::Bool},
    {"int8", ScalarType::Int8},
    {"int16", ScalarType::Int16},
    {"int32", ScalarType::Int32},
    {"int64", ScalarType::Int64},
    {"uint8", ScalarType::UInt8},
    {"uint16", ScalarType::UInt16},
    {"uint32", ScalarType::UInt32},
    {"uint64", ScalarType::UInt64},
    {"float16", ScalarType::Float16},
    {"float32", ScalarType::Float32},
    {"float64", ScalarType::Float64},
    {"complex64", ScalarType::Complex64},
    {"complex128", ScalarType::Complex128},
    {"unknown", ScalarType::Unknown},
    {"bool_", ScalarType::Bool},
    {"boolean", ScalarType::Bool},
    {"half", ScalarType::Float16},
    {"float", ScalarType::Float32},
    {"double", ScalarType::Float64},
    {"int", ScalarType::Int64},
    {"complex", ScalarType::Complex128},
    {"byte", ScalarType::Int8},
    {"ubyte", ScalarType::UInt8},
    {"intp", ScalarType::Int64},
}};

// Smallest float that represents every value of an integer type the way NumPy decides it.
ScalarType float_for_integer(ScalarType t) {
  switch (type_size(t)) {
    case 1: return ScalarType::Float16;
    case 2: return ScalarType::Float32;
    default: return ScalarType::Float64;
  }
}

ScalarType signed_of_size(int bytes) {
  switch (bytes) {
    case 1: return ScalarType::Int8;
    case 2: return ScalarType::Int16;
    case 4: return ScalarType::Int32;
    case 8: return ScalarType::Int64;
    default: return ScalarType::Float64;  // no signed integer holds uint64 and int64
  }
}

ScalarType wider(ScalarType a, ScalarType b) { return type_size(a) >= type_size(b) ? a : b; }

ScalarType promote_real(ScalarType a, ScalarType b) {
  if (a == b) return a;
  if (is_bool(a)) return b;
  if (is_bool(b)) return a;
  if (is_integer(a) && is_integer(b)) {
    if (is_signed_integer(a) == is_signed_integer(b)) return wider(a, b);
    ScalarType s = is_signed_integer(a) ? a : b;
    ScalarType u = is_signed_integer(a) ? b : a;
    if (type_size(s) > type_size(u)) return s;
    return signed_of_size(2 * type_size(u));
  }
  if (is_float(a) && is_float(b)) return wider(a, b);
  ScalarType f = is_float(a) ? a : b;
  ScalarType i = is_float(a) ? b : a;
  return wider(f, float_for_integer(i));
}

}  // namespace

const char* type_name(ScalarType type) {
  for (const NameEntry& e : kNames)
    if (e.type == type) return e.name;
  return "unknown";
}

std::optional<ScalarType> type_from_name(std::string_view name) {
  for (const NameEntry& e : kNames)
    if (name == e.name) return e.type;
  return std::nullopt;
}

bool is_bool(ScalarType t) { return t == ScalarType::Bool; }

bool is_signed_integer(ScalarType t) {
  return t == ScalarType::Int8 || t == ScalarType::Int16 || t == ScalarType::Int32 ||
         t == ScalarType::Int64;
}

bool is_unsigned_integer(ScalarType t) {
  return t == ScalarType::UInt8 || t == ScalarType::UInt16 || t == ScalarType::UInt32 ||
         t == ScalarType::UInt64;
}

bool is_integer(ScalarType t) { return is_signed_integer(t) || is_unsigned_integer(t); }

bool is_float(ScalarType t) {
  return t == ScalarType::Float16 || t == ScalarType::Float32 || t == ScalarType::Float64;
}

bool is_complex(ScalarType t) { return t == ScalarType::Complex64 || t == ScalarType::Complex128; }

bool is_numeric(ScalarType t) { return t != ScalarType::Unknown; }

int type_size(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
    case ScalarType::Int8:
    case ScalarType::UInt8: return 1;
    case ScalarType::Int16:
    case ScalarType::UInt16:
    case ScalarType::Float16: return 2;
    case ScalarType::Int32:
    case ScalarType::UInt32:
    case ScalarType::Float32: return 4;
    case ScalarType::Int64:
    case ScalarType::UInt64:
    case ScalarType::Float64:
    case ScalarType::Complex64: return 8;
    case ScalarType::Complex128: return 16;
    case ScalarType::Unknown: return 0;
  }
  return 0;
}

ScalarType component_type(ScalarType t) {
  if (t == ScalarType::Complex64) return ScalarType::Float32;
  if (t == ScalarType::Complex128) return ScalarType::Float64;
  return t;
}

ScalarType complex_of(ScalarType real) {
  if (is_complex(real)) return real;
  if (real == ScalarType::Float16 || real == ScalarType::Float32) return ScalarType::Complex64;
  return ScalarType::Complex128;
}

ScalarType promote(ScalarType a, ScalarType b) {
  if (a == ScalarType::Unknown || b == ScalarType::Unknown) return ScalarType::Unknown;
  if (is_complex(a) || is_complex(b)) {
    // A complex result's components must hold both operands' real parts.
    return complex_of(promote_real(component_type(a), component_type(b)));
  }
  return promote_real(a, b);
}

}  // namespace dace::tasklet
