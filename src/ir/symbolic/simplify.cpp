// Reasoning under assumptions: interval bounds, prove(), simplify().
#include <algorithm>
#include <map>
#include <unordered_map>

#include "ir/symbolic/internal.h"

namespace dace::sym {
namespace {

// Interval arithmetic on __int128 with saturating infinities; converted to Bounds at the end.
__extension__ typedef __int128 Wide;  // GCC extension; -Wpedantic needs the marker
constexpr Wide kInf = static_cast<Wide>(1) << 100;

struct Iv {
  Wide lo = -kInf, hi = kInf;
};

Wide clamp(Wide v) { return v > kInf ? kInf : (v < -kInf ? -kInf : v); }
bool is_inf(Wide v) { return v >= kInf || v <= -kInf; }

// Sum of two lower (toward = -1) or upper (toward = +1) bounds: an infinity in the bound's
// own direction wins, so inf - inf cannot turn a bound into a finite value.
Wide sat_add(Wide a, Wide b, int toward) {
  if (toward < 0 && (a <= -kInf || b <= -kInf)) return -kInf;
  if (toward > 0 && (a >= kInf || b >= kInf)) return kInf;
  return clamp(a + b);
}

Wide sat_mul(Wide a, Wide b) {
  if (a == 0 || b == 0) return 0;
  bool negative = (a < 0) != (b < 0);
  Wide ma = a < 0 ? -a : a, mb = b < 0 ? -b : b;
  if (ma >= kInf || mb >= kInf || ma > kInf / mb) return negative ? -kInf : kInf;
  return negative ? -(ma * mb) : ma * mb;
}

Wide floor_div(Wide a, Wide k) {  // k != 0, finite a
  Wide q = a / k;
  if ((a % k != 0) && ((a < 0) != (k < 0))) --q;
  return q;
}
Wide div_bound(Wide a, Wide k, bool ceiling) {
  if (is_inf(a)) return (a > 0) == (k > 0) ? kInf : -kInf;
  return ceiling ? -floor_div(-a, k) : floor_div(a, k);
}

Iv symbol_interval(const std::string& name, const Assumptions& as) {
  Iv iv;
  auto b = as.bounds.find(name);
  if (b != as.bounds.end()) {
    if (b->second.first) iv.lo = *b->second.first;
    if (b->second.second) iv.hi = *b->second.second;
    if (as.nonnegative.count(name)) iv.lo = std::max<Wide>(iv.lo, 0);
    return iv;
  }
  if (as.unrestricted.count(name)) return iv;
  iv.lo = as.nonnegative.count(name) ? 0 : 1;
  return iv;
}

class Bounder {
 public:
  explicit Bounder(const Assumptions& as) : as_(as) {}

  Iv get(Expr e) {
    auto it = memo_.find(e);
    if (it != memo_.end()) return it->second;
    Iv r = compute(e);
    memo_.emplace(e, r);
    return r;
  }
  // expand(e), remembered for as long as this bounder (one simplification or bound).
  Expr expanded(Expr e) { return detail::expand(e, expansions_); }

 private:
  const Assumptions& as_;
  std::unordered_map<Expr, Iv> memo_;
  detail::ExpandMemo expansions_;

