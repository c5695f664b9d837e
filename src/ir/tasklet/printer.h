// Prints tasklet ASTs back to Python source that parses back to an equal tree. Operands are
// parenthesized only where Python's precedence needs it (`a * b + c`, `(a + b) * c`), so the
// text nests no deeper than the code it was parsed from; to_source(Expr) wraps an operator
// expression in one outer pair (`(a + b)`, `(- x)`, `(not c)`) so it can be embedded as it is,
// statements print their expressions without one.
#pragma once
#include <string>

#include "ir/tasklet/ast.h"

namespace dace::tasklet {

std::string to_source(const Expr& e);
std::string to_source(const Stmt& s, int indent = 0);  // indent: number of 4-space levels
std::string to_source(const Program& p);               // one statement per line, '\n'-ended

// A literal as Python writes it: ints in decimal, floats in the shortest form that reads
// back to the same double (always with '.' or an exponent), infinity as `1e999`.
std::string constant_text(const Constant& c);

}  // namespace dace::tasklet
