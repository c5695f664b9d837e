// The common case of JSON values in `.sdfg` files, parsed without nlohmann's lexer: strings of
// printable ASCII without escapes, integers of up to 18 digits, true/false/null, and objects
// and arrays of those. nlohmann's lexer copies every token character by character into a
// growing buffer and its SAX interface moves each value twice more; for the elements of large
// state lists that was most of the reading time (docs/sdfg-json.md "Reading large files").
//
// The result must be exactly the DOM nlohmann builds, so anything outside that subset —
// escapes, non-ASCII bytes (UTF-8 to validate), control characters, fractions and exponents
// (nlohmann's own float conversion), long integers (its overflow rules), malformed text —
// declines: the caller parses the value with nlohmann instead, which gives the same value or
// the error.
#include <atomic>
#include <cstring>

#include "ir/json/json_internal.h"

namespace dace::ir::json::detail {
namespace {

// Deeper values are left to nlohmann, which the caller bounds itself: this bounds the
// recursion here.
constexpr int kMaxSimpleDepth = 512;

class SimpleParser {
 public:
  SimpleParser(std::string_view text, SimpleParseScratch& scratch, int max_depth)
      : p_(text.data()),
        end_(text.data() + text.size()),
        members_(scratch.members),
        max_depth_(max_depth < kMaxSimpleDepth ? max_depth : kMaxSimpleDepth) {}

  bool value(const char*& p, Json& out, int depth) {
    if (p >= end_) return false;
    switch (*p) {
      case '"': {
        std::string s;
        if (!string(p, s)) return false;
        out = Json(std::move(s));
        return true;
      }
      case '{': return object(p, out, depth);
      case '[': return array(p, out, depth);
      case 't': return literal(p, "true", 4, Json(true), out);
      case 'f': return literal(p, "false", 5, Json(false), out);
      case 'n': return literal(p, "null", 4, Json(nullptr), out);
      default: return number(p, out);
    }
  }

  void skip_ws(const char*& p) const {
    while (p < end_ && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
  }

  const char* begin() const { return p_; }

 private:
  // After a number or literal, only a separator or whitespace may follow (else nlohmann
  // would read one longer, invalid token).
  bool at_token_end(const char* p) const {
    return p == end_ || *p == ',' || *p == ']' || *p == '}' || *p == ':' || *p == ' ' || *p == '\n' || *p == '\r' ||
           *p == '\t';
  }

  bool literal(const char*& p, const char* word, size_t n, Json v, Json& out) {
    if (static_cast<size_t>(end_ - p) < n || std::memcmp(p, word, n) != 0 || !at_token_end(p + n)) return false;
    p += n;
    out = std::move(v);
    return true;
  }

  // -?(0|[1-9][0-9]{0,17}): fits int64 and uint64 either way. nlohmann makes a non-negative
  // integer number_unsigned and a negative one number_integer ("-0" included).
  bool number(const char*& p, Json& out) {
    const char* q = p;
    const bool negative = q < end_ && *q == '-';
    if (negative) ++q;
    if (q >= end_ || *q < '0' || *q > '9') return false;
    const char* digits = q;
    uint64_t v = 0;
    while (q < end_ && *q >= '0' && *q <= '9') v = v * 10 + static_cast<uint64_t>(*q++ - '0');
    const size_t count = static_cast<size_t>(q - digits);
    if (count > 18 || (count > 1 && *digits == '0') || !at_token_end(q)) return false;
    if (negative) out = Json(static_cast<Json::number_integer_t>(-static_cast<int64_t>(v)));
    else out = Json(static_cast<Json::number_unsigned_t>(v));
    p = q;
    return true;
  }

  // Printable ASCII (0x20-0x7F) without backslashes; `p` at the opening quote.
  bool string(const char*& p, std::string& out) {
    const char* q = p + 1;
    const char* start = q;
    for (;;) {
      if (q >= end_) return false;
      const unsigned char c = static_cast<unsigned char>(*q);
      if (c == '"') break;
      if (c < 0x20 || c >= 0x80 || c == '\\') return false;
      ++q;
    }
    out.assign(start, static_cast<size_t>(q - start));
    p = q + 1;
    return true;
  }

  // `depth` containers enclose this one within the value: it is level depth + 1.
  bool array(const char*& p, Json& out, int depth) {
    if (depth >= max_depth_) return false;
    ++p;
    Json arr(Json::value_t::array);
    auto& items = arr.get_ref<Json::array_t&>();
    skip_ws(p);
    if (p < end_ && *p == ']') {
      ++p;
      out = std::move(arr);
      return true;
    }
    for (;;) {
      Json item;
      if (!value(p, item, depth + 1)) return false;
      items.push_back(std::move(item));
      skip_ws(p);
      if (p >= end_) return false;
      if (*p == ',') {
        ++p;
        skip_ws(p);
        continue;
      }
      if (*p != ']') return false;
      ++p;
      out = std::move(arr);
      return true;
    }
  }

  // Members go to a stack shared by all levels, then into an object made with room for all
  // of them (a member key is const: growing an object one member at a time would copy the
  // members already there).
  bool object(const char*& p, Json& out, int depth) {
    if (depth >= max_depth_) return false;
    ++p;
    const size_t first = members_.size();
    skip_ws(p);
    if (p < end_ && *p == '}') {
      ++p;
      out = Json::object();
      return true;
    }
    for (;;) {
      if (p >= end_ || *p != '"') return unwind(first);
      std::string key;
      if (!string(p, key)) return unwind(first);
      skip_ws(p);
      if (p >= end_ || *p != ':') return unwind(first);
      ++p;
      skip_ws(p);
      Json v;
      if (!value(p, v, depth + 1)) return unwind(first);
      members_.emplace_back(std::move(key), std::move(v));
      skip_ws(p);
      if (p >= end_) return unwind(first);
      if (*p == ',') {
        ++p;
        skip_ws(p);
        continue;
      }
      if (*p != '}') return unwind(first);
      ++p;
      break;
    }
    Json obj = Json::object();
    auto& map = obj.get_ref<Json::object_t&>();
    map.reserve(members_.size() - first);
    // Duplicate keys: the last value wins at the first key's position, as in nlohmann's DOM
    // (ordered_map's operator[] finds the earlier key).
    for (size_t i = first; i < members_.size(); ++i) map[std::move(members_[i].first)] = std::move(members_[i].second);
    members_.resize(first);
    out = std::move(obj);
    return true;
  }

  bool unwind(size_t first) {
    members_.resize(first);
    return false;
  }

  const char* p_;
  const char* end_;
  std::vector<std::pair<std::string, Json>>& members_;
  const int max_depth_;
};

// set_json_fast_path: off only in the differential test, which reads the same text both ways.
std::atomic<bool> fast_path_enabled{true};

}  // namespace

bool parse_simple_value(std::string_view text, size_t& pos, Json& out, SimpleParseScratch& scratch, int max_depth) {
  if (!fast_path_enabled.load(std::memory_order_relaxed)) return false;
  SimpleParser parser(text, scratch, max_depth);
  const char* p = parser.begin() + pos;
  Json v;
  if (!parser.value(p, v, 0)) return false;
  pos = static_cast<size_t>(p - parser.begin());
  out = std::move(v);
  return true;
}

bool json_fast_path_enabled() { return fast_path_enabled.load(std::memory_order_relaxed); }

void set_json_fast_path(bool enabled) { fast_path_enabled.store(enabled, std::memory_order_relaxed); }

}  // namespace dace::ir::json::detail
