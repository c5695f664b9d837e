#include "builder/api_text.h"

#include <cctype>

#include "analysis/validate_code.h"
#include "builder/api_internal.h"
#include "ir/dtype.h"
#include "ir/path.h"
#include "ir/tasklet/parser.h"

namespace dace::capi {

Piece trim(std::string_view s, size_t base) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return {s.substr(b, e - b), base + b};
}

std::vector<Piece> split_top(std::string_view s, char sep) {
  std::vector<Piece> out;
  if (trim(s).text.empty()) return out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    char c = i < s.size() ? s[i] : sep;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    if ((c == sep && depth == 0) || i == s.size()) {
      out.push_back(trim(s.substr(start, i - start), start));
      start = i + 1;
    }
  }
  return out;
}

// The validator's rule (analysis/validate_code.h: DaCe's validate_name), so that nothing the
// builder accepts is refused later for its name.
bool is_identifier(std::string_view s) { return dace::analysis::detail::is_valid_name(s); }

Status check_identifier(const char* name, const std::string& where, const char* what, bool allow_dots) {
  if (!name) return invalid(where + ": " + what + " is NULL");
  std::string_view s(name);
  bool ok = !s.empty();
  if (ok && allow_dots) {
    size_t start = 0;
    for (size_t i = 0; i <= s.size() && ok; ++i) {
      if (i == s.size() || s[i] == '.') {
        ok = is_identifier(s.substr(start, i - start));
        start = i + 1;
      }
    }
  } else if (ok) {
    ok = is_identifier(s);
  }
  if (!ok) return invalid(where + ": " + what + " " + ir::quoted(s) + " is not a valid identifier");
  return Status::success();
}

std::string reason_of(const Error& e) {
  std::string m = e.message;
  // Tasklet parser: "line L, column C: reason".
  if (m.rfind("line ", 0) == 0) {
    auto p = m.find(": ");
    if (p != std::string::npos) m = m.substr(p + 2);
  }
  // Symbolic parser: "symbolic expression 'text': reason at column C".
  if (m.rfind("symbolic expression '", 0) == 0) {
    auto p = m.find("': ");
    if (p != std::string::npos) m = m.substr(p + 3);
  }
  auto at = m.rfind(" at column ");
  if (at != std::string::npos && m.find_first_not_of("0123456789", at + 11) == std::string::npos) m.resize(at);
  return m;
}

Error relocate(const Error& inner, const std::string& where, const char* what, std::string_view full, size_t offset) {
  int column = static_cast<int>(offset) + (inner.column > 0 ? inner.column : 1);
  if (inner.code != Code::ParseError) {
    Error e = inner;
    e.message = where + ": " + what + " " + ir::quoted(full) + ": " + inner.message;
    return e;
  }
  return make_error(Code::ParseError,
                    where + ": cannot parse " + what + " " + ir::quoted(full) + ": " + reason_of(inner) +
                        " at column " + std::to_string(column),
                    1, column);
}

Result<sym::Expr> parse_expr(std::string_view full, Piece piece, const std::string& where, const char* what) {
  if (piece.text.empty())
    return make_error(Code::ParseError,
                      where + ": cannot parse " + what + " " + ir::quoted(full) + ": empty expression at column " +
                          std::to_string(piece.offset + 1),
                      1, static_cast<int>(piece.offset) + 1);
  auto e = sym::parse(piece.text);
  if (!e) return relocate(e.error(), where, what, full, piece.offset);
  return *e;
}

Result<std::vector<sym::Expr>> parse_expr_list(std::string_view text, const std::string& where, const char* what) {
  std::vector<sym::Expr> out;
  auto pieces = split_top(text, ',');
  if (pieces.empty())
    return make_error(Code::ParseError, where + ": cannot parse " + what + " \"\": empty at column 1", 1, 1);
  for (const Piece& p : pieces) {
    auto e = parse_expr(text, p, where, what);
    if (!e) return e.take_error();
    out.push_back(*e);
  }
  return out;
}

Result<ir::Connectors> parse_connectors(std::string_view text, const std::string& where, const char* what) {
  ir::Connectors out;
  for (const Piece& p : split_top(text, ',')) {
    std::string_view name = p.text;
    ir::DType type;
    size_t colon = p.text.find(':');
    if (colon != std::string_view::npos) {
      name = trim(p.text.substr(0, colon)).text;
      Piece t = trim(p.text.substr(colon + 1), p.offset + colon + 1);
      auto parsed = ir::parse_dtype(t.text);
      if (!parsed)
        return invalid(where + " / connector " + ir::quoted(name) + ": unknown type " + ir::quoted(t.text) +
                       " in " + what + " " + ir::quoted(text));
      type = *parsed;
    }
    if (!is_identifier(name))
      return make_error(Code::ParseError,
                        where + ": cannot parse " + what + " " + ir::quoted(text) + ": " + ir::quoted(name) +
                            " is not a connector name at column " + std::to_string(p.offset + 1),
                        1, static_cast<int>(p.offset) + 1);
    if (out.count(std::string(name)))
      return exists(where + " / connector " + ir::quoted(name) + ": duplicate connector in " + what);
    out.emplace(std::string(name), type);
  }
  return out;
}

Result<std::vector<std::pair<std::string, std::string>>> parse_assignments(std::string_view text,
                                                                         const std::string& where) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Piece& p : split_top(text, ';')) {
    auto a = tasklet::parse_assignment(p.text);
    if (!a) return relocate(a.error(), where, "assignments", text, p.offset);
    size_t eq = p.text.find('=');
    out.emplace_back(a->target, std::string(trim(p.text.substr(eq + 1)).text));
  }
  return out;
}

