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

std::string expr_text(const ExprPtr& e) { return e ? to_source(*e) : std::string(); }

std::string joined(const std::vector<ExprPtr>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    s += expr_text(v[i]);
  }
  return s;
}

struct ExprPrinter {
  std::string operator()(const Name& n) const { return n.id; }
  std::string operator()(const Constant& c) const { return constant_text(c); }
  // Chains print with one pair of parentheses, not one per link, so that code the parser
  // accepted (whose nesting it limits) prints back within that limit: ((a - b) - c) - d is
  // (a - b - c - d) and - (- x) is (- - x), the same trees when parsed again.
  std::string operator()(const UnaryOp& n) const { return "(" + unary_chain(n) + ")"; }
  std::string operator()(const BinOp& n) const { return "(" + left_chain(n) + ")"; }

  // `not` binds looser than the other unary operators: `- not x` is not Python, so a `not`
  // operand keeps its parentheses unless the outer operator is `not` as well.
  static std::string unary_chain(const UnaryOp& n) {
    const UnaryOp* inner = n.operand ? std::get_if<UnaryOp>(&n.operand->node) : nullptr;
    bool flat = inner && (inner->op != UnaryOpKind::Not || n.op == UnaryOpKind::Not);
    return std::string(op_text(n.op)) + " " + (flat ? unary_chain(*inner) : expr_text(n.operand));
  }
  // Binary operators are left-associative except `**`: the left operand of the same
  // operator needs no parentheses.
  static std::string left_chain(const BinOp& n) {
    const BinOp* inner = n.left ? std::get_if<BinOp>(&n.left->node) : nullptr;
    bool flat = inner && inner->op == n.op && n.op != BinOpKind::Pow;
    return (flat ? left_chain(*inner) : expr_text(n.left)) + " " + op_text(n.op) + " " + expr_text(n.right);
  }
  std::string operator()(const BoolOp& n) const {
    std::string s = "(";
    for (size_t i = 0; i < n.values.size(); ++i) {
      if (i) s += std::string(" ") + op_text(n.op) + " ";
      s += expr_text(n.values[i]);
    }
    return s + ")";
  }
  std::string operator()(const Compare& n) const {
    std::string s = "(" + expr_text(n.left);
    for (size_t i = 0; i < n.ops.size() && i < n.comparators.size(); ++i)
      s += std::string(" ") + op_text(n.ops[i]) + " " + expr_text(n.comparators[i]);
    return s + ")";
  }
  std::string operator()(const IfExp& n) const {
    return "(" + expr_text(n.body) + " if " + expr_text(n.test) + " else " + expr_text(n.orelse) + ")";
  }
  std::string operator()(const Call& n) const {
    std::string s = n.func + "(" + joined(n.args);
    for (size_t i = 0; i < n.keywords.size(); ++i) {
      if (i || !n.args.empty()) s += ", ";
      s += n.keywords[i].name + "=" + expr_text(n.keywords[i].value);
    }
    return s + ")";
  }
  std::string operator()(const Subscript& n) const {
    return expr_text(n.value) + "[" + joined(n.indices) + "]";
  }
  std::string operator()(const Slice& n) const {
    std::string s = expr_text(n.lower) + ":" + expr_text(n.upper);
    if (n.step) s += ":" + expr_text(n.step);
    return s;
  }
  std::string operator()(const Attribute& n) const {
    // `1.real` would lex as a float followed by a name.
    bool wrap = n.value && n.value->is<Constant>();
    std::string base = expr_text(n.value);
    return (wrap ? "(" + base + ")" : base) + "." + n.attr;
  }
};

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

std::string to_source(const Expr& e) { return std::visit(ExprPrinter{}, e.node); }

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
