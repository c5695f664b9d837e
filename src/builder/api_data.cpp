// Symbols and data descriptors: add, remove, list, read and modify.
#include <iterator>

#include "builder/api_internal.h"
#include "builder/api_options.h"
#include "builder/api_text.h"
#include "ir/data.h"

using namespace dace::capi;
using namespace dace::ir;
using dace::Status;
namespace sym = dace::sym;

namespace {

Status check_free_name(const SDFG& sdfg, const char* name, const char* what) {
  DACE_TRY(check_identifier(name, path_of(sdfg), what));
  if (sdfg.arrays.count(name)) return exists(path_of_data(sdfg, name) + ": a data container of this name exists");
  if (sdfg.symbols.count(name)) return exists(path_of_symbol(sdfg, name) + ": a symbol of this name exists");
  return Status::success();
}

bool is_default_array_field(const dace_array_options_t& o) {
  return !o.strides && !o.offset && !o.total_size && o.alignment == 0 && o.may_alias == 0 && o.optional == 0;
}

Status add_data(dace_sdfg_t* h, const char* name, const dace_dtype_t& dtype, const char* shape,
                const dace_array_options_t* options, DataKind kind, bool force_transient) {
  auto s = sdfg_of(h);
  if (!s) return s.take_error();
  SDFG& sdfg = **s;
  DACE_TRY(check_free_name(sdfg, name, "data name"));
  const std::string where = path_of_data(sdfg, name);
  auto read = read_options(options);
  if (!read) return read.take_error();
  const dace_array_options_t o = *read;
  DataDescriptor d;
  d.kind = kind;
  auto type = to_scalar(dtype, where);
  if (!type) return type.take_error();
  d.dtype = DType::of(*type);
  auto storage = to_storage(o.storage, where);
  if (!storage) return storage.take_error();
  auto lifetime = to_lifetime(o.lifetime, where);
  if (!lifetime) return lifetime.take_error();
  d.storage = *storage;
  d.lifetime = *lifetime;
  d.transient = force_transient || o.transient != 0;

  if (kind == DataKind::Scalar) {
    d.shape = {sym::integer(1)};
  } else if (kind == DataKind::Stream && (!shape || !*shape)) {
    d.shape = {sym::integer(1)};
  } else {
    if (!shape) return invalid(where + ": shape is NULL");
    auto parsed = parse_expr_list(shape, where, "shape");
    if (!parsed) return parsed.take_error();
    d.shape = std::move(*parsed);
  }
  bool array_like = kind == DataKind::Array || kind == DataKind::View || kind == DataKind::Reference;
  if (!array_like && !is_default_array_field(o))
    return invalid(where + ": strides, offset, total_size, alignment, may_alias and optional apply to arrays, "
                   "views and references only");
  if (kind != DataKind::Stream && o.buffer_size) return invalid(where + ": buffer_size applies to streams only");
  if (array_like) {
    if (o.strides && *o.strides) {
      auto st = parse_expr_list(o.strides, where, "strides");
      if (!st) return st.take_error();
      if (st->size() != d.shape.size())
        return invalid(where + ": " + std::to_string(st->size()) + " strides for " + std::to_string(d.shape.size()) +
                       " dimensions");
      d.strides = std::move(*st);
    }
    if (o.offset && *o.offset) {
      auto off = parse_expr_list(o.offset, where, "offset");
      if (!off) return off.take_error();
      if (off->size() != d.shape.size())
        return invalid(where + ": " + std::to_string(off->size()) + " offsets for " +
                       std::to_string(d.shape.size()) + " dimensions");
      d.offset = std::move(*off);
    }
    if (o.total_size && *o.total_size) {
      std::string_view t(o.total_size);
      auto ts = parse_expr(t, trim(t), where, "total_size");
      if (!ts) return ts.take_error();
      d.total_size = *ts;
    }
    if (o.alignment < 0) return invalid(where + ": negative alignment");
    d.alignment = o.alignment;
    d.may_alias = o.may_alias != 0;
    d.optional = o.optional != 0;
  }
  if (kind == DataKind::Stream && o.buffer_size && *o.buffer_size) {
    std::string_view t(o.buffer_size);
    auto b = parse_expr(t, trim(t), where, "buffer_size");
    if (!b) return b.take_error();
    d.buffer_size = *b;
  }
  complete_defaults(d);
  sdfg.arrays.emplace(name, std::move(d));
  return Status::success();
}

// Borrowed-property text of a descriptor; nullopt when the kind lacks it.
std::optional<std::string> data_property(const DataDescriptor& d, std::string_view p) {
  auto expr = [](sym::Expr e) { return e ? sym::to_string(e) : std::string(); };
  bool arr = d.is_array_like();
  if (p == "kind") return std::string(to_string(d.kind));
  if (p == "dtype") return to_string(d.dtype);
  if (p == "shape") return join_exprs(d.shape);
  if (p == "transient") return std::string(d.transient ? "1" : "0");
  if (p == "storage") return std::string(to_string(d.storage));
  if (p == "lifetime") return std::string(to_string(d.lifetime));
  if (arr && p == "strides") return join_exprs(d.strides);
  if ((arr || d.kind == DataKind::Stream) && p == "offset") return join_exprs(d.offset);
  if (arr && p == "total_size") return expr(d.total_size);
  if (arr && p == "start_offset") return expr(d.start_offset);
  if (arr && p == "alignment") return std::to_string(d.alignment);
  if (arr && p == "may_alias") return std::string(d.may_alias ? "1" : "0");
  if (arr && p == "optional") return std::string(d.optional ? "1" : "0");
  if (d.kind == DataKind::Stream && p == "buffer_size") return expr(d.buffer_size);
  return std::nullopt;
}

bool data_in_use(const SDFG& sdfg, const std::string& name, std::string* where) {
  for (const State* st : sdfg.all_states()) {
    for (int id : st->node_ids()) {
      const Node* n = st->node(id);
      if (n->kind == NodeKind::Access && static_cast<const AccessNode*>(n)->data == name) {
        *where = path_of_node(sdfg, *st, id);
        return true;
      }
    }
    for (int id : st->edge_ids()) {
      if (st->edge(id)->memlet.data == name) {
        *where = path_of_edge(sdfg, *st, id);
        return true;
      }
    }
  }
  return false;
}

template <class Fn>
dace_status_t with_data(const dace_sdfg_t* h, const char* name, Fn&& fn) {
  return guard([&]() -> Status {
    auto s = sdfg_of(h);
    if (!s) return s.take_error();
    auto d = find_data(const_cast<SDFG&>(**s), name);
    if (!d) return d.take_error();
    return fn(**s, **d);
  });
}

template <class Fn>
dace_status_t with_mutable_data(dace_sdfg_t* h, const char* name, Fn&& fn) {
  return guard([&]() -> Status {
    auto s = sdfg_of(h);
    if (!s) return s.take_error();
    auto d = find_data(**s, name);
    if (!d) return d.take_error();
    return fn(**s, **d);
  });
}

}  // namespace

