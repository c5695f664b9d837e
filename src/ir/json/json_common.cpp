// Property readers with element-path errors, and the value conversions (symbolic
// expressions, ranges, typeclasses, code blocks, debug info) both ways.
#include <cstdlib>
#include <unordered_map>

#include "ir/json/json_internal.h"
#include "ir/path.h"

namespace dace::ir::json::detail {

Dialect Dialect::parse(std::string_view version) {
  Dialect d;
  int* parts[3] = {&d.major, &d.minor, &d.patch};
  size_t i = 0;
  for (int k = 0; k < 3 && i < version.size(); ++k) {
    int v = 0;
    bool any = false;
    while (i < version.size() && version[i] >= '0' && version[i] <= '9' && v < 100000) {
      v = v * 10 + (version[i] - '0');
      ++i;
      any = true;
    }
    if (!any) break;
    *parts[k] = v;
    if (i < version.size() && version[i] == '.') ++i;
    else break;
  }
  return d;
}

std::string shorten_path(std::string_view path, size_t keep_head, size_t keep_tail) {
  static constexpr std::string_view kSep = " / ";
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    size_t next = path.find(kSep, start);
    if (next == std::string_view::npos) {
      parts.push_back(path.substr(start));
      break;
    }
    parts.push_back(path.substr(start, next - start));
    start = next + kSep.size();
  }
  if (parts.size() <= keep_head + keep_tail + 1) return std::string(path);
  std::string out;
  for (size_t i = 0; i < keep_head; ++i) out.append(parts[i]).append(kSep);
  out += "... (" + std::to_string(parts.size() - keep_head - keep_tail) + " more) ...";
  for (size_t i = parts.size() - keep_tail; i < parts.size(); ++i) out.append(kSep).append(parts[i]);
  return out;
}

namespace {

std::string shorten_text(const std::string& text, size_t max_chars) {
  if (text.size() <= max_chars) return text;
  const size_t head = max_chars / 2, tail = max_chars / 4;
  return text.substr(0, head) + " ... (" + std::to_string(text.size() - head - tail) + " characters) ... " +
         text.substr(text.size() - tail);
}

}  // namespace

Error parse_error(const std::string& path, std::string_view property, const std::string& what) {
  std::string msg = path.size() > kMaxPathChars ? shorten_path(path, 1, 3) : path;
  if (!property.empty()) msg += ": property " + ir::quoted(property);
  msg += ": " + shorten_text(what, kMaxWhatChars);
  return make_error(Code::ParseError, std::move(msg));
}

Error nesting_error(const std::string& path) {
  return make_error(Code::ParseError, shorten_path(path, 1, 1) + ": SDFGs and control-flow regions nested deeper than " +
                                          std::to_string(kMaxDepth) + " levels");
}

std::string compact(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

namespace {

const char* type_word(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::object: return "object";
    case Json::value_t::array: return "array";
    case Json::value_t::string: return "string";
    case Json::value_t::boolean: return "boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return "integer";
    case Json::value_t::number_float: return "number";
    default: return "value";
  }
}

std::string expected(const char* what, const Json& got) {
  return std::string("expected ") + what + ", got " + type_word(got);
}

}  // namespace

// ---------------------------------------------------------------------------- values

Result<sym::Expr> parse_expr_value(const Json& v, const std::string& path, std::string_view key) {
  if (v.is_number_integer() || v.is_number_unsigned()) {
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
      return parse_error(path, key, "integer out of range");
    return sym::integer(v.get<int64_t>());
  }
  // DaCe writes a SymExpr (an exact expression with an approximation for analyses, e.g. the
  // end of a tile `Min(N - 1, t + 127)` approximated by `t + 127`) as {"main", "approx"}; the
  // exact one is the value.
  if (v.is_object()) {
    auto main = v.find("main");
    if (main == v.end() || !main->is_string())
      return parse_error(path, key, "expected a symbolic expression string or {\"main\": ..., \"approx\": ...}");
    return parse_expr_value(*main, path, key);
  }
  if (!v.is_string()) return parse_error(path, key, expected("symbolic expression string", v));
  return parse_expr_text(v.get_ref<const std::string&>(), path, key);
}

