#include "ir/dtype.h"

#include <array>
#include <utility>

#include <nlohmann/json.hpp>

namespace dace::ir {
namespace {

struct TypeName {
  ScalarType type;
  const char* name;
  int size;
};

constexpr std::array<TypeName, 14> kTypes{{
    {ScalarType::Bool, "bool", 1},        {ScalarType::Int8, "int8", 1},
    {ScalarType::Int16, "int16", 2},      {ScalarType::Int32, "int32", 4},
    {ScalarType::Int64, "int64", 8},      {ScalarType::UInt8, "uint8", 1},
    {ScalarType::UInt16, "uint16", 2},    {ScalarType::UInt32, "uint32", 4},
    {ScalarType::UInt64, "uint64", 8},    {ScalarType::Float16, "float16", 2},
    {ScalarType::Float32, "float32", 4},  {ScalarType::Float64, "float64", 8},
    {ScalarType::Complex64, "complex64", 8}, {ScalarType::Complex128, "complex128", 16},
}};

}  // namespace

std::optional<ScalarType> parse_scalar_type(std::string_view name) {
  if (name.starts_with("dace.")) name.remove_prefix(5);
  if (name == "bool_") return ScalarType::Bool;
  for (const auto& t : kTypes)
    if (name == t.name) return t.type;
  return std::nullopt;
}

const char* scalar_type_name(ScalarType t) {
  for (const auto& e : kTypes)
    if (e.type == t) return e.name;
  return "unknown";
}

int scalar_type_size(ScalarType t) {
  for (const auto& e : kTypes)
    if (e.type == t) return e.size;
  return 0;
}

std::string to_string(const DType& t) {
  if (!t.raw_json.empty()) return t.raw_json;
  if (!t.opaque.empty()) return "opaque(" + t.opaque.get() + ")";
  std::string s = scalar_type_name(t.scalar);
  for (int i = 0; i < t.pointer_depth; ++i) s += '*';
  return s;
}

std::optional<DType> parse_dtype(std::string_view text) {
  DType d;
  while (!text.empty() && text.back() == '*') {
    ++d.pointer_depth;
    text.remove_suffix(1);
  }
  auto s = parse_scalar_type(text);
  if (!s) return std::nullopt;
  d.scalar = *s;
  return d;
}

const StructField* StructLayout::field(std::string_view n) const {
  for (const StructField& f : fields)
    if (f.name == n) return &f;
  return nullptr;
}

std::optional<StructLayout> struct_layout(const DType& t) {
  if (t.raw_json.empty() || t.pointer_depth != 0) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(t.raw_json.get(), nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || j.value("type", "") != "struct" || !j.contains("data") || !j["data"].is_array())
    return std::nullopt;
  StructLayout out;
  if (j.contains("name") && j["name"].is_string()) out.name = j["name"].get<std::string>();
  int at = 0;
  for (const auto& entry : j["data"]) {
    // DaCe writes [["idx", "int32"], ["val", "float64"]]: name and scalar typeclass.
    if (!entry.is_array() || entry.size() != 2 || !entry[0].is_string() || !entry[1].is_string()) return std::nullopt;
    std::optional<ScalarType> ft = parse_scalar_type(entry[1].get<std::string>());
    if (!ft) return std::nullopt;
    int size = scalar_type_size(*ft);
    int align = *ft == ScalarType::Complex128 || *ft == ScalarType::Complex64 ? size / 2 : size;
    at = (at + align - 1) / align * align;
    out.fields.push_back(StructField{entry[0].get<std::string>(), *ft, at});
    at += size;
    out.align = std::max(out.align, align);
  }
  if (out.fields.empty()) return std::nullopt;
  out.size = (at + out.align - 1) / out.align * out.align;
  return out;
}

int element_size(const DType& t) {
  if (t.pointer_depth == 0 && t.opaque.empty() && t.raw_json.empty()) return scalar_type_size(t.scalar);
  if (auto s = struct_layout(t)) return s->size;
  // An opaque C type (MPI_Request, MPI_Comm) is stored as one pointer-sized handle: the
  // handles DaCe's libraries declare this way fit (the plugin's runtime checks its own).
  if (t.pointer_depth == 0 && !t.opaque.empty()) return 8;
  return 0;
}

}  // namespace dace::ir
