// Parser of DaCe's Python tasklet subset (see docs/tasklet-language.md).
// Errors are Code::ParseError with line/column set and the message prefixed
// "line L, column C: ". Nesting deeper than kMaxNesting brackets/operators, or expression
// trees higher than kMaxExprHeight, are reported as errors rather than risking the stack.
#pragma once
#include <string_view>

#include "ir/result.h"
#include "ir/tasklet/ast.h"

namespace dace::tasklet {

inline constexpr int kMaxNesting = 100;  // about 3 KB of stack per level
inline constexpr int kMaxExprHeight = 1000;
inline constexpr int kMaxBlockNesting = 100;

// A whole tasklet body: statements, `if/elif/else` blocks by indentation, `;`-separated simple
// statements, comments, blank lines. Empty input gives an empty program.
Result<Program> parse_code(std::string_view source);

// One expression (interstate conditions and assignment right-hand sides). Surrounding
// whitespace, newlines and a trailing comment are allowed.
Result<ExprPtr> parse_expression(std::string_view source);

// `name = expression` (LoopRegion init/update statements).
Result<Assignment> parse_assignment(std::string_view source);

}  // namespace dace::tasklet