  static Iv mul_iv(Iv a, Iv b) {
    Wide c[4] = {sat_mul(a.lo, b.lo), sat_mul(a.lo, b.hi), sat_mul(a.hi, b.lo), sat_mul(a.hi, b.hi)};
    return {*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
  }

  Iv divide(Iv a, Expr divisor, bool ceiling) {
    if (divisor->op == Op::Integer && divisor->value != 0) {
      Wide k = divisor->value;
      Wide x = div_bound(a.lo, k, ceiling), y = div_bound(a.hi, k, ceiling);
      return {std::min(x, y), std::max(x, y)};
    }
    Iv d = get(divisor);
    if (d.lo >= 1 && a.lo >= 0) {
      // Non-negative numerator over a positive divisor: quotient within [lo/dmax, hi/dmin].
      Wide lo = is_inf(d.hi) ? 0 : div_bound(a.lo, d.hi, ceiling);
      return {lo, div_bound(a.hi, d.lo, ceiling)};
    }
    return {};
  }

  Iv compute(Expr e) {
    switch (e->op) {
      case Op::Integer:
        return {e->value, e->value};
      case Op::Boolean:
        return {e->value, e->value};
      case Op::Symbol:
        return symbol_interval(e->name, as_);
      case Op::Add: {
        Iv r{0, 0};
        for (Expr a : e->args) {
          Iv x = get(a);
          r.lo = sat_add(r.lo, x.lo, -1);
          r.hi = sat_add(r.hi, x.hi, +1);
        }
        return r;
      }
      case Op::Mul: {
        Iv r{1, 1};
        for (Expr a : e->args) r = mul_iv(r, get(a));
        return r;
      }
      case Op::Pow: {
        auto k = as_integer(e->args[1]);
        if (!k || *k < 0 || *k > 64) return {};  // huge powers saturate anyway
        Iv b = get(e->args[0]);
        if (*k % 2 == 1) {
          Iv r{1, 1};
          for (int64_t i = 0; i < *k; ++i) r = mul_iv(r, b);
          return r;
        }
        Wide small = (b.lo <= 0 && b.hi >= 0) ? 0 : std::min(b.lo < 0 ? -b.lo : b.lo, b.hi < 0 ? -b.hi : b.hi);
        Wide big = std::max(b.lo < 0 ? -b.lo : b.lo, b.hi < 0 ? -b.hi : b.hi);
        Wide lo = 1, hi = 1;
        for (int64_t i = 0; i < *k; ++i) {
          lo = sat_mul(lo, small);
          hi = sat_mul(hi, big);
        }
        return {lo, hi};
      }
      case Op::FloorDiv:
        return divide(get(e->args[0]), e->args[1], false);
      case Op::CeilDiv:
        return divide(get(e->args[0]), e->args[1], true);
      case Op::Mod: {
        Iv d = get(e->args[1]);
        if (d.lo >= 1) {
          Iv a = get(e->args[0]);
          if (a.lo >= 0 && a.hi < d.lo) return a;
          return {0, is_inf(d.hi) ? kInf : d.hi - 1};
        }
        if (d.hi <= -1) return {is_inf(d.lo) ? -kInf : d.lo + 1, 0};
        return {};
      }
      case Op::Min:
      case Op::Max: {
        bool is_min = e->op == Op::Min;
        Iv r = get(e->args[0]);
        for (size_t i = 1; i < e->args.size(); ++i) {
          Iv x = get(e->args[i]);
          r.lo = is_min ? std::min(r.lo, x.lo) : std::max(r.lo, x.lo);
          r.hi = is_min ? std::min(r.hi, x.hi) : std::max(r.hi, x.hi);
        }
        return r;
      }
      case Op::Lt: case Op::Le: case Op::Eq: case Op::Ne:
      case Op::And: case Op::Or: case Op::Not:
        return {0, 1};
      case Op::Call:
        return {};
    }
    return {};
  }
};

Bounds to_bounds(Iv iv) {
  Bounds b;
  if (iv.lo > -kInf && iv.lo >= INT64_MIN && iv.lo <= INT64_MAX) b.lo = static_cast<int64_t>(iv.lo);
  if (iv.hi < kInf && iv.hi >= INT64_MIN && iv.hi <= INT64_MAX) b.hi = static_cast<int64_t>(iv.hi);
  if (iv.lo > INT64_MAX) b.lo = INT64_MAX;
  if (iv.hi < INT64_MIN) b.hi = INT64_MIN;
  return b;
}

// Interval of e, intersecting the bounds of its given and its expanded form (each is sound;
// either can be tighter: (N - 2)**2 >= 0 needs the factored form, N*(N - 1) - N**2 the other).
Iv interval(Expr e, Bounder& b) {
  Iv x = b.get(e);
  Expr ex = b.expanded(e);
  if (ex != e) {
    Iv y = b.get(ex);
    x.lo = std::max(x.lo, y.lo);
    x.hi = std::min(x.hi, y.hi);
  }
  return x;
}

// Proves d >= 0 for a polynomial whose symbols are all >= 1: then a monomial dominates every
// monomial with smaller or equal exponents (N**2 >= N, M*N >= N, N >= 1), so each negative term
// can be paid for by positive terms that dominate it.
bool dominated_nonnegative(Expr d, Bounder& b) {
  struct Mono {
    int64_t coefficient;
    std::map<Expr, int64_t, ExprLess> powers;  // atom -> exponent
  };
  std::vector<Mono> pos, negs;
  std::vector<Expr> terms = d->op == Op::Add ? d->args : std::vector<Expr>{d};
  for (Expr t : terms) {
    detail::Term term = detail::split_term(t);
    Mono m{term.coefficient, {}};
    if (term.monomial) {
      std::vector<Expr> factors = term.monomial->op == Op::Mul ? term.monomial->args : std::vector<Expr>{term.monomial};
      for (Expr f : factors) {
        Expr atom = f;
        int64_t k = 1;
        if (f->op == Op::Pow && f->args[1]->op == Op::Integer && f->args[1]->value > 0) {
          atom = f->args[0];
          k = f->args[1]->value;
        }
        if (b.get(atom).lo < 1) return false;
        m.powers[atom] += k;
      }
    }
    (m.coefficient > 0 ? pos : negs).push_back(std::move(m));
  }
  auto dominates = [](const Mono& a, const Mono& x) {
    for (const auto& [atom, k] : x.powers) {
      auto it = a.powers.find(atom);
      if (it == a.powers.end() || it->second < k) return false;
    }
    return true;
  };
  for (Mono& n : negs) {
    Wide owed = -static_cast<Wide>(n.coefficient);
    for (Mono& p : pos) {
      if (owed == 0) break;
      if (p.coefficient == 0 || !dominates(p, n)) continue;
      Wide pay = std::min<Wide>(owed, p.coefficient);
      p.coefficient -= static_cast<int64_t>(pay);
      owed -= pay;
    }
    if (owed > 0) return false;
  }
  return true;
}

std::optional<bool> negate(std::optional<bool> v) {
  if (!v) return std::nullopt;
  return !*v;
}

class Prover {
 public:
  explicit Prover(const Assumptions& as) : bounder_(as) {}

