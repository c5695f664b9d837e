// Reading one node or edge of a state list straight from its text, without building its
// JSON DOM first (src/ir/json/fast_elements.cpp). The element's objects are scanned into
// members whose values stay byte ranges of the text; properties are converted from those
// ranges by SpanAttrs, which has the interface of Attrs, so the same property readers
// (attr_readers.h) run on both.
//
// The fast way only has to be right where it succeeds. It accepts the subset of JSON that
// parse_simple_value accepts (printable-ASCII strings without escapes, integers of up to 18
// digits, literals, objects and arrays of those), no duplicate keys in the objects it scans,
// and declines everything else, every content error included: the caller then reads the
// element the usual way (DOM and Attrs), which gives the same SDFG or the documented error.
// Complex property values (code blocks, debug info, typeclass objects) are parsed into a small
// DOM and converted by the same functions as on the usual way.
#pragma once
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "ir/json/json_internal.h"

namespace dace::ir::json::detail {

struct SpanMember {
  std::string_view key;    // without quotes (keys in the subset have no escapes)
  std::string_view value;  // the value's text, e.g. `"N - 1"`, `null`, `{"a": 1}`
};

// The members of one object, in text order. Objects with more members than this decline.
struct SpanObject {
  static constexpr size_t kMaxMembers = 48;
  std::array<SpanMember, kMaxMembers> members;
  size_t size = 0;
  const SpanMember* find(std::string_view key) const;
};

// One element of a state list, checked once: its syntax (the subset, no duplicate keys, at
// most kMaxMembers members per object, nesting within kMaxJsonDepth) and the members of
// every object in it, so that reading an inner object needs no second pass over its text.
class ElementScan {
 public:
  // The object at text[pos] ('{'): true, its members in `top` and `pos` past it, when the
  // whole of it is in the subset.
  bool scan(std::string_view text, size_t& pos, SpanObject& top);
  // The members of the object that `value` (a value from this scan) is; false when it is not
  // an object.
  bool object(std::string_view value, SpanObject& out) const;

 private:
  bool value(std::string_view text, size_t& pos, int levels);

  struct Record {
    const char* start;  // the object's '{' in the text
    uint32_t first, count;
  };
  std::vector<SpanMember> members_, pending_;
  std::vector<Record> objects_;
};

// A value that is a string of the subset, without its quotes.
bool span_string(std::string_view value, std::string_view& out);
// A value that is an integer of the subset (fits int64).
bool span_integer(std::string_view value, int64_t& out);
inline bool span_is_null(std::string_view value) { return value == "null"; }
// A symbolic expression value (string, integer or {"main": ...}), as parse_expr_value reads it;
// a refusal on any error.
Result<sym::Expr> span_expr(std::string_view value);

// The fast way's stand-in for Attrs (json_internal.h): the same reads with the same results.
// Every failure, whether the value is outside the subset or wrong for the property, is only
// a refusal (its message is never shown): the element is then read the usual way.
class SpanAttrs {
 public:
  // `obj` null: no attributes (every property reads as missing). `scan` resolves the inner
  // objects of its values.
  SpanAttrs(const SpanObject* obj, const ElementScan& scan) : obj_(obj), scan_(scan) {}

  Status str(std::string_view key, std::string& out);
  Status boolean(std::string_view key, bool& out);
  Status integer(std::string_view key, int64_t& out);
  Status expr(std::string_view key, sym::Expr& out);
  Status expr_list(std::string_view key, std::vector<sym::Expr>& out);
  Status code(std::string_view key, CodeBlock& out, bool* present = nullptr);
  Status debuginfo(std::string_view key, DebugInfo& out, const ReadContext& ctx);
  Status connectors(std::string_view key, Connectors& out);
  Status subset(std::string_view key, sym::Subset& out, bool* present = nullptr);
  Status string_list(std::string_view key, std::vector<std::string>& out);
  Status schedule(std::string_view key, ScheduleType& out);
  Status omp_schedule(std::string_view key, OmpSchedule& out);
  // Attrs' `raw(key)` read of a boolean that must not be another type (is_data_src).
  Status strict_boolean(std::string_view key, std::optional<bool>& out);
  void skip(std::string_view key) { take(key); }
  Status collect_extras(ExtraProperties& out) const;
  Error error(std::string_view, const std::string&) const { return refused(); }

  static Error refused() { return make_error(Code::ParseError, "declined by the fast element reader"); }

 private:
  // The member's value, marked consumed; empty when missing.
  std::string_view take(std::string_view key);
  // The value as a DOM (values of the subset parse; anything else is refused).
  static Result<Json> dom(std::string_view value);
  // A string naming one of an enumeration's values, as Attrs' enumeration readers read it.
  template <class E, class Parse>
  Status enumerator(std::string_view key, E& out, Parse parse);

  const SpanObject* obj_;
  const ElementScan& scan_;
  std::array<bool, SpanObject::kMaxMembers> consumed_{};
};

}  // namespace dace::ir::json::detail
