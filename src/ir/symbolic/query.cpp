// Traversals: free symbols, substitution, evaluation, expansion, affine forms.
#include <algorithm>
#include <unordered_map>

#include "ir/symbolic/internal.h"

namespace dace::sym {
namespace {

void collect_symbols(Expr e, std::set<std::string>& out) {
  if (e->op == Op::Symbol) {
    out.insert(e->name);
    return;
  }
  for (Expr a : e->args) collect_symbols(a, out);
}

// Rebuilds a node from new operands through the canonicalizing constructors.
Expr rebuild(Expr e, const std::vector<Expr>& a) {
  auto fold = [&](Expr (*f)(Expr, Expr)) {
    Expr r = a[0];
    for (size_t i = 1; i < a.size(); ++i) r = f(r, a[i]);
    return r;
  };
  switch (e->op) {
    case Op::Integer: case Op::Boolean: case Op::Symbol: return e;
    case Op::Add: return detail::sum_of(a);
    case Op::Mul: return detail::product_of(a);
    case Op::Pow: return pow(a[0], a[1]);
    case Op::FloorDiv: return floordiv(a[0], a[1]);
    case Op::CeilDiv: return ceildiv(a[0], a[1]);
    case Op::Mod: return mod(a[0], a[1]);
    case Op::Min: return fold(min);
    case Op::Max: return fold(max);
    case Op::Lt: return lt(a[0], a[1]);
    case Op::Le: return le(a[0], a[1]);
    case Op::Eq: return eq(a[0], a[1]);
    case Op::Ne: return ne(a[0], a[1]);
    case Op::And: return fold(logical_and);
    case Op::Or: return fold(logical_or);
    case Op::Not: return logical_not(a[0]);
    case Op::Call: return call(e->name, a);
  }
  return e;
}

template <class F>
Expr transform(Expr e, std::unordered_map<Expr, Expr>& memo, F&& leaf) {
  auto it = memo.find(e);
  if (it != memo.end()) return it->second;
  Expr r;
  if (Expr replaced = leaf(e)) {
    r = replaced;
  } else if (e->args.empty()) {
    r = e;
  } else {
    std::vector<Expr> a;
    a.reserve(e->args.size());
    bool changed = false;
    for (Expr x : e->args) {
      a.push_back(transform(x, memo, leaf));
      changed |= a.back() != x;
    }
    r = changed ? rebuild(e, a) : e;
  }
  memo.emplace(e, r);
  return r;
}

// ---- evaluation with overflow and division checks ----

struct Evaluator {
  const std::map<std::string, int64_t>& values;

  Result<int64_t> overflow() { return make_error(Code::InvalidArgument, "integer overflow in symbolic evaluation"); }

