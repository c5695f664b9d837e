// Printer for DaCe 1.x plain syntax with minimal parentheses (Python precedence).
#include <climits>

#include "ir/symbolic/internal.h"

namespace dace::sym {
namespace {

// Python binding strength, weakest first.
enum Prec : int { kOr = 1, kAnd, kNot, kCmp, kAdd, kMul, kUnary, kPow, kAtom };

struct Printed {
  std::string text;
  int prec;
};

Printed print(Expr e);

std::string wrap(const Printed& p, bool parens) { return parens ? "(" + p.text + ")" : p.text; }

std::string args_text(Expr e) {
  std::string s;
  for (size_t i = 0; i < e->args.size(); ++i) {
    if (i) s += ", ";
    s += print(e->args[i]).text;
  }
  return s;
}

Printed print_function(const char* name, Expr e) { return {std::string(name) + "(" + args_text(e) + ")", kAtom}; }

bool is_negative_term(Expr t) {
  if (t->op == Op::Integer) return t->value < 0 && t->value != INT64_MIN;
  return t->op == Op::Mul && t->args[0]->op == Op::Integer && t->args[0]->value < 0 &&
         t->args[0]->value != INT64_MIN;
}

Printed print_mul(Expr e) {
  size_t first = 0;
  std::string s;
  int prec = kMul;
  if (e->args[0]->op == Op::Integer) {
    int64_t c = e->args[0]->value;
    first = 1;
    if (c == -1) {
      s = "-";
      if (e->args.size() == 2) prec = kUnary;
    } else {
      s = print(e->args[0]).text + "*";
    }
  }
  // The parser multiplies left to right, and an integer times a sum distributes: `2*(a +
  // 1)*f(x)` reads back as (2*a + 2)*f(x). When a sum follows the coefficient and other
  // factors follow it, the factors after the coefficient are parenthesized together
  // (`2*((a + 1)*f(x))`, `-((a + 1)*f(x))`), which reads back as this product.
  const bool group = first == 1 && e->args.size() > 2 && e->args[1]->op == Op::Add;
  if (group) s += "(";
  for (size_t i = first; i < e->args.size(); ++i) {
    if (i > first) s += "*";
    Expr f = e->args[i];
    Printed p = print(f);
    // A true division inside a product keeps its parentheses: `2*N/3` would re-associate.
    bool parens = p.prec < kMul || detail::is_truediv(f) || (prec == kUnary && p.prec < kUnary);
    s += wrap(p, parens);
  }
  if (group) s += ")";
  return {s, prec};
}

Printed print_add(Expr e) {
  std::string s;
  for (size_t i = 0; i < e->args.size(); ++i) {
    Expr t = e->args[i];
    if (i > 0 && is_negative_term(t)) {
      Printed p = print(neg(t));
      s += " - " + wrap(p, p.prec <= kAdd);
    } else {
      Printed p = print(t);
      if (i > 0) s += " + ";
      s += wrap(p, i == 0 ? p.prec < kAdd : p.prec <= kAdd);
    }
  }
  return {s, kAdd};
}

Printed print_binary(Expr e, const char* op, int prec) {
  Printed l = print(e->args[0]);
  Printed r = print(e->args[1]);
  // Comparisons chain in Python, so a comparison operand always needs parentheses.
  bool lp = prec == kCmp ? l.prec <= kCmp : l.prec < prec;
  return {wrap(l, lp) + op + wrap(r, r.prec <= prec), prec};
}

Printed print_logic(Expr e, const char* op, int prec) {
  std::string s;
  for (size_t i = 0; i < e->args.size(); ++i) {
    if (i) s += op;
    Printed p = print(e->args[i]);
    s += wrap(p, p.prec <= prec);
  }
  return {s, prec};
}

Printed print(Expr e) {
  switch (e->op) {
    case Op::Integer:
      if (e->value == INT64_MIN) return {"(-9223372036854775807 - 1)", kAtom};
      return {std::to_string(e->value), e->value < 0 ? int(kUnary) : int(kAtom)};
    case Op::Boolean:
      return {e->value ? "True" : "False", kAtom};
    case Op::Symbol:
      return {e->name, kAtom};
    case Op::Add:
      return print_add(e);
    case Op::Mul:
      return print_mul(e);
    case Op::Pow: {
      Printed b = print(e->args[0]);
      Printed x = print(e->args[1]);
      return {wrap(b, b.prec <= kPow) + "**" + wrap(x, x.prec < kAtom), kPow};
    }
    case Op::FloorDiv: return print_function("int_floor", e);
    case Op::CeilDiv: return print_function("int_ceil", e);
    case Op::Mod: return print_function("Mod", e);
    case Op::Min: return print_function("Min", e);
    case Op::Max: return print_function("Max", e);
    case Op::Lt: return print_binary(e, " < ", kCmp);
    case Op::Le: return print_binary(e, " <= ", kCmp);
    case Op::Eq: return print_binary(e, " == ", kCmp);
    case Op::Ne: return print_binary(e, " != ", kCmp);
    case Op::And: return print_logic(e, " and ", kAnd);
    case Op::Or: return print_logic(e, " or ", kOr);
    case Op::Not: {
      Printed p = print(e->args[0]);
      return {"not " + wrap(p, p.prec < kNot), kNot};
    }
    case Op::Call:
      if (detail::is_truediv(e)) return print_binary(e, "/", kMul);
      return print_function(e->name.c_str(), e);
  }
  return {"?", kAtom};
}

}  // namespace

std::string to_string(Expr e) {
  if (e == nullptr) return "";
  return print(e).text;
}

}  // namespace dace::sym