Result<sym::Expr> parse_expr_text(const std::string& text, const std::string& path, std::string_view key) {
  // Files repeat the same few expressions (indices, `1`, `N - 1`) millions of times in large
  // SDFGs; parsing is a pure function of the text (expressions are interned), so short texts
  // are looked up first. Bounded; per thread, so no locking.
  constexpr size_t kCachedChars = 32, kCacheEntries = 1 << 14;
  thread_local std::unordered_map<std::string, sym::Expr> cache;
  const bool cacheable = text.size() <= kCachedChars;
  if (cacheable) {
    if (auto hit = cache.find(text); hit != cache.end()) return hit->second;
  }
  auto e = sym::parse(text);
  if (!e) return parse_error(path, key, e.error().message);
  if (cacheable) {
    if (cache.size() >= kCacheEntries) cache.clear();
    cache.emplace(text, *e);
  }
  return *e;
}

Result<sym::Subset> parse_range_json(const Json& v, const std::string& path, std::string_view key) {
  if (!v.is_object()) return parse_error(path, key, expected("Range object", v));
  sym::Subset out;
  auto type = v.find("type");
  std::string t = type != v.end() && type->is_string() ? type->get<std::string>() : "Range";
  if (t == "Indices") {
    // Old DaCe subsets listing single indices.
    auto idx = v.find("indices");
    if (idx == v.end() || !idx->is_array()) return parse_error(path, key, "Indices without \"indices\" list");
    for (const auto& i : *idx) {
      auto e = parse_expr_value(i, path, key);
      if (!e) return e.take_error();
      out.dims.push_back({*e, *e, sym::integer(1), sym::integer(1)});
    }
    return out;
  }
  if (t != "Range") return parse_error(path, key, "unsupported subset type " + ir::quoted(t));
  auto ranges = v.find("ranges");
  if (ranges == v.end() || !ranges->is_array()) return parse_error(path, key, "Range without \"ranges\" list");
  for (const auto& r : *ranges) {
    if (!r.is_object()) return parse_error(path, key, expected("range object", r));
    sym::Range out_r{nullptr, nullptr, sym::integer(1), sym::integer(1)};
    const char* names[4] = {"start", "end", "step", "tile"};
    sym::Expr* slots[4] = {&out_r.start, &out_r.end, &out_r.step, &out_r.tile};
    for (int k = 0; k < 4; ++k) {
      auto it = r.find(names[k]);
      if (it == r.end()) {
        if (k < 2) return parse_error(path, key, std::string("range without \"") + names[k] + "\"");
        continue;
      }
      auto e = parse_expr_value(*it, path, key);
      if (!e) return e.take_error();
      *slots[k] = *e;
    }
    out.dims.push_back(out_r);
  }
  return out;
}

Result<DType> parse_dtype_json(const Json& v, const std::string& path, std::string_view key) {
  DType d;
  if (v.is_null()) return d;
  if (v.is_string()) {
    if (auto s = parse_scalar_type(v.get_ref<const std::string&>())) return DType::of(*s);
    d.raw_json = compact(v);
    return d;
  }
  if (!v.is_object()) return parse_error(path, key, expected("typeclass (string or object)", v));
  auto type = v.find("type");
  if (type == v.end() || !type->is_string()) return parse_error(path, key, "typeclass object without \"type\"");
  const std::string& t = type->get_ref<const std::string&>();
  if (t == "pointer") {
    auto inner = v.find("dtype");
    if (inner != v.end() && !inner->is_null()) {
      auto base = parse_dtype_json(*inner, path, key);
      if (!base) return base.take_error();
      if (base->raw_json.empty()) {
        ++base->pointer_depth;
        return *base;
      }
    }
  } else if (t == "opaque") {
    auto ctype = v.find("ctype");
    if (ctype != v.end() && ctype->is_string() && !ctype->get_ref<const std::string&>().empty()) {
      d.opaque = ctype->get<std::string>();
      return d;
    }
  }
  d.raw_json = compact(v);
  return d;
}