extern "C" {

dace_status_t dace_sdfg_add_symbol(dace_sdfg_t* sdfg, const char* name, dace_dtype_t dtype) {
  return guard([&]() -> Status {
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    DACE_TRY(check_free_name(**s, name, "symbol name"));
    auto type = to_scalar(dtype, path_of_symbol(**s, name));
    if (!type) return type.take_error();
    (*s)->symbols.emplace(name, DType::of(*type));
    return Status::success();
  });
}

dace_status_t dace_sdfg_remove_symbol(dace_sdfg_t* sdfg, const char* name) {
  return guard([&]() -> Status {
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    DACE_TRY(require(name, "symbol name"));
    if (!(*s)->symbols.erase(name)) return not_found(path_of_symbol(**s, name) + ": no such symbol");
    return Status::success();
  });
}

dace_status_t dace_sdfg_symbol_count(size_t* out_count, const dace_sdfg_t* sdfg) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_count, "out_count"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    *out_count = (*s)->symbols.size();
    return Status::success();
  });
}

dace_status_t dace_sdfg_get_symbol(const char** out_name, dace_dtype_t* out_dtype, const dace_sdfg_t* sdfg,
                                   size_t index) {
  return guard([&]() -> Status {
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    if (index >= (*s)->symbols.size())
      return not_found(path_of(**s) + ": symbol index " + std::to_string(index) + " out of range (" +
                       std::to_string((*s)->symbols.size()) + " symbols)");
    auto it = std::next((*s)->symbols.begin(), static_cast<std::ptrdiff_t>(index));
    if (out_name) *out_name = keep(it->first);
    if (out_dtype) *out_dtype = static_cast<dace_dtype_t>(it->second.pointer_depth ? dace::ir::ScalarType::Unknown
                                                                                   : it->second.scalar);
    return Status::success();
  });
}

