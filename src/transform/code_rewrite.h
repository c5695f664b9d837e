// Rewriting Python code by its syntax tree (ir/tasklet's parser and printer): which names an
// expression reads, and replacing names by expressions. Used where a transformation changes
// tasklet code or interstate text (AugAssignToWCR drops an operand, LoopUnroll replaces the
// loop variable by its value) — text search would also hit strings, attributes and longer
// names.
#pragma once
#include <map>
#include <optional>
#include <string>

#include "ir/tasklet/ast.h"

namespace dace::transform {

using NameValues = std::map<std::string, tasklet::ExprPtr>;

// Whether `e` reads `name` as a variable (not as a called function or an attribute name).
bool reads_name(const tasklet::Expr& e, const std::string& name);
// Whether some statement of `p` reads `name`, or assigns it (a local variable shadowing it).
bool reads_name(const tasklet::Program& p, const std::string& name);
bool assigns_name(const tasklet::Program& p, const std::string& name);

// `e` with every variable in `values` replaced by its expression.
tasklet::ExprPtr replace_names(const tasklet::ExprPtr& e, const NameValues& values);
tasklet::Program replace_names(const tasklet::Program& p, const NameValues& values);

// Python expression text with the names replaced, printed back (every operator
// parenthesized); nullopt when the text does not parse.
std::optional<std::string> replace_names_in_expression(const std::string& text, const NameValues& values);

}  // namespace dace::transform
