// Prints tasklet ASTs back to Python source in DaCe's style: every operator expression is
// parenthesized (`(a + b)`, `(- x)`, `(not c)`), so the text parses back to an equal tree.
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