Result<CodeBlock> parse_code_json(const Json& v, const std::string& path, std::string_view key) {
  CodeBlock c;
  if (v.is_string()) {  // plain text: Python
    c.code = v.get<std::string>();
    return c;
  }
  if (!v.is_object()) return parse_error(path, key, expected("code block object", v));
  auto data = v.find("string_data");
  if (data == v.end() || !data->is_string()) return parse_error(path, key, "code block without string \"string_data\"");
  c.code = data->get<std::string>();
  auto lang = v.find("language");
  if (lang != v.end() && !lang->is_null()) {
    if (!lang->is_string()) return parse_error(path, key, "code block language: " + expected("string", *lang));
    auto l = parse_language(lang->get_ref<const std::string&>());
    if (!l) return parse_error(path, key, "unknown language " + ir::quoted(lang->get_ref<const std::string&>()));
    c.language = *l;
  }
  return c;
}

Result<DebugInfo> parse_debuginfo_json(const Json& v, const ReadContext& ctx, const std::string& path,
                                       std::string_view key) {
  DebugInfo d;
  if (v.is_null()) return d;
  if (!v.is_object()) return parse_error(path, key, expected("DebugInfo object", v));
  d.present = true;
  auto get_int = [&](const char* name, int fallback, int& out) -> Status {
    auto it = v.find(name);
    if (it == v.end() || it->is_null()) {
      out = fallback;
      return {};
    }
    if (!it->is_number_integer() && !it->is_number_unsigned())
      return parse_error(path, key, std::string("DebugInfo ") + name + ": " + expected("integer", *it));
    int64_t x = it->get<int64_t>();
    if (x < INT32_MIN || x > INT32_MAX) return parse_error(path, key, std::string("DebugInfo ") + name + " out of range");
    out = static_cast<int>(x);
    return {};
  };
  // DaCe >= 2.0 omits end_* when equal to the start and start_column when 0.
  DACE_TRY(get_int("start_line", 0, d.start_line));
  DACE_TRY(get_int("start_column", 0, d.start_column));
  DACE_TRY(get_int("end_line", d.start_line, d.end_line));
  DACE_TRY(get_int("end_column", d.start_column, d.end_column));
  auto fn = v.find("filename");
  if (fn != v.end() && !fn->is_null()) {
    if (!fn->is_string()) return parse_error(path, key, "DebugInfo filename: " + expected("string", *fn));
    d.filename = fn->get<std::string>();
  }
  int index = -1;
  DACE_TRY(get_int("file_index", -1, index));
  // The canonical dialect has no source_files list: resolve the index to the name.
  if (index >= 0 && d.filename.empty() && static_cast<size_t>(index) < ctx.source_files.size())
    d.filename = ctx.source_files[static_cast<size_t>(index)];
  return d;
}

Json expr_json(sym::Expr e) { return e ? sym::to_string(e) : std::string("0"); }

Json expr_int_json(sym::Expr e) {
  if (!e) return 0;
  if (auto v = sym::as_integer(e)) return *v;
  return sym::to_string(e);
}

Json range_json(const sym::Subset& s) {
  Json ranges = Json::array();
  for (const auto& r : s.dims) {
    Json one = Json::object();
    one["start"] = expr_json(r.start);
    one["end"] = expr_json(r.end);
    one["step"] = r.step ? expr_json(r.step) : Json("1");
    one["tile"] = r.tile ? expr_json(r.tile) : Json("1");
    ranges.push_back(std::move(one));
  }
  Json out = Json::object();
  out["type"] = "Range";
  out["ranges"] = std::move(ranges);
  return out;
}

Json dtype_json(const DType& t) {
  if (!t.raw_json.empty()) return extra_value(t.raw_json);
  Json base;
  if (!t.opaque.empty()) {
    base = Json::object();
    base["type"] = "opaque";
    base["ctype"] = t.opaque.get();
  } else if (t.scalar == ScalarType::Unknown) {
    base = nullptr;
  } else {
    base = scalar_type_name(t.scalar);
  }
  for (int i = 0; i < t.pointer_depth; ++i) {
    Json p = Json::object();
    p["type"] = "pointer";
    p["dtype"] = std::move(base);
    base = std::move(p);
  }
  return base;
}