Status check_assignment(std::string_view text, const std::string& where, const char* what) {
  Piece p = trim(text);
  auto a = tasklet::parse_assignment(p.text);
  if (!a) return relocate(a.error(), where, what, text, p.offset);
  return Status::success();
}

Status check_condition(std::string_view text, const std::string& where, const char* what) {
  Piece p = trim(text);
  auto e = tasklet::parse_expression(p.text);
  if (!e) return relocate(e.error(), where, what, text, p.offset);
  return Status::success();
}

Status check_code(std::string_view code, ir::Language language, const std::string& where) {
  if (language != ir::Language::Python) return Status::success();
  auto program = tasklet::parse_code(code);
  if (program) return Status::success();
  const Error& e = program.error();
  if (e.code != Code::ParseError) return make_error(e.code, where + ": code: " + e.message);
  return make_error(Code::ParseError,
                    where + ": cannot parse code: line " + std::to_string(e.line) + ", column " +
                        std::to_string(e.column) + ": " + reason_of(e),
                    e.line, e.column);
}

Result<sym::Range> parse_one_range(std::string_view text, const std::string& where, const std::string& param) {
  Piece p = trim(text);
  std::string what = "range of parameter " + ir::quoted(param);
  if (p.text.empty())
    return make_error(Code::ParseError, where + ": cannot parse " + what + ": empty range", 1, 1);
  auto s = sym::parse_subset(p.text);
  if (!s) return relocate(s.error(), where, what.c_str(), text, p.offset);
  if (s->rank() != 1)
    return make_error(Code::ParseError,
                      where + ": cannot parse " + what + " " + ir::quoted(text) + ": expected one range at column " +
                          std::to_string(p.offset + 1),
                      1, static_cast<int>(p.offset) + 1);
  return s->dims[0];
}

Result<MapRanges> parse_map_ranges(std::string_view text, const std::string& where) {
  MapRanges out;
  auto pieces = split_top(text, ',');
  if (pieces.empty()) return make_error(Code::ParseError, where + ": cannot parse map ranges \"\": empty", 1, 1);
  for (const Piece& p : pieces) {
    size_t eq = p.text.find('=');
    Piece name = trim(p.text.substr(0, eq == std::string_view::npos ? 0 : eq), p.offset);
    if (eq == std::string_view::npos || !is_identifier(name.text))
      return make_error(Code::ParseError,
                        where + ": cannot parse map ranges " + ir::quoted(text) +
                            ": expected 'name=begin:end' at column " + std::to_string(p.offset + 1),
                        1, static_cast<int>(p.offset) + 1);
    std::string param(name.text);
    for (const auto& existing : out.params)
      if (existing == param) return exists(where + ": map parameter " + ir::quoted(param) + " appears twice");
    Piece r = trim(p.text.substr(eq + 1), p.offset + eq + 1);
    auto s = r.text.empty() ? Result<sym::Subset>(make_error(Code::ParseError, "empty range", 1, 1))
                            : sym::parse_subset(r.text);
    if (!s) return relocate(s.error(), where, "map ranges", text, r.offset);
    if (s->rank() != 1)
      return make_error(Code::ParseError,
                        where + ": cannot parse map ranges " + ir::quoted(text) + ": expected one range at column " +
                            std::to_string(r.offset + 1),
                        1, static_cast<int>(r.offset) + 1);
    out.params.push_back(param);
    out.range.dims.push_back(s->dims[0]);
  }
  return out;
}

Result<std::map<std::string, sym::Expr>> parse_symbol_mapping(std::string_view text, const std::string& where) {
  std::map<std::string, sym::Expr> out;
  for (const Piece& p : split_top(text, ',')) {
    size_t colon = p.text.find(':');
    Piece name = trim(p.text.substr(0, colon == std::string_view::npos ? 0 : colon), p.offset);
    if (colon == std::string_view::npos || !is_identifier(name.text))
      return make_error(Code::ParseError,
                        where + ": cannot parse symbol mapping " + ir::quoted(text) +
                            ": expected 'inner: outer expression' at column " + std::to_string(p.offset + 1),
                        1, static_cast<int>(p.offset) + 1);
    auto e = parse_expr(text, trim(p.text.substr(colon + 1), p.offset + colon + 1), where, "symbol mapping");
    if (!e) return e.take_error();
    if (!out.emplace(std::string(name.text), *e).second)
      return exists(where + ": symbol " + ir::quoted(name.text) + " is mapped twice");
  }
  return out;
}

std::string map_ranges_to_string(const std::vector<std::string>& params, const sym::Subset& range) {
  std::string out;
  for (size_t i = 0; i < params.size() && i < range.dims.size(); ++i) {
    if (i) out += ", ";
    sym::Subset one;
    one.dims.push_back(range.dims[i]);
    std::string r = sym::to_string(one);
    // An index form ("3") is a one-iteration range; print it as a range for clarity.
    if (r.find(':') == std::string::npos) r += ":" + sym::to_string(sym::add(range.dims[i].end, sym::integer(1)));
    out += params[i] + "=" + r;
  }
  return out;
}

std::string connectors_to_string(const ir::Connectors& c) {
  std::string out;
  for (const auto& [name, type] : c) {
    if (!out.empty()) out += ", ";
    out += name;
    if (!type.is_unknown()) out += ": " + ir::to_string(type);
  }
  return out;
}

std::string join_exprs(const std::vector<sym::Expr>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ", ";
    out += v[i] ? sym::to_string(v[i]) : std::string();
  }
  return out;
}

}  // namespace dace::capi
