#include "ir/tasklet/printer.h"

#include <charconv>
#include <cmath>

namespace dace::tasklet {

namespace {

std::string float_text(double v) {
  if (std::isinf(v)) return v > 0 ? "1e999" : "(-1e999)";
  if (std::isnan(v)) return "(1e999 - 1e999)";  // NaN has no literal; this is an expression
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

// Python's binding strengths, loosest first. An operand is parenthesized only when it binds
// looser than its place requires, so that printed code nests no deeper than any source of
// the same tree: the parser limits nesting, and code it accepted must print back within
// that limit (a statement's expression has no outer parentheses either).
enum Strength : int {
  kConditional = 0,  // a if c else b
  kOr, kAnd, kNot, kCompare,
  kBitOr, kBitXor, kBitAnd, kShift, kAdditive, kMultiplicative,
  kUnary,    // - x, + x, ~ x
  kPower,    // a ** b
  kPrimary,  // names, literals, calls, subscripts, attributes, parenthesized text
};

int binary_strength(BinOpKind op) {
  switch (op) {
    case BinOpKind::BitOr: return kBitOr;
    case BinOpKind::BitXor: return kBitXor;
    case BinOpKind::BitAnd: return kBitAnd;
    case BinOpKind::LShift:
    case BinOpKind::RShift: return kShift;
    case BinOpKind::Add:
    case BinOpKind::Sub: return kAdditive;
    case BinOpKind::Mult:
    case BinOpKind::Div:
    case BinOpKind::FloorDiv:
    case BinOpKind::Mod: return kMultiplicative;
    case BinOpKind::Pow: return kPower;
  }
  return kPrimary;
}

struct StrengthOf {
  int operator()(const Constant& c) const {
    // A negative float prints with its sign: it binds as a unary minus does.
    return constant_text(c).starts_with('-') ? kUnary : kPrimary;
  }
  int operator()(const UnaryOp& n) const { return n.op == UnaryOpKind::Not ? kNot : kUnary; }
  int operator()(const BinOp& n) const { return binary_strength(n.op); }
  int operator()(const BoolOp& n) const { return n.op == BoolOpKind::Or ? kOr : kAnd; }
  int operator()(const Compare&) const { return kCompare; }
  int operator()(const IfExp&) const { return kConditional; }
  int operator()(const auto&) const { return kPrimary; }
};

int strength(const Expr& e) { return std::visit(StrengthOf{}, e.node); }

std::string text(const ExprPtr& e, int needed);

std::string joined(const std::vector<ExprPtr>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    s += text(v[i], kConditional);
  }
  return s;
}

// Each operand's needed strength follows the parser's grammar (parser.cpp): binary
// operators are left-associative (the right operand must bind tighter), `**` takes a
// primary on its left and a unary-level operand on its right, chains of `and`/`or` and of
// comparisons nest only through parentheses.
struct ExprPrinter {
  std::string operator()(const Name& n) const { return n.id; }
  std::string operator()(const Constant& c) const { return constant_text(c); }
  std::string operator()(const UnaryOp& n) const {
    return std::string(op_text(n.op)) + " " + text(n.operand, n.op == UnaryOpKind::Not ? kNot : kUnary);
  }
  std::string operator()(const BinOp& n) const {
    const int s = binary_strength(n.op);
    const bool pow = n.op == BinOpKind::Pow;
    return text(n.left, pow ? kPrimary : s) + " " + op_text(n.op) + " " + text(n.right, pow ? kUnary : s + 1);
  }
  std::string operator()(const BoolOp& n) const {
    const int operand = (n.op == BoolOpKind::Or ? kOr : kAnd) + 1;
    std::string s;
    for (size_t i = 0; i < n.values.size(); ++i) {
      if (i) s += std::string(" ") + op_text(n.op) + " ";
      s += text(n.values[i], operand);
    }
    return s;
  }
  std::string operator()(const Compare& n) const {
    std::string s = text(n.left, kBitOr);
    for (size_t i = 0; i < n.ops.size() && i < n.comparators.size(); ++i)
      s += std::string(" ") + op_text(n.ops[i]) + " " + text(n.comparators[i], kBitOr);
    return s;
  }
  std::string operator()(const IfExp& n) const {
    return text(n.body, kOr) + " if " + text(n.test, kOr) + " else " + text(n.orelse, kConditional);
  }
  std::string operator()(const Call& n) const {
    std::string s = n.func + "(" + joined(n.args);
    for (size_t i = 0; i < n.keywords.size(); ++i) {
      if (i || !n.args.empty()) s += ", ";
      s += n.keywords[i].name + "=" + text(n.keywords[i].value, kConditional);
    }
    return s + ")";
  }
  std::string operator()(const Subscript& n) const {
    return text(n.value, kPrimary) + "[" + joined(n.indices) + "]";
  }
  std::string operator()(const Slice& n) const {
    std::string s = text(n.lower, kConditional) + ":" + text(n.upper, kConditional);
    if (n.step) s += ":" + text(n.step, kConditional);
    return s;
  }
  std::string operator()(const Attribute& n) const {
    // `1.real` would lex as a float followed by a name.
    bool wrap = n.value && n.value->is<Constant>();
    std::string base = text(n.value, kPrimary);
    return (wrap && !base.starts_with('(') ? "(" + base + ")" : base) + "." + n.attr;
  }
};

std::string text(const ExprPtr& e, int needed) {
  if (!e) return std::string();
  std::string s = std::visit(ExprPrinter{}, e->node);
  return strength(*e) < needed ? "(" + s + ")" : s;
}

// A statement's expression stands alone: no outer parentheses.
std::string expr_text(const ExprPtr& e) { return text(e, kConditional); }

void print_body(const std::vector<StmtPtr>& body, int indent, std::string& out) {
  if (body.empty()) {
    out += std::string(4 * static_cast<size_t>(indent), ' ') + "pass\n";
    return;
  }
  for (const StmtPtr& s : body)
    if (s) out += to_source(*s, indent);
}

void print_if(const If& n, int indent, const char* keyword, std::string& out) {
  std::string pad(4 * static_cast<size_t>(indent), ' ');
  out += pad + keyword + " " + expr_text(n.test) + ":\n";
  print_body(n.body, indent + 1, out);
  if (n.orelse.empty()) return;
  if (n.orelse.size() == 1 && n.orelse[0] && n.orelse[0]->is<If>()) {
    print_if(*n.orelse[0]->as<If>(), indent, "elif", out);
    return;
  }
  out += pad + "else:\n";
  print_body(n.orelse, indent + 1, out);
}

}  // namespace

std::string constant_text(const Constant& c) {
  switch (c.kind) {
    case ConstantKind::Int: return std::to_string(c.int_value);
    case ConstantKind::Bool: return c.bool_value ? "True" : "False";
    case ConstantKind::Float: return float_text(c.value);
    case ConstantKind::Complex: {
      if (std::isfinite(c.value)) {
        char buf[64];
        auto r = std::to_chars(buf, buf + sizeof buf, c.value);
        return std::string(buf, r.ptr) + "j";
      }
      return std::isinf(c.value) && c.value > 0 ? "1e999j" : "(" + float_text(c.value) + " * 1j)";
    }
  }
  return "0";
}

// Operator expressions keep one outer pair of parentheses so that the text can be embedded
// in other code as it is; literals print bare.
std::string to_source(const Expr& e) {
  std::string s = std::visit(ExprPrinter{}, e.node);
  return e.is<Constant>() || strength(e) == kPrimary ? s : "(" + s + ")";
}

std::string to_source(const Stmt& s, int indent) {
  std::string pad(4 * static_cast<size_t>(indent < 0 ? 0 : indent), ' ');
  std::string out;
  if (const Assign* a = s.as<Assign>()) {
    out = pad;
    for (const ExprPtr& t : a->targets) out += expr_text(t) + " = ";
    out += expr_text(a->value) + "\n";
  } else if (const AugAssign* a = s.as<AugAssign>()) {
    out = pad + expr_text(a->target) + " " + op_text(a->op) + "= " + expr_text(a->value) + "\n";
  } else if (const If* i = s.as<If>()) {
    print_if(*i, indent < 0 ? 0 : indent, "if", out);
  } else if (const ExprStmt* x = s.as<ExprStmt>()) {
    out = pad + expr_text(x->value) + "\n";
  } else {
    out = pad + "pass\n";
  }
  return out;
}

std::string to_source(const Program& p) {
  std::string out;
  for (const StmtPtr& s : p.body)
    if (s) out += to_source(*s, 0);
  return out;
}

}  // namespace dace::tasklet
