// Canonicalizing constructors: every Expr is built through these, so the canonical form
// (docs/symbolic.md) is established once, at construction.
#include <algorithm>
#include <utility>

#include "ir/symbolic/internal.h"

namespace dace::sym {

using detail::make;
using detail::py_floordiv;
using detail::py_mod;
using detail::Term;
using detail::wrap_add;
using detail::wrap_mul;

namespace detail {

int64_t py_floordiv(int64_t a, int64_t b) {
  if (b == -1) return static_cast<int64_t>(0 - static_cast<uint64_t>(a));  // INT64_MIN / -1
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t py_mod(int64_t a, int64_t b) {
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

Term split_term(Expr term) {
  if (term->op == Op::Integer) return {term->value, nullptr};
  if (term->op == Op::Mul && term->args[0]->op == Op::Integer) {
    std::vector<Expr> rest(term->args.begin() + 1, term->args.end());
    Expr mono = rest.size() == 1 ? rest[0] : make(Op::Mul, std::move(rest));
    return {term->args[0]->value, mono};
  }
  return {1, term};
}

Expr join_term(int64_t coefficient, Expr monomial) {
  if (monomial == nullptr || coefficient == 0) return integer(monomial ? 0 : coefficient);
  if (coefficient == 1) return monomial;
  // A monomial never is a sum (sums are flattened), so no distribution is needed here.
  std::vector<Expr> args{integer(coefficient)};
  if (monomial->op == Op::Mul) {
    args.insert(args.end(), monomial->args.begin(), monomial->args.end());
  } else {
    args.push_back(monomial);
  }
  return make(Op::Mul, std::move(args));
}

}  // namespace detail

using detail::join_term;
using detail::split_term;

Expr integer(int64_t v) { return make(Op::Integer, {}, v); }
Expr boolean(bool v) { return make(Op::Boolean, {}, v ? 1 : 0); }
Expr symbol(std::string_view name) { return make(Op::Symbol, {}, 0, name); }

bool is_integer(Expr e) { return e->op == Op::Integer; }
std::optional<int64_t> as_integer(Expr e) {
  if (e->op == Op::Integer) return e->value;
  return std::nullopt;
}

namespace {

// Polynomial degree of a monomial, used only to order the terms of a sum.
int64_t degree(Expr e) {
  switch (e->op) {
    case Op::Integer: return 0;
    case Op::Mul: {
      int64_t d = 0;
      for (Expr f : e->args) d = wrap_add(d, degree(f));
      return d;
    }
    case Op::Pow:
      if (e->args[1]->op == Op::Integer) return wrap_mul(degree(e->args[0]), e->args[1]->value);
      return 1;
    case Op::Add: {
      int64_t d = 0;
      for (Expr t : e->args) d = std::max(d, degree(t));
      return d;
    }
    default: return 1;
  }
}

// Sum of terms: like terms (same monomial) are collected, the constant goes last.
Expr add_n(const std::vector<Expr>& operands) {
  std::vector<Term> terms;
  int64_t constant = 0;
  auto push = [&](Expr t) {
    Term term = split_term(t);
    if (term.monomial == nullptr) {
      constant = wrap_add(constant, term.coefficient);
    } else {
      terms.push_back(term);
    }
  };
  for (Expr e : operands) {
    if (e->op == Op::Add) {
      for (Expr t : e->args) push(t);
    } else {
      push(e);
    }
  }
  // Higher degree first (reads like a polynomial: N**2 + N + 1), then the structural order.
  std::vector<std::pair<int64_t, Term>> keyed;
  keyed.reserve(terms.size());
  for (const Term& t : terms) keyed.emplace_back(degree(t.monomial), t);
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) {
    if (x.first != y.first) return x.first > y.first;
    return compare(x.second.monomial, y.second.monomial) < 0;
  });
  for (size_t i = 0; i < terms.size(); ++i) terms[i] = keyed[i].second;
  std::vector<Expr> out;
  for (size_t i = 0; i < terms.size();) {
    int64_t c = 0;
    size_t j = i;
    for (; j < terms.size() && terms[j].monomial == terms[i].monomial; ++j) {
      c = wrap_add(c, terms[j].coefficient);
    }
    if (c != 0) out.push_back(join_term(c, terms[i].monomial));
    i = j;
  }
  if (constant != 0 || out.empty()) out.push_back(integer(constant));
  if (out.size() == 1) return out[0];
  return make(Op::Add, std::move(out));
}

struct Factor {
  Expr base;
  Expr exponent;
};

Expr mul_n(const std::vector<Expr>& operands) {
  int64_t coefficient = 1;
  std::vector<Factor> factors;
  std::vector<Expr> pending(operands.rbegin(), operands.rend());
  while (!pending.empty()) {
    Expr e = pending.back();
    pending.pop_back();
    if (e->op == Op::Integer) {
      coefficient = wrap_mul(coefficient, e->value);
    } else if (e->op == Op::Mul) {
      for (auto it = e->args.rbegin(); it != e->args.rend(); ++it) pending.push_back(*it);
    } else if (e->op == Op::Pow) {
      factors.push_back({e->args[0], e->args[1]});
    } else {
      factors.push_back({e, integer(1)});
    }
  }
  if (coefficient == 0) return integer(0);
  std::stable_sort(factors.begin(), factors.end(), [](const Factor& x, const Factor& y) {
    return compare(x.base, y.base) < 0;
  });
  std::vector<Expr> out;
  for (size_t i = 0; i < factors.size();) {
    std::vector<Expr> exps;
    size_t j = i;
    for (; j < factors.size() && factors[j].base == factors[i].base; ++j) exps.push_back(factors[j].exponent);
    Expr exponent = exps.size() == 1 ? exps[0] : add_n(exps);
    Expr p = pow(factors[i].base, exponent);
    if (p->op == Op::Integer) {
      coefficient = wrap_mul(coefficient, p->value);
    } else if (p->op == Op::Mul) {
      // Only reachable for unusual bases; fold its coefficient and keep its factors.
      for (Expr f : p->args) {
        if (f->op == Op::Integer) {
          coefficient = wrap_mul(coefficient, f->value);
        } else {
          out.push_back(f);
        }
      }
    } else {
      out.push_back(p);
    }
    i = j;
  }
  if (coefficient == 0) return integer(0);
  if (out.empty()) return integer(coefficient);
  // Products of a sum by a constant are distributed: 2*(N - 1) == 2*N - 2.
  if (out.size() == 1 && out[0]->op == Op::Add && coefficient != 1) {
    std::vector<Expr> terms;
    for (Expr t : out[0]->args) {
      Term term = split_term(t);
      terms.push_back(join_term(wrap_mul(term.coefficient, coefficient), term.monomial));
    }
    return add_n(terms);
  }
  std::stable_sort(out.begin(), out.end(), [](Expr x, Expr y) {
    Expr bx = x->op == Op::Pow ? x->args[0] : x;
    Expr by = y->op == Op::Pow ? y->args[0] : y;
    int c = compare(bx, by);
    return c != 0 ? c < 0 : compare(x, y) < 0;
  });
  if (coefficient == 1 && out.size() == 1) return out[0];
  if (coefficient != 1) out.insert(out.begin(), integer(coefficient));
  return make(Op::Mul, std::move(out));
}

int64_t wrap_pow(int64_t base, int64_t exponent) {
  int64_t result = 1;
  while (exponent > 0) {
    if (exponent & 1) result = wrap_mul(result, base);
    base = wrap_mul(base, base);
    exponent >>= 1;
  }
  return result;
}

// Exact quotient a / b when b divides every term of a (integer b dividing all coefficients,
// or a symbolic factor present in every term); nullptr otherwise.
Expr exact_quotient(Expr a, Expr b) {
  if (b->op == Op::Integer) {
    int64_t k = b->value;
    if (k == 0) return nullptr;
    if (k == 1) return a;
    std::vector<Expr> terms = a->op == Op::Add ? a->args : std::vector<Expr>{a};
    std::vector<Expr> out;
    for (Expr t : terms) {
      Term term = split_term(t);
      if (term.coefficient % k != 0) return nullptr;
      out.push_back(join_term(term.coefficient / k, term.monomial));
    }
    return add_n(out);
  }
  if (a == b) return integer(1);
  // Symbolic divisor: b must be a plain factor of every term (b itself not a sum).
  if (b->op == Op::Add || b->op == Op::Mul) return nullptr;
  std::vector<Expr> terms = a->op == Op::Add ? a->args : std::vector<Expr>{a};
  std::vector<Expr> out;
  for (Expr t : terms) {
    if (t == b) {
      out.push_back(integer(1));
      continue;
    }
    if (t->op != Op::Mul) return nullptr;
    auto it = std::find(t->args.begin(), t->args.end(), b);
    if (it == t->args.end()) return nullptr;
    std::vector<Expr> rest;
    for (auto jt = t->args.begin(); jt != t->args.end(); ++jt) {
      if (jt != it) rest.push_back(*jt);
    }
    out.push_back(mul_n(rest));
  }
  return add_n(out);
}

enum class Extremum { Min, Max };

Expr minmax_n(Extremum kind, const std::vector<Expr>& operands) {
  Op op = kind == Extremum::Min ? Op::Min : Op::Max;
  std::vector<Expr> items;
  std::optional<int64_t> constant;
  std::vector<Expr> pending(operands.rbegin(), operands.rend());
  while (!pending.empty()) {
    Expr e = pending.back();
    pending.pop_back();
    if (e->op == op) {
      for (auto it = e->args.rbegin(); it != e->args.rend(); ++it) pending.push_back(*it);
    } else if (e->op == Op::Integer) {
      if (!constant) {
        constant = e->value;
      } else {
        constant = kind == Extremum::Min ? std::min(*constant, e->value) : std::max(*constant, e->value);
      }
    } else {
      items.push_back(e);
    }
  }
  if (constant) items.push_back(integer(*constant));
  // Operands that differ by a constant: only the smaller (Min) / larger (Max) matters.
  std::vector<bool> dropped(items.size(), false);
  for (size_t i = 0; i < items.size(); ++i) {
    for (size_t j = 0; j < items.size() && !dropped[i]; ++j) {
      if (i == j || dropped[j]) continue;
      if (items[i] == items[j]) {
        if (j < i) dropped[i] = true;
        continue;
      }
      Expr d = sub(items[i], items[j]);
      if (d->op != Op::Integer) continue;
      if (kind == Extremum::Min ? d->value > 0 : d->value < 0) dropped[i] = true;
    }
  }
  std::vector<Expr> out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (!dropped[i]) out.push_back(items[i]);
  }
  std::sort(out.begin(), out.end(), ExprLess{});
  if (out.size() == 1) return out[0];
  return make(op, std::move(out));
}

Expr logic_n(Op op, const std::vector<Expr>& operands) {
  bool absorbing = op == Op::Or;  // True absorbs Or, False absorbs And
  std::vector<Expr> items;
  std::vector<Expr> pending(operands.rbegin(), operands.rend());
  while (!pending.empty()) {
    Expr e = pending.back();
    pending.pop_back();
    if (e->op == op) {
      for (auto it = e->args.rbegin(); it != e->args.rend(); ++it) pending.push_back(*it);
    } else if (e->op == Op::Boolean) {
      if ((e->value != 0) == absorbing) return boolean(absorbing);
    } else {
      items.push_back(e);
    }
  }
  std::sort(items.begin(), items.end(), ExprLess{});
  items.erase(std::unique(items.begin(), items.end()), items.end());
  if (items.empty()) return boolean(!absorbing);
  if (items.size() == 1) return items[0];
  return make(op, std::move(items));
}

}  // namespace

