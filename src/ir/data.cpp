#include "ir/data.h"

namespace dace::ir {

std::vector<sym::Expr> default_strides(const std::vector<sym::Expr>& shape) {
  std::vector<sym::Expr> strides(shape.size());
  sym::Expr running = sym::integer(1);
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = running;
    running = sym::mul(running, shape[i]);
  }
  return strides;
}

sym::Expr product(const std::vector<sym::Expr>& values) {
  sym::Expr p = sym::integer(1);
  for (auto v : values) p = sym::mul(p, v);
  return p;
}

void complete_defaults(DataDescriptor& d) {
  if (d.json_type.empty()) d.json_type = to_string(d.kind);
  if (d.kind == DataKind::Scalar) {
    if (d.shape.empty()) d.shape = {sym::integer(1)};
    return;
  }
  if (d.kind == DataKind::Stream) {
    if (!d.buffer_size) d.buffer_size = sym::integer(1);
    if (d.offset.empty()) d.offset.assign(d.shape.size(), sym::integer(0));
    return;
  }
  bool c_order = d.strides.empty();
  if (c_order) d.strides = default_strides(d.shape);
  if (d.offset.empty()) d.offset.assign(d.shape.size(), sym::integer(0));
  if (!d.total_size && c_order) d.total_size = product(d.shape);
  if (!d.total_size) {
    // Largest reachable element + 1, which equals the product of the shape for C order.
    sym::Expr extent = sym::integer(1);
    for (size_t i = 0; i < d.shape.size(); ++i) {
      // A constant negative stride (a reversed view) reaches as far as its magnitude.
      sym::Expr stride = d.strides[i];
      if (auto v = sym::as_integer(stride); v && *v < 0) stride = sym::integer(-*v);
      extent = sym::add(extent, sym::mul(sym::sub(d.shape[i], sym::integer(1)), stride));
    }
    d.total_size = d.shape.empty() ? sym::integer(1) : extent;
  }
  if (!d.start_offset) d.start_offset = sym::integer(0);
}

const char* to_string(DataKind k) {
  switch (k) {
    case DataKind::Scalar: return "Scalar";
    case DataKind::Array: return "Array";
    case DataKind::Stream: return "Stream";
    case DataKind::View: return "View";
    case DataKind::Reference: return "Reference";
  }
  return "?";
}

}  // namespace dace::ir
