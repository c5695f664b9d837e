// Symbolic integer expressions (DESIGN.md §4): an in-house, hash-consed expression DAG.
// Every Expr is interned in a process-wide table, built in canonical form, so two
// expressions that are equal after canonicalization are the same pointer: equality and
// hashing are O(1). Interning is thread-safe; nodes live for the life of the process.
//
// Semantics follow DaCe: symbols are integers (int64), positive unless declared otherwise;
// `//` and floor() are floor division, `%` is Python's modulo (sign of the divisor).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ir/result.h"
#include "ir/symbolic/inline_one_list.h"

namespace dace::sym {

enum class Op : uint8_t {
  Integer,   // value
  Boolean,   // value (0/1)
  Symbol,    // name
  Add,       // n-ary, canonical operand order, constants folded
  Mul,       // n-ary, canonical operand order, constants folded
  Pow,       // base, exponent (integer exponents only are simplified)
  FloorDiv,  // a // b
  CeilDiv,   // ceiling(a / b)
  Mod,       // Python a % b
  Min,       // n-ary
  Max,       // n-ary
  Lt, Le, Eq, Ne,  // comparisons (Gt/Ge are canonicalized to Lt/Le with swapped operands)
  And, Or, Not,
  Call,      // uninterpreted function, name + args (kept for round-trip, e.g. int_floor)
};

struct Node;
using Expr = const Node*;

struct Node {
  Op op;
  int64_t value = 0;          // Integer / Boolean
  std::string name;           // Symbol / Call
  std::vector<Expr> args;     // operands
  size_t hash = 0;
};

// ---- construction (always canonical; never fails) ----
Expr integer(int64_t v);
Expr boolean(bool v);
Expr symbol(std::string_view name);
Expr add(Expr a, Expr b);
Expr sub(Expr a, Expr b);
Expr mul(Expr a, Expr b);
Expr neg(Expr a);
Expr pow(Expr base, Expr exponent);
Expr floordiv(Expr a, Expr b);
Expr ceildiv(Expr a, Expr b);
Expr mod(Expr a, Expr b);
Expr min(Expr a, Expr b);
Expr max(Expr a, Expr b);
Expr lt(Expr a, Expr b);
Expr le(Expr a, Expr b);
Expr eq(Expr a, Expr b);
Expr ne(Expr a, Expr b);
Expr logical_and(Expr a, Expr b);
Expr logical_or(Expr a, Expr b);
Expr logical_not(Expr a);
Expr call(std::string_view name, std::vector<Expr> args);
// Additions (not in the first draft of this header):
Expr gt(Expr a, Expr b);       // lt(b, a)
Expr ge(Expr a, Expr b);       // le(b, a)
// Python `a / b`: folds when b divides a exactly, else Call("truediv", {a, b}), printed `a/b`.
Expr truediv(Expr a, Expr b);
Expr abs(Expr a);              // Max(a, -a)

// Deterministic structural total order (never by address): <0, 0, >0. Use it to sort
// expressions wherever the order reaches output.
int compare(Expr a, Expr b);
struct ExprLess {
  bool operator()(Expr a, Expr b) const { return compare(a, b) < 0; }
};

// ---- text ----
// Parses both DaCe dialects: plain (`N - 1`, `Min(N, 2)`, `int_floor(N, 2)`, `ceiling(N/32)`,
// `N**2`) and the typed form of DaCe >= 2.0a4 (`$N`, `symbol($N, dtype=dace.int64)`).
// Errors are Code::ParseError with the 1-based column of the offending character.
Result<Expr> parse(std::string_view text);
// Prints DaCe 1.x syntax (plain dialect), deterministically; parse(to_string(e)) == e.
std::string to_string(Expr e);

// ---- queries and rewriting ----
bool is_integer(Expr e);
std::optional<int64_t> as_integer(Expr e);
std::set<std::string> free_symbols(Expr e);   // sorted
Expr substitute(Expr e, const std::map<std::string, Expr>& replacements);
// Polynomial normal form: multiplies out products and non-negative integer powers of sums
// (recursively, also inside Min/Max/FloorDiv/... operands). Equal polynomials expand to the
// same pointer. Gives up (returns the input form) on a term blow-up beyond a few thousand.
Expr expand(Expr e);

// Facts about symbols. Symbols not listed are assumed positive (>= 1), as in DaCe.
struct Assumptions {
  std::set<std::string> nonnegative;  // >= 0 (e.g. map parameters starting at 0)
  std::set<std::string> unrestricted; // any sign
  std::map<std::string, std::pair<std::optional<int64_t>, std::optional<int64_t>>> bounds;
};
// Simplifies using the assumptions (min/max/floor/mod/comparisons that become decidable).
Expr simplify(Expr e, const Assumptions& assumptions = {});
// Decides a boolean expression (or `a >= 0` style facts) if the assumptions allow it.
// A non-boolean expression is read with Python truthiness (`e != 0`).
std::optional<bool> prove(Expr condition, const Assumptions& assumptions = {});
// Integer interval of e's values under the assumptions (nullopt = unbounded that side).
struct Bounds {
  std::optional<int64_t> lo, hi;
};
Bounds bounds(Expr e, const Assumptions& assumptions = {});

// Evaluates with every free symbol bound. Errors: NotFound (unbound symbol, named),
// InvalidArgument (division or modulo by zero), Unsupported (uninterpreted call).
Result<int64_t> evaluate(Expr e, const std::map<std::string, int64_t>& values);

// Affine form sum(coeffs[v] * v) + constant over the given variables, where coefficients
// are integers. Returns nullopt when e is not affine in them. Other symbols (parameters) may
// appear only in the constant part, which is why the constant is an Expr (e is expanded
// first, so `2*(i + N)` gives {i: 2}, constant 2*N).
struct Affine {
  std::map<std::string, int64_t> coefficients;  // variable -> coefficient (non-zero only)
  Expr constant;                                // may contain parameters
};
std::optional<Affine> affine(Expr e, const std::set<std::string>& variables);

// ---- ranges and subsets (memlet syntax) ----
// Inclusive end, as in DaCe's Range: `0:N` in memlet syntax is {0, N-1, 1, 1}.
struct Range {
  Expr start, end, step, tile;
  bool operator==(const Range&) const = default;
};
// One range inline (InlineOneList): the common one-dimensional subset needs no heap block.
struct Subset {
  InlineOneList<Range> dims;
  bool operator==(const Subset&) const = default;
  size_t rank() const { return dims.size(); }
};
// Parses DaCe memlet subset syntax: `i, 0:N, 1:N-1:2`; an index `i` is the range i:i+1.
// Columns in errors are relative to `text`.
Result<Subset> parse_subset(std::string_view text);
// Prints `i, 0:N, 1:N - 1:2` (index form when start == end and step == 1).
std::string to_string(const Subset& s);
// Number of elements: product over dims of ceil((end - start + 1) / step).
Expr volume(const Subset& s);
std::vector<Expr> size(const Subset& s);  // per dimension

}  // namespace dace::sym