namespace detail {
Expr sum_of(const std::vector<Expr>& operands) { return add_n(operands); }
Expr product_of(const std::vector<Expr>& operands) { return mul_n(operands); }
}  // namespace detail

Expr add(Expr a, Expr b) { return add_n({a, b}); }
Expr sub(Expr a, Expr b) { return add_n({a, neg(b)}); }
Expr mul(Expr a, Expr b) { return mul_n({a, b}); }
Expr neg(Expr a) { return mul_n({integer(-1), a}); }

Expr pow(Expr base, Expr exponent) {
  if (exponent->op == Op::Integer) {
    int64_t k = exponent->value;
    if (k == 0) return integer(1);
    if (k == 1) return base;
    if (base->op == Op::Integer) {
      if (base->value == 1) return base;
      if (base->value == -1) return integer(k % 2 == 0 ? 1 : -1);
      if (k > 0) return integer(wrap_pow(base->value, k));
      if (base->value == 0) return make(Op::Pow, {base, exponent});  // 0**-k: undefined, kept
      return make(Op::Pow, {base, exponent});
    }
    if (base->op == Op::Pow) return pow(base->args[0], mul(base->args[1], exponent));
    if (base->op == Op::Mul) {
      std::vector<Expr> factors;
      for (Expr f : base->args) factors.push_back(pow(f, exponent));
      return mul_n(factors);
    }
  } else if (base->op == Op::Integer && (base->value == 1)) {
    return base;
  }
  return make(Op::Pow, {base, exponent});
}

