// Replacing names by expressions in code kept as text: tasklet bodies, interstate conditions
// and assignment right-hand sides, loop statements. Optimizer passes use this instead of
// editing text by hand: the text is parsed once (cached: the same text is parsed once per
// process, trees are immutable and shared), names are replaced in the tree, and the tree is
// printed back in DaCe's style (`(a + b)`). Text without any of the names is returned as it
// was, byte for byte, so untouched code keeps its spelling.
//
// What counts as a use of a name: a Name node that is read. Assignment targets, called
// function names (`min(...)`, `math.sin(...)`) and attribute names are not uses. With
// `subscripts` set, `x[...]` of a replaced name is replaced as a whole (a scalar read through
// a subscript, as DaCe writes `s[0]` for a scalar `s`).
//
// Symbolic expressions (memlet subsets, map ranges, shapes) are substituted with
// sym::substitute; this file is for code.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "ir/result.h"
#include "ir/tasklet/ast.h"

namespace dace::tasklet {

using NameValues = std::map<std::string, ExprPtr>;

// Cached parses (parse_expression / parse_code of parser.h). Thread-safe.
Result<ExprPtr> parse_expression_cached(std::string_view source);
Result<std::shared_ptr<const Program>> parse_code_cached(std::string_view source);

// The names an expression / program reads (see above for what counts), sorted.
std::set<std::string> names_read(const Expr& e);
std::set<std::string> names_read(const Program& p);
// The names a program assigns (plain or subscripted targets, augmented assignments, inside
// `if` too), sorted: its local variables and the outputs it writes.
std::set<std::string> names_assigned(const Program& p);

// Visits `e` and every expression below it, parents first.
void walk(const Expr& e, const std::function<void(const Expr&)>& fn);

// General rewriting: `fn` is asked at every node, parents first; a non-null answer replaces
// the node (and is not visited further), null descends into the children. Only the path to a
// replaced node is rebuilt; the same pointer comes back when nothing was replaced.
ExprPtr rewrite(const ExprPtr& e, const std::function<ExprPtr(const Expr&)>& fn);

// Name replacement (rewrite with a name table).
ExprPtr substitute(const ExprPtr& e, const NameValues& values, bool subscripts = false);
// Replaces in every read expression of the statements (targets' own names stay; their
// subscript indices are read and are replaced).
Program substitute(const Program& p, const NameValues& values, bool subscripts = false);

// Text in, text out. `values` maps names to expression text (parsed with the cache). Errors:
// ParseError when the code or a value does not parse.
Result<std::string> substitute_in_expression(std::string_view code, const std::map<std::string, std::string>& values,
                                             bool subscripts = false);
Result<std::string> substitute_in_code(std::string_view code, const std::map<std::string, std::string>& values,
                                       bool subscripts = false);

}  // namespace dace::tasklet
