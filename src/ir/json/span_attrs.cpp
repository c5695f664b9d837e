// Scanning objects of the simple JSON subset into byte ranges, and SpanAttrs (span_attrs.h).
#include "ir/json/span_attrs.h"

#include <array>
#include <cstring>

namespace dace::ir::json::detail {
namespace {

bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

void skip_ws(std::string_view text, size_t& pos) {
  while (pos < text.size() && is_ws(text[pos])) ++pos;
}

// After a number or literal only a separator or whitespace may follow (parse_simple_value's
// rule: otherwise nlohmann would read a longer, invalid token).
bool at_token_end(std::string_view text, size_t pos) {
  if (pos == text.size()) return true;
  const char c = text[pos];
  return c == ',' || c == ']' || c == '}' || c == ':' || is_ws(c);
}

// Bytes of a string of the subset: 0 for a byte it may hold, 1 for the closing quote, 2 for a
// byte outside it (control characters, backslash, non-ASCII).
constexpr auto kStringByte = [] {
  std::array<unsigned char, 256> t{};
  for (int c = 0; c < 256; ++c) t[static_cast<size_t>(c)] = c < 0x20 || c >= 0x80 || c == '\\' ? 2 : 0;
  t['"'] = 1;
  return t;
}();

// `pos` at the opening quote; past the closing one.
bool skip_string(std::string_view text, size_t& pos) {
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t q = pos + 1;
  while (q < n && kStringByte[bytes[q]] == 0) ++q;
  if (q >= n || kStringByte[bytes[q]] != 1) return false;
  pos = q + 1;
  return true;
}

bool skip_integer(std::string_view text, size_t& pos) {
  size_t q = pos;
  if (q < text.size() && text[q] == '-') ++q;
  const size_t digits = q;
  while (q < text.size() && text[q] >= '0' && text[q] <= '9') ++q;
  const size_t count = q - digits;
  if (count == 0 || count > 18 || (count > 1 && text[digits] == '0') || !at_token_end(text, q)) return false;
  pos = q;
  return true;
}

bool skip_literal(std::string_view text, size_t& pos, std::string_view word) {
  if (text.substr(pos, word.size()) != word || !at_token_end(text, pos + word.size())) return false;
  pos += word.size();
  return true;
}

// Moves past a value an ElementScan has checked already (the items of an array value): only
// its end has to be found.
void skip_checked_value(std::string_view text, size_t& pos) {
  const char* data = text.data();
  const char c = data[pos];
  // Strings have no escapes in the subset, and are short: a loop, not memchr.
  auto string_end = [data](size_t at) {
    while (data[at] != '"') ++at;
    return at;
  };
  if (c == '"') {
    pos = string_end(pos + 1) + 1;
    return;
  }
  if (c != '{' && c != '[') {
    while (pos < text.size() && !at_token_end(text, pos)) ++pos;
    return;
  }
  int depth = 0;
  size_t at = pos;
  for (;; ++at) {
    const char d = data[at];
    if (d == '"') {
      at = string_end(at + 1);
    } else if (d == '{' || d == '[') {
      ++depth;
    } else if ((d == '}' || d == ']') && --depth == 0) {
      pos = at + 1;
      return;
    }
  }
}

// Calls `item(text, pos)` at each element of the array at text[pos] ('['); `pos` past it.
template <class Item>
bool scan_array(std::string_view text, size_t& pos, Item&& item) {
  ++pos;
  skip_ws(text, pos);
  if (pos < text.size() && text[pos] == ']') {
    ++pos;
    return true;
  }
  for (;;) {
    if (!item(text, pos)) return false;
    skip_ws(text, pos);
    if (pos >= text.size()) return false;
    if (text[pos] == ']') {
      ++pos;
      return true;
    }
    if (text[pos] != ',') return false;
    ++pos;
    skip_ws(text, pos);
  }
}

// The array that is the whole of `value`, item by item as byte ranges.
template <class Item>
bool for_each_item(std::string_view value, Item&& item) {
  if (value.empty() || value.front() != '[') return false;
  size_t pos = 0;
  return scan_array(value, pos, [&](std::string_view text, size_t& at) {
    const size_t begin = at;
    skip_checked_value(text, at);
    return item(text.substr(begin, at - begin));
  });
}

// Keys are short: a loop settles a comparison sooner than a memcmp call.
bool same_key(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

}  // namespace

const SpanMember* SpanObject::find(std::string_view key) const {
  for (size_t i = 0; i < size; ++i)
    if (same_key(members[i].key, key)) return &members[i];
  return nullptr;
}

bool ElementScan::scan(std::string_view text, size_t& pos, SpanObject& top) {
  members_.clear();
  pending_.clear();
  objects_.clear();
  const size_t begin = pos;
  if (pos >= text.size() || text[pos] != '{') return false;
  size_t at = pos;
  if (!value(text, at, kMaxJsonDepth)) return false;
  if (!object(text.substr(begin, at - begin), top)) return false;
  pos = at;
  return true;
}

bool ElementScan::object(std::string_view value, SpanObject& out) const {
  out.size = 0;
  for (const Record& r : objects_) {
    if (r.start != value.data()) continue;
    for (uint32_t i = 0; i < r.count; ++i) out.members[i] = members_[r.first + i];
    out.size = r.count;
    return true;
  }
  return false;  // not an object
}

// Checks one value of the subset (as parse_simple_value would accept it) and records the
// members of every object in it: an object's members collect on `pending_` while its values
// are read (inner objects collect above them and leave when they end), then move to
// `members_` in one piece.
bool ElementScan::value(std::string_view text, size_t& pos, int levels) {
  if (pos >= text.size()) return false;
  switch (text[pos]) {
    case '"': return skip_string(text, pos);
    case 't': return skip_literal(text, pos, "true");
    case 'f': return skip_literal(text, pos, "false");
    case 'n': return skip_literal(text, pos, "null");
    case '[':
      if (levels < 1) return false;
      return scan_array(text, pos, [&](std::string_view t, size_t& at) { return value(t, at, levels - 1); });
    case '{': break;
    default: return skip_integer(text, pos);
  }
  if (levels < 1) return false;
  const char* start = text.data() + pos;
  const size_t mark = pending_.size();
  ++pos;
  skip_ws(text, pos);
  if (pos < text.size() && text[pos] == '}') {
    ++pos;
  } else {
    for (;;) {
      const size_t key_begin = pos;
      if (pos >= text.size() || text[pos] != '"' || !skip_string(text, pos)) return false;
      const std::string_view key = text.substr(key_begin + 1, pos - key_begin - 2);
      skip_ws(text, pos);
      if (pos >= text.size() || text[pos] != ':') return false;
      ++pos;
      skip_ws(text, pos);
      const size_t value_begin = pos;
      if (!value(text, pos, levels - 1)) return false;
      // A duplicate key's value would replace the first one's at its place (nlohmann's
      // DOM): rare enough to leave to the usual way.
      for (size_t i = mark; i < pending_.size(); ++i)
        if (same_key(pending_[i].key, key)) return false;
      if (pending_.size() - mark == SpanObject::kMaxMembers) return false;
      pending_.push_back({key, text.substr(value_begin, pos - value_begin)});
      skip_ws(text, pos);
      if (pos >= text.size()) return false;
      if (text[pos] == '}') {
        ++pos;
        break;
      }
      if (text[pos] != ',') return false;
      ++pos;
      skip_ws(text, pos);
    }
  }
  objects_.push_back({start, static_cast<uint32_t>(members_.size()), static_cast<uint32_t>(pending_.size() - mark)});
  members_.insert(members_.end(), pending_.begin() + static_cast<ptrdiff_t>(mark), pending_.end());
  pending_.resize(mark);
  return true;
}

bool span_string(std::string_view value, std::string_view& out) {
  // Values come from an ElementScan: a leading quote means a whole string of the subset.
  if (value.size() < 2 || value.front() != '"') return false;
  out = value.substr(1, value.size() - 2);
  return true;
}

bool span_integer(std::string_view value, int64_t& out) {
  if (value.empty() || (value.front() != '-' && (value.front() < '0' || value.front() > '9'))) return false;
  const bool negative = value.front() == '-';
  uint64_t v = 0;
  for (size_t i = negative ? 1 : 0; i < value.size(); ++i) v = v * 10 + static_cast<uint64_t>(value[i] - '0');
  // At most 18 digits (skip_integer): fits int64 either way.
  out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

// ---------------------------------------------------------------------------- SpanAttrs

std::string_view SpanAttrs::take(std::string_view key) {
  if (!obj_) return {};
  for (size_t i = 0; i < obj_->size; ++i) {
    if (!same_key(obj_->members[i].key, key)) continue;
    consumed_[i] = true;
    return obj_->members[i].value;
  }
  return {};
}

Result<Json> SpanAttrs::dom(std::string_view value) {
  SimpleParseScratch scratch;
  size_t pos = 0;
  Json out;
  if (!parse_simple_value(value, pos, out, scratch, kMaxJsonDepth) || pos != value.size()) return refused();
  return out;
}

Status SpanAttrs::str(std::string_view key, std::string& out) {
  const std::string_view v = take(key);
  if (v.empty()) return {};
  if (span_is_null(v)) {
    out.clear();
    return {};
  }
  std::string_view s;
  if (!span_string(v, s)) return refused();
  out.assign(s);
  return {};
}

Status SpanAttrs::boolean(std::string_view key, bool& out) {
  const std::string_view v = take(key);
  if (v.empty() || span_is_null(v)) return {};
  if (v != "true" && v != "false") return refused();
  out = v == "true";
  return {};
}

Status SpanAttrs::strict_boolean(std::string_view key, std::optional<bool>& out) {
  bool value = false;
  const std::string_view v = take(key);
  if (v.empty() || span_is_null(v)) return {};
  if (v != "true" && v != "false") return refused();
  value = v == "true";
  out = value;
  return {};
}

Status SpanAttrs::integer(std::string_view key, int64_t& out) {
  const std::string_view v = take(key);
  if (v.empty() || span_is_null(v)) return {};
  int64_t i = 0;
  if (!span_integer(v, i)) return refused();  // strings holding integers: the usual way
  out = i;
  return {};
}

Status SpanAttrs::expr(std::string_view key, sym::Expr& out) {
  const std::string_view v = take(key);
  if (v.empty() || span_is_null(v)) return {};
  auto e = span_expr(v);
  if (!e) return e.take_error();
  out = *e;
  return {};
}

Result<sym::Expr> span_expr(std::string_view value) {
  static const std::string kNoPath;
  int64_t i = 0;
  if (span_integer(value, i)) return sym::integer(i);
  std::string_view s;
  if (span_string(value, s)) {
    auto e = parse_expr_text(std::string(s), kNoPath, {});
    if (!e) return SpanAttrs::refused();
    return e;
  }
  // {"main": ..., "approx": ...} and anything else: as on the usual way.
  Json j;
  {
    SimpleParseScratch scratch;
    size_t pos = 0;
    if (!parse_simple_value(value, pos, j, scratch, kMaxJsonDepth) || pos != value.size()) return SpanAttrs::refused();
  }
  auto e = parse_expr_value(j, kNoPath, {});
  if (!e) return SpanAttrs::refused();
  return e;
}

Status SpanAttrs::expr_list(std::string_view key, std::vector<sym::Expr>& out) {
  const std::string_view v = take(key);
  if (v.empty() || span_is_null(v)) return {};
  std::vector<sym::Expr> list;
  const bool ok = for_each_item(v, [&](std::string_view item) {
    auto e = span_expr(item);
    if (!e) return false;
    list.push_back(*e);
    return true;
  });
  if (!ok) return refused();
  out = std::move(list);
  return {};
}

Status SpanAttrs::code(std::string_view key, CodeBlock& out, bool* present) {
  if (present) *present = false;
  const std::string_view v = take(key);
  if (v.empty() || span_is_null(v)) return {};
  CodeBlock c;
  std::string_view text;
  if (span_string(v, text)) {
    c.code.assign(text);
  } else {
    // {"string_data": ..., "language": ...}: as parse_code_json reads it.
    SpanObject obj;
    if (!scan_.object(v, obj)) return refused();
    const SpanMember* data = obj.find("string_data");
    if (!data || !span_string(data->value, text)) return refused();
    c.code.assign(text);
    if (const SpanMember* lang = obj.find("language"); lang && !span_is_null(lang->value)) {
      std::string_view name;
      if (!span_string(lang->value, name)) return refused();
      auto l = parse_language(name);
      if (!l) return refused();
      c.language = *l;
    }
  }
  out = std::move(c);
  if (present) *present = true;
  return {};
}

Status SpanAttrs::debuginfo(std::string_view key, DebugInfo& out, const ReadContext& ctx) {
  static const std::string kNoPath;
  const std::string_view v = take(key);
  if (v.empty()) {
    // Omitted = DaCe's default, DebugInfo(0, 0, 0, 0) (not None), as Attrs::debuginfo.
    out = DebugInfo{};
    out.present = true;
    return {};
  }
  Json j;  // null
  if (!span_is_null(v)) {
    auto parsed = dom(v);
    if (!parsed) return parsed.take_error();
    j = std::move(*parsed);
  }
  auto d = parse_debuginfo_json(j, ctx, kNoPath, key);
  if (!d) return refused();
  out = std::move(*d);
  return {};
}

Status SpanAttrs::connectors(std::string_view key, Connectors& out) {
  static const std::string kNoPath;
  const std::string_view v = take(key);
  if (v.empty() || span_is_null(v)) return {};
  SpanObject obj;
  if (!scan_.object(v, obj)) return refused();
  Connectors c;
  for (size_t i = 0; i < obj.size; ++i) {
    const SpanMember& m = obj.members[i];
    DType t;
    std::string_view name;
    if (span_is_null(m.value)) {
      // DType's default, as parse_dtype_json gives for null.
    } else if (span_string(m.value, name) && parse_scalar_type(name)) {
      t = DType::of(*parse_scalar_type(name));
    } else {
      auto parsed = dom(m.value);
      if (!parsed) return parsed.take_error();
      auto d = parse_dtype_json(*parsed, kNoPath, key);
      if (!d) return refused();
      t = std::move(*d);
    }
    c[std::string(m.key)] = std::move(t);
  }
  out = std::move(c);
  return {};
}

Status SpanAttrs::subset(std::string_view key, sym::Subset& out, bool* present) {
  if (present) *present = false;
  const std::string_view v = take(key);
  if (v.empty() || span_is_null(v)) return {};
  // {"type": "Range", "ranges": [{"start", "end", "step", "tile"}, ...]}, as parse_range_json
  // reads it; old "Indices" subsets are left to the usual way.
  SpanObject obj;
  if (!scan_.object(v, obj)) return refused();
  if (const SpanMember* type = obj.find("type")) {
    std::string_view t;
    if (span_string(type->value, t) && t != "Range") return refused();
  }
  const SpanMember* ranges = obj.find("ranges");
  if (!ranges) return refused();
  sym::Subset s;
  const bool ok = for_each_item(ranges->value, [&](std::string_view item) {
    SpanObject r;
    if (!scan_.object(item, r)) return false;
    sym::Range dim{nullptr, nullptr, sym::integer(1), sym::integer(1)};
    const char* names[4] = {"start", "end", "step", "tile"};
    sym::Expr* slots[4] = {&dim.start, &dim.end, &dim.step, &dim.tile};
    for (int k = 0; k < 4; ++k) {
      const SpanMember* m = r.find(names[k]);
      if (!m) {
        if (k < 2) return false;
        continue;
      }
      auto e = span_expr(m->value);
      if (!e) return false;
      *slots[k] = *e;
    }
    s.dims.push_back(dim);
    return true;
  });
  if (!ok) return refused();
  out = std::move(s);
  if (present) *present = true;
  return {};
}

Status SpanAttrs::string_list(std::string_view key, std::vector<std::string>& out) {
  const std::string_view v = take(key);
  if (v.empty() || span_is_null(v)) return {};
  std::vector<std::string> list;
  const bool ok = for_each_item(v, [&](std::string_view item) {
    std::string_view s;
    if (!span_string(item, s)) return false;
    list.emplace_back(s);
    return true;
  });
  if (!ok) return refused();
  out = std::move(list);
  return {};
}

template <class E, class Parse>
Status SpanAttrs::enumerator(std::string_view key, E& out, Parse parse) {
  const std::string_view v = take(key);
  if (v.empty() || span_is_null(v)) return {};
  std::string_view s;
  if (!span_string(v, s)) return refused();
  auto e = parse(s);
  if (!e) return refused();
  out = *e;
  return {};
}

Status SpanAttrs::schedule(std::string_view key, ScheduleType& out) { return enumerator(key, out, parse_schedule); }

Status SpanAttrs::omp_schedule(std::string_view key, OmpSchedule& out) {
  return enumerator(key, out, parse_omp_schedule);
}

Status SpanAttrs::collect_extras(ExtraProperties& out) const {
  if (!obj_) return {};
  for (size_t i = 0; i < obj_->size; ++i) {
    if (consumed_[i]) continue;
    const SpanMember& m = obj_->members[i];
    auto v = dom(m.value);
    if (!v) return v.take_error();
    if (is_unmodeled_default(m.key, *v)) continue;
    out[std::string(m.key)] = compact(*v);
  }
  return {};
}

}  // namespace dace::ir::json::detail