  Result<int64_t> eval(Expr e) {
    switch (e->op) {
      case Op::Integer:
      case Op::Boolean:
        return e->value;
      case Op::Symbol: {
        auto it = values.find(e->name);
        if (it == values.end()) return make_error(Code::NotFound, "symbol '" + e->name + "' has no value");
        return it->second;
      }
      default:
        break;
    }
    // Short-circuit logic first (Python semantics; results are 0/1).
    if (e->op == Op::And || e->op == Op::Or) {
      bool is_and = e->op == Op::And;
      for (Expr a : e->args) {
        auto v = eval(a);
        if (!v) return v;
        if ((*v != 0) != is_and) return is_and ? 0 : 1;
      }
      return is_and ? 1 : 0;
    }
    std::vector<int64_t> v;
    for (Expr a : e->args) {
      auto r = eval(a);
      if (!r) return r;
      v.push_back(*r);
    }
    int64_t r = 0;
    switch (e->op) {
      case Op::Add:
        r = 0;
        for (int64_t x : v) {
          if (__builtin_add_overflow(r, x, &r)) return overflow();
        }
        return r;
      case Op::Mul:
        r = 1;
        for (int64_t x : v) {
          if (__builtin_mul_overflow(r, x, &r)) return overflow();
        }
        return r;
      case Op::Pow: {
        int64_t base = v[0], k = v[1];
        if (k < 0) {
          if (base == 1) return 1;
          if (base == -1) return k % 2 == 0 ? 1 : -1;
          if (base == 0) return make_error(Code::InvalidArgument, "zero to a negative power");
          return make_error(Code::Unsupported, "negative exponent gives a non-integer: " + to_string(e));
        }
        r = 1;
        for (int64_t i = 0; i < k; ++i) {
          if (__builtin_mul_overflow(r, base, &r)) return overflow();
          if (r == 0 || r == 1) break;
          if (r == -1) return (k - i - 1) % 2 == 0 ? -1 : 1;
        }
        return r;
      }
      case Op::FloorDiv:
      case Op::CeilDiv:
      case Op::Mod: {
        if (v[1] == 0) return make_error(Code::InvalidArgument, "division by zero in " + to_string(e));
        if (v[0] == INT64_MIN && v[1] == -1 && e->op != Op::Mod) return overflow();
        if (e->op == Op::Mod) return detail::py_mod(v[0], v[1]);
        if (e->op == Op::FloorDiv) return detail::py_floordiv(v[0], v[1]);
        if (v[0] == INT64_MIN) return overflow();
        return -detail::py_floordiv(-v[0], v[1]);
      }
      case Op::Min:
        return *std::min_element(v.begin(), v.end());
      case Op::Max:
        return *std::max_element(v.begin(), v.end());
      case Op::Lt: return v[0] < v[1];
      case Op::Le: return v[0] <= v[1];
      case Op::Eq: return v[0] == v[1];
      case Op::Ne: return v[0] != v[1];
      case Op::Not: return v[0] == 0;
      case Op::Call:
        if (detail::is_truediv(e)) {
          if (v[1] == 0) return make_error(Code::InvalidArgument, "division by zero in " + to_string(e));
          if (v[0] == INT64_MIN && v[1] == -1) return overflow();
          if (v[0] % v[1] == 0) return v[0] / v[1];
          return make_error(Code::Unsupported, "true division has a non-integer result: " + to_string(e));
        }
        return make_error(Code::Unsupported, "cannot evaluate the uninterpreted function " + e->name + "()");
      default:
        break;
    }
    return make_error(Code::Internal, "unknown symbolic operation");
  }
};

// ---- expansion ----

constexpr size_t kMaxExpandedTerms = 4096;

std::vector<Expr> terms_of(Expr e) { return e->op == Op::Add ? e->args : std::vector<Expr>{e}; }

// Product of two expanded expressions, multiplied out; nullptr on blow-up.
Expr multiply_out(Expr a, Expr b) {
  std::vector<Expr> ta = terms_of(a), tb = terms_of(b);
  if (ta.size() * tb.size() > kMaxExpandedTerms) return nullptr;
  std::vector<Expr> products;
  products.reserve(ta.size() * tb.size());
  for (Expr x : ta) {
    for (Expr y : tb) products.push_back(mul(x, y));
  }
  return detail::sum_of(products);  // one n-ary add: like terms collected once
}

Expr expand_node(Expr e) {
  if (e->op == Op::Mul) {
    Expr result = integer(1);
    for (Expr f : e->args) {
      Expr r = multiply_out(result, f);
      if (!r) return e;
      result = r;
    }
    return result;
  }
  if (e->op == Op::Pow && e->args[0]->op == Op::Add && e->args[1]->op == Op::Integer &&
      e->args[1]->value > 0 && e->args[1]->value <= 64) {
    Expr result = integer(1);
    for (int64_t i = 0; i < e->args[1]->value; ++i) {
      Expr r = multiply_out(result, e->args[0]);
      if (!r) return e;
      result = r;
    }
    return result;
  }
  return e;
}

Expr expand_rec(Expr e, std::unordered_map<Expr, Expr>& memo) {
  auto it = memo.find(e);
  if (it != memo.end()) return it->second;
  Expr r = e;
  if (!e->args.empty()) {
    std::vector<Expr> a;
    bool changed = false;
    for (Expr x : e->args) {
      a.push_back(expand_rec(x, memo));
      changed |= a.back() != x;
    }
    r = changed ? rebuild(e, a) : e;
    r = expand_node(r);
    // The rebuilt node may itself be a new product of sums (e.g. after distribution).
    if (r != e && r->op == Op::Mul) r = expand_node(r);
  }
  memo.emplace(e, r);
  return r;
}

}  // namespace

std::set<std::string> free_symbols(Expr e) {
  std::set<std::string> out;
  if (e) collect_symbols(e, out);
  return out;
}

Expr substitute(Expr e, const std::map<std::string, Expr>& replacements) {
  if (e == nullptr || replacements.empty()) return e;
  std::unordered_map<Expr, Expr> memo;
  return transform(e, memo, [&](Expr x) -> Expr {
    if (x->op != Op::Symbol) return nullptr;
    auto it = replacements.find(x->name);
    return it == replacements.end() ? nullptr : it->second;
  });
}

Result<int64_t> evaluate(Expr e, const std::map<std::string, int64_t>& values) {
  if (e == nullptr) return make_error(Code::InvalidArgument, "null expression");
  return Evaluator{values}.eval(e);
}

Expr expand(Expr e) {
  detail::ExpandMemo memo;
  return detail::expand(e, memo);
}

Expr detail::expand(Expr e, ExpandMemo& memo) { return e == nullptr ? e : expand_rec(e, memo); }

std::optional<Affine> affine(Expr e, const std::set<std::string>& variables) {
  if (e == nullptr) return std::nullopt;
  Expr x = expand(e);
  Affine out;
  std::vector<Expr> constant_terms;
  for (Expr t : terms_of(x)) {
    std::set<std::string> syms = free_symbols(t);
    bool uses_variable = false;
    for (const auto& s : syms) uses_variable |= variables.count(s) > 0;
    if (!uses_variable) {
      constant_terms.push_back(t);
      continue;
    }
    detail::Term term = detail::split_term(t);
    if (term.monomial == nullptr || term.monomial->op != Op::Symbol) return std::nullopt;
    out.coefficients[term.monomial->name] += term.coefficient;
  }
  for (auto it = out.coefficients.begin(); it != out.coefficients.end();) {
    it = it->second == 0 ? out.coefficients.erase(it) : std::next(it);
  }
  out.constant = detail::sum_of(constant_terms);
  return out;
}

namespace detail {
Expr rebuild_node(Expr e, const std::vector<Expr>& args) { return rebuild(e, args); }
}  // namespace detail

}  // namespace dace::sym
