#include "ir/tasklet/ast.h"

#include <algorithm>
#include <bit>

namespace dace::tasklet {

const char* op_text(UnaryOpKind op) {
  switch (op) {
    case UnaryOpKind::Plus: return "+";
    case UnaryOpKind::Minus: return "-";
    case UnaryOpKind::Invert: return "~";
    case UnaryOpKind::Not: return "not";
  }
  return "?";
}

const char* op_text(BinOpKind op) {
  switch (op) {
    case BinOpKind::Add: return "+";
    case BinOpKind::Sub: return "-";
    case BinOpKind::Mult: return "*";
    case BinOpKind::Div: return "/";
    case BinOpKind::FloorDiv: return "//";
    case BinOpKind::Mod: return "%";
    case BinOpKind::Pow: return "**";
    case BinOpKind::LShift: return "<<";
    case BinOpKind::RShift: return ">>";
    case BinOpKind::BitAnd: return "&";
    case BinOpKind::BitOr: return "|";
    case BinOpKind::BitXor: return "^";
  }
  return "?";
}

const char* op_text(BoolOpKind op) { return op == BoolOpKind::And ? "and" : "or"; }

const char* op_text(CmpOpKind op) {
  switch (op) {
    case CmpOpKind::Eq: return "==";
    case CmpOpKind::NotEq: return "!=";
    case CmpOpKind::Lt: return "<";
    case CmpOpKind::LtE: return "<=";
    case CmpOpKind::Gt: return ">";
    case CmpOpKind::GtE: return ">=";
  }
  return "?";
}

namespace {

int height_of(const ExprPtr& e) { return e ? e->height : 0; }

int max_height(const std::vector<ExprPtr>& v) {
  int h = 0;
  for (const ExprPtr& e : v) h = std::max(h, height_of(e));
  return h;
}

struct ChildHeight {
  int operator()(const Name&) const { return 0; }
  int operator()(const Constant&) const { return 0; }
  int operator()(const UnaryOp& n) const { return height_of(n.operand); }
  int operator()(const BinOp& n) const { return std::max(height_of(n.left), height_of(n.right)); }
  int operator()(const BoolOp& n) const { return max_height(n.values); }
  int operator()(const Compare& n) const {
    return std::max(height_of(n.left), max_height(n.comparators));
  }
  int operator()(const IfExp& n) const {
    return std::max({height_of(n.test), height_of(n.body), height_of(n.orelse)});
  }
  int operator()(const Call& n) const {
    int h = max_height(n.args);
    for (const Keyword& k : n.keywords) h = std::max(h, height_of(k.value));
    return h;
  }
  int operator()(const Subscript& n) const {
    return std::max(height_of(n.value), max_height(n.indices));
  }
  int operator()(const Slice& n) const {
    return std::max({height_of(n.lower), height_of(n.upper), height_of(n.step)});
  }
  int operator()(const Attribute& n) const { return height_of(n.value); }
};

bool equal_list(const std::vector<ExprPtr>& a, const std::vector<ExprPtr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!equal(a[i], b[i])) return false;
  return true;
}

bool equal_body(const std::vector<StmtPtr>& a, const std::vector<StmtPtr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i] || !b[i]) {
      if (a[i] != b[i]) return false;
      continue;
    }
    if (!equal(*a[i], *b[i])) return false;
  }
  return true;
}

