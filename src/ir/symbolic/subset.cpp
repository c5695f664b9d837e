// Memlet subset syntax: `i, 0:N, 1:N-1:2` (exclusive slice ends) <-> inclusive-end Ranges.
#include "ir/symbolic/internal.h"

namespace dace::sym {
namespace {

// Splits text at `sep` outside parentheses/brackets; returns [begin, end) offsets.
std::vector<std::pair<size_t, size_t>> split_top(std::string_view text, size_t begin, size_t end, char sep) {
  std::vector<std::pair<size_t, size_t>> parts;
  int depth = 0;
  size_t start = begin;
  for (size_t i = begin; i < end; ++i) {
    char c = text[i];
    if (c == '(' || c == '[') ++depth;
    if ((c == ')' || c == ']') && depth > 0) --depth;
    if (c == sep && depth == 0) {
      parts.emplace_back(start, i);
      start = i + 1;
    }
  }
  parts.emplace_back(start, end);
  return parts;
}

bool blank(std::string_view text, size_t begin, size_t end) {
  for (size_t i = begin; i < end; ++i) {
    if (text[i] != ' ' && text[i] != '\t') return false;
  }
  return true;
}

Error error_at(std::string_view text, size_t offset, const std::string& message) {
  int column = static_cast<int>(offset) + 1;
  return make_error(Code::ParseError,
                    "subset '" + std::string(text) + "': " + message + " at column " + std::to_string(column), 1,
                    column);
}

// Parses text[begin, end) as an expression; error columns are shifted to be relative to text.
Result<Expr> parse_part(std::string_view text, size_t begin, size_t end) {
  auto r = parse(text.substr(begin, end - begin));
  if (r) return r;
  Error e = r.take_error();
  int column = static_cast<int>(begin) + (e.column > 0 ? e.column : 1);
  std::string message = e.message;
  size_t at = message.rfind(" at column ");
  if (at != std::string::npos) message.resize(at);
  size_t colon = message.find("': ");
  if (colon != std::string::npos) message = message.substr(colon + 3);
  return error_at(text, static_cast<size_t>(column - 1), message);
}

}  // namespace

Result<Subset> parse_subset(std::string_view text) {
  Subset out;
  if (blank(text, 0, text.size())) return error_at(text, 0, "empty subset");
  for (auto [db, de] : split_top(text, 0, text.size(), ',')) {
    if (blank(text, db, de)) return error_at(text, db, "empty dimension");
    auto parts = split_top(text, db, de, ':');
    if (parts.size() > 4) return error_at(text, parts[4].first - 1, "too many ':' in a range");
    if (parts.size() == 1) {
      auto index = parse_part(text, db, de);
      if (!index) return index.take_error();
      out.dims.push_back({*index, *index, integer(1), integer(1)});
      continue;
    }
    Expr start = integer(0), end = nullptr, step = integer(1), tile = integer(1);
    auto [sb, se] = parts[0];
    if (!blank(text, sb, se)) {
      auto r = parse_part(text, sb, se);
      if (!r) return r.take_error();
      start = *r;
    }
    auto [eb, ee] = parts[1];
    if (blank(text, eb, ee)) return error_at(text, eb, "open range end needs the array shape");
    auto r = parse_part(text, eb, ee);
    if (!r) return r.take_error();
    end = *r;
    if (parts.size() >= 3) {
      auto [pb, pe] = parts[2];
      if (!blank(text, pb, pe)) {
        auto s = parse_part(text, pb, pe);
        if (!s) return s.take_error();
        step = *s;
        if (step->op == Op::Integer && step->value == 0) return error_at(text, pb, "zero step");
      }
    }
    if (parts.size() == 4) {
      auto [tb, te] = parts[3];
      if (blank(text, tb, te)) return error_at(text, tb, "empty tile size");
      auto t = parse_part(text, tb, te);
      if (!t) return t.take_error();
      tile = *t;
    }
    // Python slices exclude the end; a negative step counts down, so the last element is end + 1.
    bool descending = step->op == Op::Integer && step->value < 0;
    out.dims.push_back({start, add(end, integer(descending ? 1 : -1)), step, tile});
  }
  return out;
}

namespace {
// Ranges built by hand may leave step/tile unset: they mean 1.
Range normalized(const Range& r) {
  Range n = r;
  if (!n.start) n.start = integer(0);
  if (!n.end) n.end = n.start;
  if (!n.step) n.step = integer(1);
  if (!n.tile) n.tile = integer(1);
  return n;
}
}  // namespace

std::string to_string(const Subset& s) {
  std::string out;
  for (size_t i = 0; i < s.dims.size(); ++i) {
    const Range r = normalized(s.dims[i]);
    if (i) out += ", ";
    bool unit_step = r.step == integer(1) && r.tile == integer(1);
    if (r.start == r.end && unit_step) {
      out += to_string(r.start);
      continue;
    }
    bool descending = r.step->op == Op::Integer && r.step->value < 0;
    out += to_string(r.start) + ":" + to_string(add(r.end, integer(descending ? -1 : 1)));
    if (r.step != integer(1) || r.tile != integer(1)) out += ":" + to_string(r.step);
    if (r.tile != integer(1)) out += ":" + to_string(r.tile);
  }
  return out;
}

std::vector<Expr> size(const Subset& s) {
  std::vector<Expr> out;
  for (const Range& given : s.dims) {
    const Range r = normalized(given);
    if (r.step->op == Op::Integer && r.step->value < 0) {
      out.push_back(ceildiv(add(sub(r.start, r.end), integer(1)), neg(r.step)));
    } else {
      out.push_back(ceildiv(add(sub(r.end, r.start), integer(1)), r.step));
    }
  }
  return out;
}

Expr volume(const Subset& s) {
  Expr v = integer(1);
  for (Expr e : size(s)) v = mul(v, e);
  return v;
}

}  // namespace dace::sym