dace_status_t dace_sdfg_get_symbol_dtype(dace_dtype_t* out_dtype, const dace_sdfg_t* sdfg, const char* name) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_dtype, "out_dtype"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    DACE_TRY(require(name, "symbol name"));
    auto it = (*s)->symbols.find(name);
    if (it == (*s)->symbols.end()) return not_found(path_of_symbol(**s, name) + ": no such symbol");
    *out_dtype = static_cast<dace_dtype_t>(it->second.pointer_depth ? dace::ir::ScalarType::Unknown : it->second.scalar);
    return Status::success();
  });
}

dace_status_t dace_sdfg_add_scalar(dace_sdfg_t* sdfg, const char* name, dace_dtype_t dtype,
                                   const dace_array_options_t* options) {
  return guard([&] { return add_data(sdfg, name, dtype, nullptr, options, DataKind::Scalar, false); });
}

dace_status_t dace_sdfg_add_array(dace_sdfg_t* sdfg, const char* name, dace_dtype_t dtype, const char* shape,
                                  const dace_array_options_t* options) {
  return guard([&] { return add_data(sdfg, name, dtype, shape, options, DataKind::Array, false); });
}

dace_status_t dace_sdfg_add_transient(dace_sdfg_t* sdfg, const char* name, dace_dtype_t dtype, const char* shape,
                                      const dace_array_options_t* options) {
  return guard([&] { return add_data(sdfg, name, dtype, shape, options, DataKind::Array, true); });
}

dace_status_t dace_sdfg_add_stream(dace_sdfg_t* sdfg, const char* name, dace_dtype_t dtype, const char* shape,
                                   const dace_array_options_t* options) {
  return guard([&] { return add_data(sdfg, name, dtype, shape, options, DataKind::Stream, false); });
}

dace_status_t dace_sdfg_add_view(dace_sdfg_t* sdfg, const char* name, dace_dtype_t dtype, const char* shape,
                                 const dace_array_options_t* options) {
  return guard([&] { return add_data(sdfg, name, dtype, shape, options, DataKind::View, false); });
}

dace_status_t dace_sdfg_add_reference(dace_sdfg_t* sdfg, const char* name, dace_dtype_t dtype, const char* shape,
                                      const dace_array_options_t* options) {
  return guard([&] { return add_data(sdfg, name, dtype, shape, options, DataKind::Reference, false); });
}

dace_status_t dace_sdfg_remove_data(dace_sdfg_t* sdfg, const char* name) {
  return with_mutable_data(sdfg, name, [&](SDFG& s, DataDescriptor&) -> Status {
    std::string user;
    if (data_in_use(s, name, &user))
      return invalid(path_of_data(s, name) + ": still used by " + user);
    s.arrays.erase(name);
    return Status::success();
  });
}

dace_status_t dace_sdfg_data_count(size_t* out_count, const dace_sdfg_t* sdfg) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_count, "out_count"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    *out_count = (*s)->arrays.size();
    return Status::success();
  });
}

dace_status_t dace_sdfg_get_data_name(const char** out_name, const dace_sdfg_t* sdfg, size_t index) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_name, "out_name"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    if (index >= (*s)->arrays.size())
      return not_found(path_of(**s) + ": data index " + std::to_string(index) + " out of range (" +
                       std::to_string((*s)->arrays.size()) + " containers)");
    *out_name = keep(std::next((*s)->arrays.begin(), static_cast<std::ptrdiff_t>(index))->first);
    return Status::success();
  });
}

dace_status_t dace_data_get_kind(dace_data_kind_t* out_kind, const dace_sdfg_t* sdfg, const char* name) {
  return with_data(sdfg, name, [&](const SDFG&, const DataDescriptor& d) -> Status {
    DACE_TRY(require(out_kind, "out_kind"));
    *out_kind = static_cast<dace_data_kind_t>(d.kind);
    return Status::success();
  });
}

dace_status_t dace_data_get_dtype(dace_dtype_t* out_dtype, const dace_sdfg_t* sdfg, const char* name) {
  return with_data(sdfg, name, [&](const SDFG&, const DataDescriptor& d) -> Status {
    DACE_TRY(require(out_dtype, "out_dtype"));
    bool plain = d.dtype.pointer_depth == 0 && d.dtype.opaque.empty() && d.dtype.raw_json.empty();
    *out_dtype = static_cast<dace_dtype_t>(plain ? d.dtype.scalar : ScalarType::Unknown);
    return Status::success();
  });
}