Expr floordiv(Expr a, Expr b) {
  if (b->op == Op::Integer) {
    int64_t k = b->value;
    if (k == 0) return make(Op::FloorDiv, {a, b});  // evaluate() reports the error
    if (a->op == Op::Integer) return integer(py_floordiv(a->value, k));
    if (k == 1) return a;
    if (k == -1) return neg(a);
    // floor(floor(x / p) / q) == floor(x / (p*q)) for positive p, q.
    if (k > 0 && a->op == Op::FloorDiv && a->args[1]->op == Op::Integer && a->args[1]->value > 0) {
      return floordiv(a->args[0], integer(wrap_mul(a->args[1]->value, k)));
    }
  }
  if (a->op == Op::Integer && a->value == 0) return a;
  if (Expr q = exact_quotient(a, b)) return q;
  return make(Op::FloorDiv, {a, b});
}

Expr ceildiv(Expr a, Expr b) {
  if (b->op == Op::Integer) {
    int64_t k = b->value;
    if (k == 0) return make(Op::CeilDiv, {a, b});
    if (a->op == Op::Integer) return neg(integer(py_floordiv(wrap_mul(a->value, -1), k)));
    if (k == 1) return a;
    if (k == -1) return neg(a);
  }
  if (a->op == Op::Integer && a->value == 0) return a;
  if (Expr q = exact_quotient(a, b)) return q;
  return make(Op::CeilDiv, {a, b});
}