bool equal_node(const Name& a, const Name& b) { return a.id == b.id; }
bool equal_node(const Constant& a, const Constant& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case ConstantKind::Int: return a.int_value == b.int_value;
    case ConstantKind::Bool: return a.bool_value == b.bool_value;
    case ConstantKind::Float:
    case ConstantKind::Complex:
      return std::bit_cast<uint64_t>(a.value) == std::bit_cast<uint64_t>(b.value);
  }
  return false;
}
bool equal_node(const UnaryOp& a, const UnaryOp& b) {
  return a.op == b.op && equal(a.operand, b.operand);
}
bool equal_node(const BinOp& a, const BinOp& b) {
  return a.op == b.op && equal(a.left, b.left) && equal(a.right, b.right);
}
bool equal_node(const BoolOp& a, const BoolOp& b) {
  return a.op == b.op && equal_list(a.values, b.values);
}
bool equal_node(const Compare& a, const Compare& b) {
  return a.ops == b.ops && equal(a.left, b.left) && equal_list(a.comparators, b.comparators);
}
bool equal_node(const IfExp& a, const IfExp& b) {
  return equal(a.test, b.test) && equal(a.body, b.body) && equal(a.orelse, b.orelse);
}
bool equal_node(const Call& a, const Call& b) {
  if (a.func != b.func || !equal_list(a.args, b.args)) return false;
  if (a.keywords.size() != b.keywords.size()) return false;
  for (size_t i = 0; i < a.keywords.size(); ++i) {
    if (a.keywords[i].name != b.keywords[i].name) return false;
    if (!equal(a.keywords[i].value, b.keywords[i].value)) return false;
  }
  return true;
}
bool equal_node(const Subscript& a, const Subscript& b) {
  return equal(a.value, b.value) && equal_list(a.indices, b.indices);
}
bool equal_node(const Slice& a, const Slice& b) {
  return equal(a.lower, b.lower) && equal(a.upper, b.upper) && equal(a.step, b.step);
}
bool equal_node(const Attribute& a, const Attribute& b) {
  return a.attr == b.attr && equal(a.value, b.value);
}

bool equal_node(const Assign& a, const Assign& b) {
  return equal_list(a.targets, b.targets) && equal(a.value, b.value);
}
bool equal_node(const AugAssign& a, const AugAssign& b) {
  return a.op == b.op && equal(a.target, b.target) && equal(a.value, b.value);
}
bool equal_node(const If& a, const If& b) {
  return equal(a.test, b.test) && equal_body(a.body, b.body) && equal_body(a.orelse, b.orelse);
}
bool equal_node(const ExprStmt& a, const ExprStmt& b) { return equal(a.value, b.value); }
bool equal_node(const Pass&, const Pass&) { return true; }

}  // namespace

ExprPtr make_expr(SourceLoc loc, ExprNode node, ScalarType type, Weak weak) {
  auto e = std::make_shared<Expr>();
  e->loc = loc;
  e->height = 1 + std::visit(ChildHeight{}, node);
  e->node = std::move(node);
  e->type = type;
  e->weak = weak;
  return e;
}

StmtPtr make_stmt(SourceLoc loc, StmtNode node) {
  auto s = std::make_shared<Stmt>();
  s->loc = loc;
  s->node = std::move(node);
  return s;
}

bool equal(const Expr& a, const Expr& b) {
  if (a.node.index() != b.node.index()) return false;
  return std::visit(
      [&b](const auto& na) {
        using T = std::decay_t<decltype(na)>;
        return equal_node(na, std::get<T>(b.node));
      },
      a.node);
}

bool equal(const ExprPtr& a, const ExprPtr& b) {
  if (!a || !b) return a == b;
  return equal(*a, *b);
}

bool equal(const Stmt& a, const Stmt& b) {
  if (a.node.index() != b.node.index()) return false;
  return std::visit(
      [&b](const auto& na) {
        using T = std::decay_t<decltype(na)>;
        return equal_node(na, std::get<T>(b.node));
      },
      a.node);
}

bool equal(const Program& a, const Program& b) { return equal_body(a.body, b.body); }

std::optional<std::string> dotted_name(const Expr& e) {
  if (const Name* n = e.as<Name>()) return n->id;
  if (const Attribute* a = e.as<Attribute>()) {
    if (!a->value) return std::nullopt;
    std::optional<std::string> base = dotted_name(*a->value);
    if (!base) return std::nullopt;
    return *base + "." + a->attr;
  }
  return std::nullopt;
}

}  // namespace dace::tasklet