Json code_json(const CodeBlock& c) {
  Json out = Json::object();
  out["string_data"] = c.code;
  out["language"] = to_string(c.language);
  return out;
}

Json debuginfo_json(const DebugInfo& d) {
  if (!d.present) return nullptr;
  Json out = Json::object();
  out["type"] = "DebugInfo";
  out["start_line"] = d.start_line;
  out["end_line"] = d.end_line;
  out["start_column"] = d.start_column;
  out["end_column"] = d.end_column;
  out["filename"] = d.filename.empty() ? Json(nullptr) : Json(d.filename);
  return out;
}

void put_debuginfo(Json& attrs, const DebugInfo& d) {
  bool dace_default = d.present && d.start_line == 0 && d.end_line == 0 && d.start_column == 0 &&
                      d.end_column == 0 && d.filename.empty();
  if (!dace_default) attrs["debuginfo"] = debuginfo_json(d);
}

Json connectors_json(const Connectors& c) {
  Json out = Json::object();
  for (const auto& [name, type] : c) out[name] = dtype_json(type);
  return out;
}

Json extra_value(const std::string& text) {
  Json v = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (v.is_discarded()) return text;
  return v;
}

// ---------------------------------------------------------------------------- Attrs

Attrs::Attrs(const Json* obj, std::string path)
    : obj_(obj && obj->is_object() ? obj : nullptr), path_(std::move(path)) {
  if (obj_) consumed_.assign(obj_->size(), false);
}

bool Attrs::has(std::string_view key) const {
  return obj_ && obj_->find(key) != obj_->end();
}

const Json* Attrs::raw(std::string_view key) {
  if (!obj_) return nullptr;
  const auto& members = obj_->get_ref<const Json::object_t&>();
  size_t i = 0;
  for (auto it = members.begin(); it != members.end(); ++it, ++i) {
    if (it->first != key) continue;
    consumed_[i] = true;
    return &it->second;
  }
  return nullptr;
}

Status Attrs::str(std::string_view key, std::string& out) {
  const Json* v = raw(key);
  if (!v) return {};
  if (v->is_null()) {
    out.clear();
    return {};
  }
  if (!v->is_string()) return error(key, expected("string", *v));
  out = v->get<std::string>();
  return {};
}

Status Attrs::boolean(std::string_view key, bool& out) {
  const Json* v = raw(key);
  if (!v || v->is_null()) return {};
  if (!v->is_boolean()) return error(key, expected("boolean", *v));
  out = v->get<bool>();
  return {};
}

Status Attrs::integer(std::string_view key, int64_t& out) {
  const Json* v = raw(key);
  if (!v || v->is_null()) return {};
  if (v->is_number_integer() || (v->is_number_unsigned() && v->get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX))) {
    out = v->get<int64_t>();
    return {};
  }
  if (v->is_string()) {  // e.g. symbolic-looking integers written by old versions
    auto e = sym::parse(v->get_ref<const std::string&>());
    if (e) {
      if (auto i = sym::as_integer(*e)) {
        out = *i;
        return {};
      }
    }
  }
  return error(key, expected("integer", *v));
}

Status Attrs::strict_boolean(std::string_view key, std::optional<bool>& out) {
  const Json* v = raw(key);
  if (!v || v->is_null()) return {};
  if (!v->is_boolean()) return error(key, "expected boolean");
  out = v->get<bool>();
  return {};
}

Status Attrs::expr(std::string_view key, sym::Expr& out) {
  const Json* v = raw(key);
  if (!v || v->is_null()) return {};
  auto e = parse_expr_value(*v, path_, key);
  if (!e) return e.take_error();
  out = *e;
  return {};
}

Status Attrs::expr_list(std::string_view key, std::vector<sym::Expr>& out) {
  const Json* v = raw(key);
  if (!v || v->is_null()) return {};
  if (!v->is_array()) return error(key, expected("list", *v));
  std::vector<sym::Expr> list;
  for (const auto& item : *v) {
    auto e = parse_expr_value(item, path_, key);
    if (!e) return e.take_error();
    list.push_back(*e);
  }
  out = std::move(list);
  return {};
}

