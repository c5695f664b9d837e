// Element types of data containers, connectors and symbols.
#pragma once
#include <string>
#include <string_view>

#include "ir/tasklet/types.h"

namespace dace::ir {

using tasklet::ScalarType;

// DaCe's typeclass: a scalar, a pointer to one (connectors of non-scalar memlets), an opaque
// C type, or something libdace does not model, kept as its JSON text so it round-trips.
struct DType {
  ScalarType scalar = ScalarType::Unknown;  // Unknown with no raw/opaque = "to be inferred" (JSON null)
  int pointer_depth = 0;
  std::string opaque;    // dace.opaque("T"): C type name
  std::string raw_json;  // unmodeled typeclass (e.g. vector, struct), verbatim compact JSON

  static DType of(ScalarType s) { DType d; d.scalar = s; return d; }
  static DType pointer_to(ScalarType s) { DType d; d.scalar = s; d.pointer_depth = 1; return d; }
  bool is_unknown() const { return scalar == ScalarType::Unknown && opaque.empty() && raw_json.empty(); }
  bool operator==(const DType&) const = default;
};

// "float64", "int32", "bool" (DaCe also writes "bool_"), "complex128", ... ; nullopt if unknown.
std::optional<ScalarType> parse_scalar_type(std::string_view name);
// DaCe's canonical name ("bool", not "bool_").
const char* scalar_type_name(ScalarType t);
// Size in bytes; 0 for Unknown.
int scalar_type_size(ScalarType t);
// Text form used by the C API and messages: "float64", "float64*", "opaque(T)".
std::string to_string(const DType& t);
// Inverse of to_string for scalar and pointer forms; nullopt otherwise.
std::optional<DType> parse_dtype(std::string_view text);

}  // namespace dace::ir
