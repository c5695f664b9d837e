// Abstract syntax tree of DaCe's Python tasklet subset (DESIGN.md §4 "Tasklet language").
// Nodes are immutable and shared (std::shared_ptr<const ...>): copying a tree is O(1) and
// rewriting passes rebuild only the path they change. Every node carries its source position.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ir/tasklet/promotion.h"
#include "ir/tasklet/types.h"

namespace dace::tasklet {

// 1-based position of a node's first character; 0/0 for nodes built without source.
struct SourceLoc {
  int line = 0;
  int column = 0;
};

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;
struct Stmt;
using StmtPtr = std::shared_ptr<const Stmt>;

enum class UnaryOpKind { Plus, Minus, Invert, Not };
enum class BinOpKind { Add, Sub, Mult, Div, FloorDiv, Mod, Pow, LShift, RShift, BitAnd, BitOr, BitXor };
enum class BoolOpKind { And, Or };
enum class CmpOpKind { Eq, NotEq, Lt, LtE, Gt, GtE };
enum class ConstantKind { Int, Float, Bool, Complex };

// Python spelling of the operator ("+", "//", "not", "and", "<=").
const char* op_text(UnaryOpKind op);
const char* op_text(BinOpKind op);
const char* op_text(BoolOpKind op);
const char* op_text(CmpOpKind op);

struct Name {
  std::string id;
};

// A literal. Python integer literals are never negative (`-1` is UnaryOp(Minus, 1)); they
// must fit in 64 unsigned bits. A complex literal (`2j`) is purely imaginary: `value` holds
// its imaginary part.
struct Constant {
  ConstantKind kind = ConstantKind::Int;
  uint64_t int_value = 0;  // Int
  double value = 0.0;      // Float, Complex (imaginary part)
  bool bool_value = false; // Bool
};

struct UnaryOp {
  UnaryOpKind op;
  ExprPtr operand;
};

struct BinOp {
  BinOpKind op;
  ExprPtr left;
  ExprPtr right;
};

// `a and b and c` is one BoolOp with three values, as in Python.
struct BoolOp {
  BoolOpKind op;
  std::vector<ExprPtr> values;
};

// Chained comparison `a < b <= c`: ops.size() == comparators.size().
struct Compare {
  ExprPtr left;
  std::vector<CmpOpKind> ops;
  std::vector<ExprPtr> comparators;
};

struct IfExp {
  ExprPtr test;
  ExprPtr body;
  ExprPtr orelse;
};

struct Keyword {
  std::string name;
  ExprPtr value;
  SourceLoc loc;
};

// Only named functions are called in tasklets: `func` is the dotted name as written
// ("math.sin", "dace.float32", "s.push", "min").
struct Call {
  std::string func;
  std::vector<ExprPtr> args;
  std::vector<Keyword> keywords;
};

// `a[i, j]`: one entry per index; an entry may be a Slice.
struct Subscript {
  ExprPtr value;
  std::vector<ExprPtr> indices;
};

// `lower:upper:step` inside a subscript; absent parts are null.
struct Slice {
  ExprPtr lower;
  ExprPtr upper;
  ExprPtr step;
};

// `value.attr`, e.g. `math.pi` or `z.real`.
struct Attribute {
  ExprPtr value;
  std::string attr;
};

using ExprNode =
    std::variant<Name, Constant, UnaryOp, BinOp, BoolOp, Compare, IfExp, Call, Subscript, Slice, Attribute>;

struct Expr {
  SourceLoc loc;
  ExprNode node;
  // Filled in by typecheck(); Unknown straight out of the parser.
  ScalarType type = ScalarType::Unknown;
  // Filled in by typecheck() with `type`: whether the value is a Python literal (or made of
  // literals only) in NumPy's sense (NEP 50, promotion.h). Decided there once, so the code
  // generator promotes comparisons and augmented assignments as the type checker did.
  Weak weak = Weak::None;
  // Height of the tree below and including this node (a leaf is 1); maintained by
  // make_expr so that recursive consumers can rely on the parser's bound.
  int height = 1;

  template <class T>
  const T* as() const { return std::get_if<T>(&node); }
  template <class T>
  bool is() const { return std::holds_alternative<T>(node); }
};

// The only way to build an Expr: computes `height` from the children.
ExprPtr make_expr(SourceLoc loc, ExprNode node, ScalarType type = ScalarType::Unknown, Weak weak = Weak::None);

struct Assign {
  std::vector<ExprPtr> targets;  // `a = b = v` has two; each a Name or a Subscript of a Name
  ExprPtr value;
};

struct AugAssign {
  ExprPtr target;
  BinOpKind op;
  ExprPtr value;
};

// `elif` is an If as the single statement of `orelse`, as in Python's AST.
struct If {
  ExprPtr test;
  std::vector<StmtPtr> body;
  std::vector<StmtPtr> orelse;
};

struct ExprStmt {
  ExprPtr value;
};

struct Pass {};

using StmtNode = std::variant<Assign, AugAssign, If, ExprStmt, Pass>;

struct Stmt {
  SourceLoc loc;
  StmtNode node;

  template <class T>
  const T* as() const { return std::get_if<T>(&node); }
  template <class T>
  bool is() const { return std::holds_alternative<T>(node); }
};

StmtPtr make_stmt(SourceLoc loc, StmtNode node);

struct Program {
  std::vector<StmtPtr> body;
};

// A single `name = expression` (LoopRegion init/update statements, interstate assignments).
struct Assignment {
  std::string target;
  SourceLoc target_loc;
  ExprPtr value;
};

// Structural equality: node kinds, operators, names and literal values (floats bitwise).
// Source positions and type annotations are ignored. Null pointers equal only each other.
bool equal(const Expr& a, const Expr& b);
bool equal(const ExprPtr& a, const ExprPtr& b);
bool equal(const Stmt& a, const Stmt& b);
bool equal(const Program& a, const Program& b);

// "math.sin" for Attribute(Name(math), sin); nullopt if the expression is not a dotted name.
std::optional<std::string> dotted_name(const Expr& e);

}  // namespace dace::tasklet