Status Attrs::code(std::string_view key, CodeBlock& out, bool* present) {
  if (present) *present = false;
  const Json* v = raw(key);
  if (!v || v->is_null()) return {};
  auto c = parse_code_json(*v, path_, key);
  if (!c) return c.take_error();
  out = std::move(*c);
  if (present) *present = true;
  return {};
}

Status Attrs::debuginfo(std::string_view key, DebugInfo& out, const ReadContext& ctx) {
  const Json* v = raw(key);
  if (!v) {
    // Omitted = DaCe's default, DebugInfo(0, 0, 0, 0) (not None).
    out = DebugInfo{};
    out.present = true;
    return {};
  }
  auto d = parse_debuginfo_json(*v, ctx, path_, key);
  if (!d) return d.take_error();
  out = std::move(*d);
  return {};
}

Status Attrs::dtype(std::string_view key, DType& out) {
  const Json* v = raw(key);
  if (!v) return {};
  auto d = parse_dtype_json(*v, path_, key);
  if (!d) return d.take_error();
  out = std::move(*d);
  return {};
}

Status Attrs::connectors(std::string_view key, Connectors& out) {
  const Json* v = raw(key);
  if (!v || v->is_null()) return {};
  if (!v->is_object()) return error(key, expected("object", *v));
  Connectors c;
  for (const auto& [name, type] : v->items()) {
    auto d = parse_dtype_json(type, path_, key);
    if (!d) return d.take_error();
    c[name] = std::move(*d);
  }
  out = std::move(c);
  return {};
}

Status Attrs::subset(std::string_view key, sym::Subset& out, bool* present) {
  if (present) *present = false;
  const Json* v = raw(key);
  if (!v || v->is_null()) return {};
  auto s = parse_range_json(*v, path_, key);
  if (!s) return s.take_error();
  out = std::move(*s);
  if (present) *present = true;
  return {};
}

Status Attrs::string_list(std::string_view key, std::vector<std::string>& out) {
  const Json* v = raw(key);
  if (!v || v->is_null()) return {};
  if (!v->is_array()) return error(key, expected("list", *v));
  std::vector<std::string> list;
  for (const auto& item : *v) {
    if (!item.is_string()) return error(key, "list item: " + expected("string", item));
    list.push_back(item.get<std::string>());
  }
  out = std::move(list);
  return {};
}

namespace {

template <class E, class ParseFn>
Status read_enum(Attrs& a, std::string_view key, E& out, ParseFn parse, const char* what) {
  const Json* v = a.raw(key);
  if (!v || v->is_null()) return {};
  if (!v->is_string()) return a.error(key, expected("string", *v));
  auto e = parse(v->get_ref<const std::string&>());
  if (!e) return a.error(key, std::string("unknown ") + what + " " + ir::quoted(v->get_ref<const std::string&>()));
  out = *e;
  return {};
}

}  // namespace

Status Attrs::storage(std::string_view key, StorageType& out) {
  return read_enum(*this, key, out, parse_storage, "storage type");
}
Status Attrs::schedule(std::string_view key, ScheduleType& out) {
  return read_enum(*this, key, out, parse_schedule, "schedule type");
}
Status Attrs::lifetime(std::string_view key, Lifetime& out) {
  return read_enum(*this, key, out, parse_lifetime, "lifetime");
}
Status Attrs::omp_schedule(std::string_view key, OmpSchedule& out) {
  return read_enum(*this, key, out, parse_omp_schedule, "OpenMP schedule");
}

void Attrs::collect_extras(ExtraProperties& out) const {
  if (!obj_) return;
  size_t i = 0;
  for (auto it = obj_->get_ref<const Json::object_t&>().begin(); it != obj_->get_ref<const Json::object_t&>().end();
       ++it, ++i) {
    if (consumed_[i]) continue;
    const auto& [key, value] = *it;
    if (is_unmodeled_default(key, value)) continue;
    out[key] = compact(value);
  }
}

}  // namespace dace::ir::json::detail
