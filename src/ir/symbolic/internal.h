// Helpers shared by the files of the symbolic engine; not part of the API.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "ir/symbolic/expr.h"

namespace dace::sym::detail {

// Interns a node exactly as given (no canonicalization): callers guarantee canonical form.
Expr make(Op op, std::vector<Expr> args, int64_t value = 0, std::string_view name = {});

// Expansions done so far, by expression. expand() is a pure function of its interned
// argument, so a caller that expands many overlapping expressions keeps one memo for all of
// them: the simplifier expands every sum and product it visits and the differences it
// compares, and without a shared memo a power deep inside, (L - J)**64 say, was multiplied
// out again at every level above it.
using ExpandMemo = std::unordered_map<Expr, Expr>;
Expr expand(Expr e, ExpandMemo& memo);

// Wrapping int64 arithmetic: construction never fails, so folded constants wrap on overflow
// (evaluate() reports overflow instead).
inline int64_t wrap_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t wrap_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
// Python semantics; b != 0.
int64_t py_floordiv(int64_t a, int64_t b);
int64_t py_mod(int64_t a, int64_t b);

// A term of a sum is coefficient * monomial; a constant has monomial == nullptr.
struct Term {
  int64_t coefficient;
  Expr monomial;
};
Term split_term(Expr term);
Expr join_term(int64_t coefficient, Expr monomial);

// Applies a known function name (Min, int_floor, ceiling, ...) to arguments; nullopt when the
// name is not a known function or the arity does not fit. Used by the parser and call().
const Node* apply_known_function(std::string_view name, const std::vector<Expr>& args);

inline bool is_truediv(Expr e) { return e->op == Op::Call && e->name == "truediv" && e->args.size() == 2; }
inline bool is_boolean_valued(Expr e) {
  switch (e->op) {
    case Op::Boolean: case Op::Lt: case Op::Le: case Op::Eq: case Op::Ne:
    case Op::And: case Op::Or: case Op::Not:
      return true;
    default:
      return false;
  }
}

}  // namespace dace::sym::detail

namespace dace::sym::detail {
// Rebuilds e's kind of node over new operands through the canonicalizing constructors.
Expr rebuild_node(Expr e, const std::vector<Expr>& args);
}  // namespace dace::sym::detail

namespace dace::sym::detail {
// n-ary Add / Mul in one canonicalization pass (empty: 0 / 1).
Expr sum_of(const std::vector<Expr>& operands);
Expr product_of(const std::vector<Expr>& operands);
}  // namespace dace::sym::detail