dace_status_t dace_data_get_transient(int32_t* out_transient, const dace_sdfg_t* sdfg, const char* name) {
  return with_data(sdfg, name, [&](const SDFG&, const DataDescriptor& d) -> Status {
    DACE_TRY(require(out_transient, "out_transient"));
    *out_transient = d.transient ? 1 : 0;
    return Status::success();
  });
}

dace_status_t dace_data_get_storage(dace_storage_t* out_storage, const dace_sdfg_t* sdfg, const char* name) {
  return with_data(sdfg, name, [&](const SDFG&, const DataDescriptor& d) -> Status {
    DACE_TRY(require(out_storage, "out_storage"));
    *out_storage = static_cast<dace_storage_t>(d.storage);
    return Status::success();
  });
}

dace_status_t dace_data_get_lifetime(dace_lifetime_t* out_lifetime, const dace_sdfg_t* sdfg, const char* name) {
  return with_data(sdfg, name, [&](const SDFG&, const DataDescriptor& d) -> Status {
    DACE_TRY(require(out_lifetime, "out_lifetime"));
    *out_lifetime = static_cast<dace_lifetime_t>(d.lifetime);
    return Status::success();
  });
}

dace_status_t dace_data_get_property(const char** out_value, const dace_sdfg_t* sdfg, const char* name,
                                     const char* property) {
  return with_data(sdfg, name, [&](const SDFG& s, const DataDescriptor& d) -> Status {
    DACE_TRY(require(out_value, "out_value"));
    DACE_TRY(require(property, "property"));
    auto v = data_property(d, property);
    if (!v)
      return not_found(path_of_data(s, name) + ": a " + to_string(d.kind) + " has no property " + quoted(property));
    *out_value = keep(std::move(*v));
    return Status::success();
  });
}

dace_status_t dace_data_set_transient(dace_sdfg_t* sdfg, const char* name, int32_t transient) {
  return with_mutable_data(sdfg, name, [&](SDFG&, DataDescriptor& d) -> Status {
    d.transient = transient != 0;
    return Status::success();
  });
}

dace_status_t dace_data_set_storage(dace_sdfg_t* sdfg, const char* name, dace_storage_t storage) {
  return with_mutable_data(sdfg, name, [&](SDFG& s, DataDescriptor& d) -> Status {
    auto v = to_storage(storage, path_of_data(s, name));
    if (!v) return v.take_error();
    d.storage = *v;
    return Status::success();
  });
}

dace_status_t dace_data_set_lifetime(dace_sdfg_t* sdfg, const char* name, dace_lifetime_t lifetime) {
  return with_mutable_data(sdfg, name, [&](SDFG& s, DataDescriptor& d) -> Status {
    auto v = to_lifetime(lifetime, path_of_data(s, name));
    if (!v) return v.take_error();
    d.lifetime = *v;
    return Status::success();
  });
}

dace_status_t dace_data_set_shape(dace_sdfg_t* sdfg, const char* name, const char* shape) {
  return with_mutable_data(sdfg, name, [&](SDFG& s, DataDescriptor& d) -> Status {
    const std::string where = path_of_data(s, name);
    if (d.kind == DataKind::Scalar) return invalid(where + ": a Scalar has no shape to set");
    DACE_TRY(require(shape, "shape"));
    auto parsed = parse_expr_list(shape, where, "shape");
    if (!parsed) return parsed.take_error();
    d.shape = std::move(*parsed);
    d.strides.clear();
    d.offset.clear();
    d.total_size = nullptr;
    d.start_offset = nullptr;
    complete_defaults(d);
    return Status::success();
  });
}

dace_status_t dace_data_set_strides(dace_sdfg_t* sdfg, const char* name, const char* strides) {
  return with_mutable_data(sdfg, name, [&](SDFG& s, DataDescriptor& d) -> Status {
    const std::string where = path_of_data(s, name);
    if (!d.is_array_like()) return invalid(where + ": only an Array, View or Reference has strides");
    std::vector<dace::sym::Expr> parsed_strides;
    if (strides && *strides) {
      auto parsed = parse_expr_list(strides, where, "strides");
      if (!parsed) return parsed.take_error();
      if (parsed->size() != d.shape.size())
        return invalid(where + ": " + std::to_string(parsed->size()) + " strides for a shape of rank " +
                       std::to_string(d.shape.size()));
      parsed_strides = std::move(*parsed);
    }
    d.strides = std::move(parsed_strides);
    // The total size follows from shape and layout; keep DaCe's derivation for it.
    d.total_size = nullptr;
    complete_defaults(d);
    return Status::success();
  });
}

}  // extern "C"

