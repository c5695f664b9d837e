// Parsing of the small DaCe-syntax strings the C API takes (shapes, connector lists,
// assignments, map ranges, symbol mappings, conditions, code), with parse errors relocated
// to the column of the whole argument and prefixed with the element's path.
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/nodes.h"
#include "ir/result.h"
#include "ir/symbolic/expr.h"

namespace dace::capi {

// A trimmed slice of an argument and the 0-based offset of its first character.
struct Piece {
  std::string_view text;
  size_t offset = 0;
};

Piece trim(std::string_view s, size_t base = 0);
// Splits at `sep` outside (), [] and {}; pieces are trimmed. Empty input gives no pieces.
std::vector<Piece> split_top(std::string_view s, char sep);
bool is_identifier(std::string_view s);
// InvalidArgument unless `name` is an identifier (dots allowed with allow_dots).
Status check_identifier(const char* name, const std::string& where, const char* what, bool allow_dots = false);

// A ParseError for `what` (e.g. "shape") of text `full`, from `inner` found in the part of
// `full` starting at `offset`: `<where>: cannot parse <what> "<full>": <reason> at column C`.
Error relocate(const Error& inner, const std::string& where, const char* what, std::string_view full, size_t offset);
// The reason of a parse error without the parser's own position text.
std::string reason_of(const Error& e);

Result<sym::Expr> parse_expr(std::string_view full, Piece piece, const std::string& where, const char* what);
// "N, M+1": one expression per comma-separated element (at least one).
Result<std::vector<sym::Expr>> parse_expr_list(std::string_view text, const std::string& where, const char* what);
// "a, b: float64, p: int32*" (duplicates are AlreadyExists).
Result<ir::Connectors> parse_connectors(std::string_view text, const std::string& where, const char* what);
// "k = k + 1; j = 0" -> ordered (name, value text) pairs.
Result<std::vector<std::pair<std::string, std::string>>> parse_assignments(std::string_view text,
                                                                         const std::string& where);
// One `name = expression` (loop init/update).
Status check_assignment(std::string_view text, const std::string& where, const char* what);
// A boolean or arithmetic expression of the tasklet language.
Status check_condition(std::string_view text, const std::string& where, const char* what);
// Tasklet code: Python is parsed; other languages are kept as-is.
Status check_code(std::string_view code, ir::Language language, const std::string& where);

struct MapRanges {
  std::vector<std::string> params;
  sym::Subset range;
};
// "i=0:N, j=1:M-1".
Result<MapRanges> parse_map_ranges(std::string_view text, const std::string& where);
// One range "0:N" of parameter `param` (dict form).
Result<sym::Range> parse_one_range(std::string_view text, const std::string& where, const std::string& param);
// "N: N, M: M - 1".
Result<std::map<std::string, sym::Expr>> parse_symbol_mapping(std::string_view text, const std::string& where);
// Prints "i=0:N, j=1:M - 1" (inverse of parse_map_ranges).
std::string map_ranges_to_string(const std::vector<std::string>& params, const sym::Subset& range);
std::string connectors_to_string(const ir::Connectors& c);
std::string join_exprs(const std::vector<sym::Expr>& v);

}  // namespace dace::capi