Expr mod(Expr a, Expr b) {
  if (b->op == Op::Integer) {
    int64_t k = b->value;
    if (k == 0) return make(Op::Mod, {a, b});
    if (a->op == Op::Integer) return integer(py_mod(a->value, k));
    if (k == 1 || k == -1) return integer(0);
    if (k > 0) {
      // (x + k*y + c) % k == (x + (c mod k)) % k: reduce every coefficient modulo k.
      std::vector<Expr> terms = a->op == Op::Add ? a->args : std::vector<Expr>{a};
      std::vector<Expr> out;
      for (Expr t : terms) {
        Term term = split_term(t);
        out.push_back(join_term(py_mod(term.coefficient, k), term.monomial));
      }
      Expr reduced = add_n(out);
      if (reduced->op == Op::Integer) return integer(py_mod(reduced->value, k));
      if (reduced->op == Op::Mod && reduced->args[1] == b) return reduced;
      a = reduced;
    }
  }
  if (a->op == Op::Integer && a->value == 0) return a;
  if (exact_quotient(a, b) != nullptr) return integer(0);
  return make(Op::Mod, {a, b});
}

Expr min(Expr a, Expr b) { return minmax_n(Extremum::Min, {a, b}); }
Expr max(Expr a, Expr b) { return minmax_n(Extremum::Max, {a, b}); }
Expr abs(Expr a) { return max(a, neg(a)); }

