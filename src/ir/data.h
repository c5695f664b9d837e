// Data descriptors (DaCe's `dace.data`): Scalar, Array, Stream, View, Reference.
#pragma once
#include <string>
#include <vector>

#include "ir/common.h"
#include "ir/dtype.h"
#include "ir/symbolic/expr.h"

namespace dace::ir {

enum class DataKind { Scalar, Array, Stream, View, Reference };

struct DataDescriptor {
  DataKind kind = DataKind::Array;
  // Class name in JSON ("Array", "ArrayView", "View", "Reference", "ArrayReference", ...), kept
  // so that subclasses libdace treats alike are written back under their own name.
  std::string json_type;
  DType dtype = DType::of(ScalarType::Float64);
  std::vector<sym::Expr> shape;       // Scalar: {1}
  bool transient = false;
  StorageType storage = StorageType::Default;
  Lifetime lifetime = Lifetime::Scope;
  DebugInfo debuginfo;

  // Array, View, Reference
  std::vector<sym::Expr> strides;     // in elements
  std::vector<sym::Expr> offset;
  sym::Expr total_size = nullptr;
  sym::Expr start_offset = nullptr;
  int64_t alignment = 0;
  bool may_alias = false;
  bool optional = false;
  bool allow_conflicts = false;

  // Stream
  sym::Expr buffer_size = nullptr;

  ExtraProperties extra;

  size_t rank() const { return shape.size(); }
  bool is_array_like() const { return kind == DataKind::Array || kind == DataKind::View || kind == DataKind::Reference; }
};

// C-order strides and total size for a shape (DaCe's defaults).
std::vector<sym::Expr> default_strides(const std::vector<sym::Expr>& shape);
sym::Expr product(const std::vector<sym::Expr>& values);
// Fills strides/offset/total_size/start_offset left empty, as DaCe's constructors do.
void complete_defaults(DataDescriptor& d);

const char* to_string(DataKind k);

}  // namespace dace::ir
