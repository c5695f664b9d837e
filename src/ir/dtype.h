// Element types of data containers, connectors and symbols.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/out_of_line.h"
#include "ir/tasklet/types.h"

namespace dace::ir {

using tasklet::ScalarType;

// DaCe's typeclass: a scalar, a pointer to one (connectors of non-scalar memlets), an opaque
// C type, or something libdace does not model, kept as its JSON text so it round-trips.
struct DType {
  ScalarType scalar = ScalarType::Unknown;  // Unknown with no raw/opaque = "to be inferred" (JSON null)
  int pointer_depth = 0;
  // Both rare, so out of line: a connector's type is 24 bytes instead of 72.
  OutOfLine<std::string> opaque;    // dace.opaque("T"): C type name
  OutOfLine<std::string> raw_json;  // unmodeled typeclass (e.g. vector, struct), verbatim compact JSON

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

// DaCe's `dace.struct` of scalar fields (np.argmax/argmin reduce `_val_and_idx` pairs),
// as libdace lays it out: fields in DaCe's order at naturally aligned offsets, the size
// rounded up to the largest alignment (a C struct). Only transients may have struct
// elements, so the layout is libdace's own and need not match DaCe's packed ctypes one.
struct StructField {
  std::string name;
  ScalarType type = ScalarType::Unknown;
  int offset = 0;  // bytes
};
struct StructLayout {
  std::string name;
  std::vector<StructField> fields;
  int size = 0;  // bytes
  int align = 1;
  const StructField* field(std::string_view name) const;
};
// The layout of a struct typeclass kept in `raw_json`; nullopt for anything else or for a
// struct with a field that is not a scalar (nested structs, pointers).
std::optional<StructLayout> struct_layout(const DType& t);
// Bytes of one element: the scalar's size or the struct's; 0 when libdace cannot lay it out.
int element_size(const DType& t);

}  // namespace dace::ir