  std::optional<bool> prove(Expr c, int depth = 0) {
    if (depth > 32) return std::nullopt;
    switch (c->op) {
      case Op::Boolean:
        return c->value != 0;
      case Op::Lt:
        return prove_le(add(c->args[0], integer(1)), c->args[1], depth);
      case Op::Le:
        return prove_le(c->args[0], c->args[1], depth);
      case Op::Eq: {
        Iv d = interval(sub(c->args[0], c->args[1]), bounder_);
        if (d.lo == 0 && d.hi == 0) return true;
        if (d.lo > 0 || d.hi < 0) return false;
        auto le1 = prove_le(c->args[0], c->args[1], depth);
        auto le2 = prove_le(c->args[1], c->args[0], depth);
        if (le1 == false || le2 == false) return false;
        if (le1 == true && le2 == true) return true;
        return std::nullopt;
      }
      case Op::Ne:
        return negate(prove(eq(c->args[0], c->args[1]), depth + 1));
      case Op::Not:
        return negate(prove(c->args[0], depth + 1));
      case Op::And:
      case Op::Or: {
        bool is_and = c->op == Op::And;
        bool unknown = false;
        for (Expr a : c->args) {
          auto v = prove(a, depth + 1);
          if (!v) {
            unknown = true;
          } else if (*v != is_and) {
            return !is_and;
          }
        }
        if (unknown) return std::nullopt;
        return is_and;
      }
      default:
        return prove(ne(c, integer(0)), depth + 1);  // Python truthiness
    }
  }

  Bounder& bounder() { return bounder_; }

 private:
  Bounder bounder_;

  static std::optional<bool> any(std::optional<bool> x, std::optional<bool> y) {
    if (x == true || y == true) return true;
    if (x == false && y == false) return false;
    return std::nullopt;
  }
  static std::optional<bool> all(std::optional<bool> x, std::optional<bool> y) {
    if (x == false || y == false) return false;
    if (x == true && y == true) return true;
    return std::nullopt;
  }

  // a <= b, splitting Min/Max on either side into conjunctions/disjunctions.
  std::optional<bool> prove_le(Expr a, Expr b, int depth) {
    Expr diff = sub(b, a);
    Iv d = interval(diff, bounder_);
    if (d.lo >= 0) return true;
    if (d.hi < 0) return false;
    if (dominated_nonnegative(bounder_.expanded(diff), bounder_)) return true;
    if (dominated_nonnegative(bounder_.expanded(neg(add(diff, integer(1)))), bounder_)) return false;
    if (depth > 8) return std::nullopt;
    auto split = [&](Expr m, bool m_on_left) -> std::optional<bool> {
      // Min(x..) <= b  <=> any x <= b ;  a <= Min(x..) <=> all a <= x
      // Max(x..) <= b  <=> all x <= b ;  a <= Max(x..) <=> any a <= x
      bool use_any = (m->op == Op::Min) == m_on_left;
      std::optional<bool> acc = use_any ? std::optional<bool>(false) : std::optional<bool>(true);
      for (Expr x : m->args) {
        auto v = m_on_left ? prove_le(x, b, depth + 1) : prove_le(a, x, depth + 1);
        acc = use_any ? any(acc, v) : all(acc, v);
      }
      return acc;
    };
    if (a->op == Op::Min || a->op == Op::Max) return split(a, true);
    if (b->op == Op::Min || b->op == Op::Max) return split(b, false);
    return std::nullopt;
  }
};

size_t tree_size(Expr e, size_t cap) {
  size_t n = 1;
  for (Expr a : e->args) {
    n += tree_size(a, cap);
    if (n > cap) return n;
  }
  return n;
}

class Simplifier {
 public:
  explicit Simplifier(const Assumptions& as) : prover_(as) {}