Expr lt(Expr a, Expr b) {
  Expr d = sub(b, a);
  if (d->op == Op::Integer) return boolean(d->value > 0);
  return make(Op::Lt, {a, b});
}
Expr le(Expr a, Expr b) {
  Expr d = sub(b, a);
  if (d->op == Op::Integer) return boolean(d->value >= 0);
  return make(Op::Le, {a, b});
}
Expr gt(Expr a, Expr b) { return lt(b, a); }
Expr ge(Expr a, Expr b) { return le(b, a); }

Expr eq(Expr a, Expr b) {
  if (a == b) return boolean(true);
  Expr d = sub(a, b);
  if (d->op == Op::Integer) return boolean(d->value == 0);
  if (compare(b, a) < 0) std::swap(a, b);
  return make(Op::Eq, {a, b});
}
Expr ne(Expr a, Expr b) {
  if (a == b) return boolean(false);
  Expr d = sub(a, b);
  if (d->op == Op::Integer) return boolean(d->value != 0);
  if (compare(b, a) < 0) std::swap(a, b);
  return make(Op::Ne, {a, b});
}

Expr logical_and(Expr a, Expr b) { return logic_n(Op::And, {a, b}); }
Expr logical_or(Expr a, Expr b) { return logic_n(Op::Or, {a, b}); }

Expr logical_not(Expr a) {
  switch (a->op) {
    case Op::Boolean: return boolean(a->value == 0);
    case Op::Not: return a->args[0];
    case Op::Lt: return le(a->args[1], a->args[0]);
    case Op::Le: return lt(a->args[1], a->args[0]);
    case Op::Eq: return ne(a->args[0], a->args[1]);
    case Op::Ne: return eq(a->args[0], a->args[1]);
    default: return make(Op::Not, {a});
  }
}

Expr truediv(Expr a, Expr b) {
  if (!(b->op == Op::Integer && b->value == 0)) {
    if (Expr q = exact_quotient(a, b)) return q;
  }
  return make(Op::Call, {a, b}, 0, "truediv");
}

namespace detail {

const Node* apply_known_function(std::string_view name, const std::vector<Expr>& args) {
  size_t n = args.size();
  if (name == "Min" || name == "min") return n >= 1 ? minmax_n(Extremum::Min, args) : nullptr;
  if (name == "Max" || name == "max") return n >= 1 ? minmax_n(Extremum::Max, args) : nullptr;
  if (name == "Mod") return n == 2 ? mod(args[0], args[1]) : nullptr;
  if (name == "int_floor") return n == 2 ? floordiv(args[0], args[1]) : nullptr;
  if (name == "int_ceil") return n == 2 ? ceildiv(args[0], args[1]) : nullptr;
  if (name == "Abs" || name == "abs") return n == 1 ? abs(args[0]) : nullptr;
  if (name == "floor" || name == "ceiling" || name == "ceil") {
    if (n != 1) return nullptr;
    Expr x = args[0];
    // Values are integers, so floor/ceiling only matter around a true division.
    if (is_truediv(x)) return name == "floor" ? floordiv(x->args[0], x->args[1]) : ceildiv(x->args[0], x->args[1]);
    return x;
  }
  if (name == "truediv") return n == 2 ? truediv(args[0], args[1]) : nullptr;
  if (name == "pow" || name == "Pow") return n == 2 ? pow(args[0], args[1]) : nullptr;
  return nullptr;
}

}  // namespace detail

Expr call(std::string_view name, std::vector<Expr> args) {
  if (Expr known = detail::apply_known_function(name, args)) return known;
  return make(Op::Call, std::move(args), 0, name);
}

}  // namespace dace::sym