  Expr run(Expr e) {
    auto it = memo_.find(e);
    if (it != memo_.end()) return it->second;
    Expr r = e;
    if (!e->args.empty()) {
      std::vector<Expr> a;
      bool changed = false;
      for (Expr x : e->args) {
        a.push_back(run(x));
        changed |= a.back() != x;
      }
      if (changed) r = detail::rebuild_node(e, a);
      r = local(r);
    }
    memo_.emplace(e, r);
    return r;
  }

 private:
  Prover prover_;
  std::unordered_map<Expr, Expr> memo_;

  Expr local(Expr e) {
    if (e->args.empty()) return e;
    if (detail::is_boolean_valued(e)) {
      auto v = prover_.prove(e);
      return v ? boolean(*v) : e;
    }
    Iv iv = interval(e, prover_.bounder());
    if (iv.lo == iv.hi && !is_inf(iv.lo)) return integer(static_cast<int64_t>(iv.lo));
    switch (e->op) {
      case Op::Min:
      case Op::Max:
        return prune_extrema(e);
      case Op::FloorDiv:
      case Op::Mod: {
        auto k = as_integer(e->args[1]);
        if (!k || *k <= 0) break;
        Iv a = interval(e->args[0], prover_.bounder());
        if (is_inf(a.lo) || is_inf(a.hi)) break;
        Wide q = floor_div(a.lo, *k);
        if (q != floor_div(a.hi, *k)) break;
        // The quotient is the same for every value: floor is that constant, mod is a - k*q.
        if (e->op == Op::FloorDiv) return integer(static_cast<int64_t>(q));
        return sub(e->args[0], integer(static_cast<int64_t>(q * *k)));
      }
      case Op::Add:
      case Op::Mul: {
        Expr ex = prover_.bounder().expanded(e);
        if (ex != e && tree_size(ex, 256) < tree_size(e, 256)) return ex;
        break;
      }
      default:
        break;
    }
    return e;
  }

  // Drops every operand that another operand dominates under the assumptions.
  Expr prune_extrema(Expr e) {
    bool is_min = e->op == Op::Min;
    const auto& xs = e->args;
    std::vector<bool> dropped(xs.size(), false);
    for (size_t i = 0; i < xs.size(); ++i) {
      for (size_t j = 0; j < xs.size() && !dropped[i]; ++j) {
        if (i == j || dropped[j]) continue;
        // Min: x_i is redundant when x_j <= x_i. Max: when x_i <= x_j.
        auto v = is_min ? prover_.prove(le(xs[j], xs[i])) : prover_.prove(le(xs[i], xs[j]));
        if (v == true) dropped[i] = true;
      }
    }
    std::vector<Expr> kept;
    for (size_t i = 0; i < xs.size(); ++i) {
      if (!dropped[i]) kept.push_back(xs[i]);
    }
    if (kept.size() == xs.size()) return e;
    Expr r = kept[0];
    for (size_t i = 1; i < kept.size(); ++i) r = is_min ? min(r, kept[i]) : max(r, kept[i]);
    return r;
  }
};

}  // namespace

Bounds bounds(Expr e, const Assumptions& assumptions) {
  Bounder b(assumptions);
  return to_bounds(interval(e, b));
}

std::optional<bool> prove(Expr condition, const Assumptions& assumptions) {
  if (condition == nullptr) return std::nullopt;
  Prover p(assumptions);
  return p.prove(condition);
}

Expr simplify(Expr e, const Assumptions& assumptions) {
  if (e == nullptr) return e;
  Simplifier s(assumptions);
  return s.run(e);
}

}  // namespace dace::sym
