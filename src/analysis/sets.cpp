// ISL bridge: subsets are written as ISL set descriptions over shared parameters and decided
// with isl_set_is_subset / isl_set_is_empty. One isl_ctx per question, freed before returning.
#include "analysis/sets.h"

#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/set.h>

#include <map>
#include <string>
#include <unordered_map>

namespace dace::analysis {
namespace {

using sym::Expr;
using sym::Op;

// Writes expressions as ISL affine text, naming symbols p<k> and abstracted non-affine
// sub-terms q<k>. Names are assigned in order of first use, which is deterministic.
class IslWriter {
 public:
  explicit IslWriter(const sym::Assumptions& as) : as_(as) {}

  bool abstracted() const { return !abstractions_.empty(); }

  std::optional<std::string> text(Expr e) { return write(sym::expand(e)); }

  // Parameter list and the constraints the assumptions put on the parameters.
  std::string params() const {
    std::string s = "[";
    bool first = true;
    for (const auto& name : order_) {
      if (!first) s += ", ";
      s += name;
      first = false;
    }
    return s + "]";
  }

  std::string context() const {
    std::string s = "true";
    for (const auto& [name, b] : param_bounds_) {
      if (b.lo) s += " and " + name + " >= " + std::to_string(*b.lo);
      if (b.hi) s += " and " + name + " <= " + std::to_string(*b.hi);
    }
    return s;
  }

 private:
  const sym::Assumptions& as_;
  std::map<std::string, std::string> symbols_;           // symbol name -> p<k>
  std::vector<std::pair<Expr, std::string>> abstractions_;  // non-affine term -> q<k>
  std::vector<std::string> order_;                        // every parameter, in creation order
  std::map<std::string, sym::Bounds> param_bounds_;

  std::string param_for_symbol(Expr e) {
    auto it = symbols_.find(e->name);
    if (it != symbols_.end()) return it->second;
    std::string name = "p" + std::to_string(symbols_.size());
    symbols_.emplace(e->name, name);
    order_.push_back(name);
    param_bounds_[name] = sym::bounds(e, as_);
    return name;
  }

  std::string abstract(Expr e) {
    for (const auto& [x, name] : abstractions_) {
      if (x == e) return name;
    }
    std::string name = "q" + std::to_string(abstractions_.size());
    abstractions_.emplace_back(e, name);
    order_.push_back(name);
    param_bounds_[name] = sym::bounds(e, as_);
    // Keep the symbols inside the abstracted term as parameters too, so their assumption
    // constraints stay visible next to it.
    for (const auto& s : sym::free_symbols(e)) param_for_symbol(sym::symbol(s));
    return name;
  }

  static bool positive_constant(Expr e) { return e->op == Op::Integer && e->value > 0; }

  std::optional<std::string> write(Expr e) {
    switch (e->op) {
      case Op::Integer:
        return std::to_string(e->value);
      case Op::Symbol:
        return param_for_symbol(e);
      case Op::Add: {
        std::string s = "(";
        for (size_t i = 0; i < e->args.size(); ++i) {
          auto t = write(e->args[i]);
          if (!t) return std::nullopt;
          s += (i ? " + " : "") + *t;
        }
        return s + ")";
      }
      case Op::Mul: {
        if (e->args[0]->op != Op::Integer) return abstract(e);
        std::vector<Expr> rest(e->args.begin() + 1, e->args.end());
        Expr r = rest[0];
        for (size_t i = 1; i < rest.size(); ++i) r = sym::mul(r, rest[i]);
        auto t = rest.size() == 1 ? write(r) : std::optional<std::string>(abstract(r));
        if (!t) return std::nullopt;
        return std::to_string(e->args[0]->value) + "*(" + *t + ")";
      }
      case Op::FloorDiv:
      case Op::CeilDiv:
      case Op::Mod: {
        if (!positive_constant(e->args[1])) return abstract(e);
        auto a = write(e->args[0]);
        if (!a) return std::nullopt;
        std::string k = std::to_string(e->args[1]->value);
        if (e->op == Op::Mod) return "((" + *a + ") mod " + k + ")";
        return std::string(e->op == Op::FloorDiv ? "floor" : "ceil") + "((" + *a + ")/" + k + ")";
      }
      case Op::Min:
      case Op::Max: {
        std::string s = e->op == Op::Min ? "min(" : "max(";
        for (size_t i = 0; i < e->args.size(); ++i) {
          auto t = write(e->args[i]);
          if (!t) return std::nullopt;
          s += (i ? ", " : "") + *t;
        }
        return s + ")";
      }
      case Op::Boolean:
      case Op::Lt: case Op::Le: case Op::Eq: case Op::Ne:
      case Op::And: case Op::Or: case Op::Not:
        return std::nullopt;  // not an index value
      default:
        return abstract(e);
    }
  }
};

// A subset written as ISL constraints over dims x0..; `exact` is false when the text is an
// over-approximation (symbolic steps, tiles).
struct SetText {
  std::vector<std::string> conds;
  std::vector<std::string> exists;  // existential variables (strides)
  bool exact = true;
};

// Conjunction of several subsets' constraints over the same dims, as one ISL condition.
std::string body_text(const std::vector<const SetText*>& parts) {
  std::string all = "true";
  std::string vars;
  for (const SetText* p : parts) {
    for (const auto& c : p->conds) all += " and " + c;
    for (const auto& e : p->exists) vars += (vars.empty() ? "" : ", ") + e;
  }
  if (vars.empty()) return all;
  return "exists (" + vars + " : " + all + ")";
}

// `tag` keeps the existential names of different subsets apart.
std::optional<SetText> subset_text(const sym::Subset& s, IslWriter& w, const sym::Assumptions& as, char tag) {
  SetText out;
  std::vector<std::string>& conds = out.conds;
  std::vector<std::string>& exists = out.exists;
  for (size_t d = 0; d < s.dims.size(); ++d) {
    sym::Range r = s.dims[d];
    if (!r.start || !r.end) return std::nullopt;
    if (!r.step) r.step = sym::integer(1);
    if (!r.tile) r.tile = sym::integer(1);
    std::string x = "x" + std::to_string(d);
    auto start = w.text(r.start);
    auto end = w.text(r.end);
    if (!start || !end) return std::nullopt;
    auto step = sym::as_integer(r.step);
    auto tile = sym::as_integer(r.tile);
    if (tile != int64_t{1}) {
      // Tiles widen each step's block; keep the dense hull up to end + tile - 1.
      if (!tile || *tile < 1) return std::nullopt;
      out.exact = false;
      conds.push_back(*start + " <= " + x + " and " + x + " <= " + *end + " + " + std::to_string(*tile - 1));
      continue;
    }
    if (step == int64_t{1}) {
      conds.push_back(*start + " <= " + x + " and " + x + " <= " + *end);
    } else if (step && *step != 0) {
      std::string e = std::string(1, tag) + std::to_string(d);
      exists.push_back(e);
      conds.push_back(x + " = " + *start + " + " + std::to_string(*step) + "*" + e + " and " + e + " >= 0");
      conds.push_back(*step > 0 ? x + " <= " + *end : x + " >= " + *end);
    } else {
      // Symbolic step: the dense hull between start and end, if its direction is known.
      out.exact = false;
      if (sym::prove(sym::le(sym::integer(1), r.step), as) == true) {
        conds.push_back(*start + " <= " + x + " and " + x + " <= " + *end);
      } else if (sym::prove(sym::le(r.step, sym::integer(-1)), as) == true) {
        conds.push_back(*end + " <= " + x + " and " + x + " <= " + *start);
      } else {
        return std::nullopt;
      }
    }
  }
  return out;
}

std::string dims_text(size_t rank) {
  std::string s = "[";
  for (size_t d = 0; d < rank; ++d) s += (d ? ", x" : "x") + std::to_string(d);
  return s + "]";
}

// Owns one isl_ctx and the sets read into it.
class IslSession {
 public:
  IslSession() : ctx_(isl_ctx_alloc()) {
    if (ctx_) {
      isl_options_set_on_error(ctx_, ISL_ON_ERROR_CONTINUE);
      isl_ctx_set_max_operations(ctx_, 2000000);  // bounded time on adversarial input
    }
  }
  ~IslSession() {
    for (isl_set* s : sets_) isl_set_free(s);
    if (ctx_) isl_ctx_free(ctx_);
  }
  IslSession(const IslSession&) = delete;
  IslSession& operator=(const IslSession&) = delete;

  isl_set* read(const std::string& text) {
    if (!ctx_) return nullptr;
    isl_set* s = isl_set_read_from_str(ctx_, text.c_str());
    if (s) sets_.push_back(s);
    return s;
  }

  static std::optional<bool> to_optional(isl_bool b) {
    if (b == isl_bool_error) return std::nullopt;
    return b == isl_bool_true;
  }

 private:
  isl_ctx* ctx_;
  std::vector<isl_set*> sets_;
};

std::string set_text(const IslWriter& w, size_t rank, const std::vector<const SetText*>& parts) {
  return w.params() + " -> { " + dims_text(rank) + " : " + w.context() + " and " + body_text(parts) + " }";
}

// Validation asks ISL the same question many times (each edge of a memlet path, each
// dimension, each state of a time loop); the answer depends only on the query text, so each
// thread remembers answers. Bounded: cleared when full, which only costs recomputation.
class QueryMemo {
 public:
  static QueryMemo& local() {
    thread_local QueryMemo memo;
    return memo;
  }
  const std::optional<bool>* find(const std::string& key) const {
    auto it = answers_.find(key);
    return it == answers_.end() ? nullptr : &it->second;
  }
  std::optional<bool> remember(std::string key, std::optional<bool> answer) {
    if (answers_.size() >= kCapacity) answers_.clear();
    answers_.emplace(std::move(key), answer);
    return answer;
  }

 private:
  static constexpr size_t kCapacity = 8192;
  std::unordered_map<std::string, std::optional<bool>> answers_;
};

}  // namespace

std::optional<bool> subset_covers(const sym::Subset& outer, const sym::Subset& inner,
                                  const sym::Assumptions& assumptions) {
  if (outer.rank() != inner.rank()) return std::nullopt;
  IslWriter w(assumptions);
  auto o = subset_text(outer, w, assumptions, 'a');
  auto i = subset_text(inner, w, assumptions, 'b');
  if (!o || !i) return std::nullopt;
  std::string outer_text = set_text(w, outer.rank(), {&*o});
  std::string inner_text = set_text(w, inner.rank(), {&*i});
  std::string key = std::string("covers|") + (o->exact ? '1' : '0') + (i->exact ? '1' : '0') +
                    (w.abstracted() ? '1' : '0') + "|" + outer_text + "|" + inner_text;
  QueryMemo& memo = QueryMemo::local();
  if (const auto* known = memo.find(key)) return *known;
  IslSession isl;
  isl_set* os = isl.read(outer_text);
  isl_set* is = isl.read(inner_text);
  if (!os || !is) return memo.remember(std::move(key), std::nullopt);
  // An over-approximated outer set could claim coverage it does not have.
  auto r = IslSession::to_optional(isl_set_is_subset(is, os));
  if (r == true && !o->exact) r = std::nullopt;
  if (r == false && (!i->exact || !o->exact || w.abstracted())) r = std::nullopt;
  return memo.remember(std::move(key), r);
}

std::optional<bool> subsets_intersect(const sym::Subset& a, const sym::Subset& b,
                                      const sym::Assumptions& assumptions) {
  if (a.rank() != b.rank()) return std::nullopt;
  IslWriter w(assumptions);
  auto at = subset_text(a, w, assumptions, 'a');
  auto bt = subset_text(b, w, assumptions, 'b');
  if (!at || !bt) return std::nullopt;
  std::string text = set_text(w, a.rank(), {&*at, &*bt});
  std::string key = std::string("meets|") + (at->exact && bt->exact && !w.abstracted() ? '1' : '0') + "|" + text;
  QueryMemo& memo = QueryMemo::local();
  if (const auto* known = memo.find(key)) return *known;
  IslSession isl;
  isl_set* as = isl.read(text);
  if (!as) return memo.remember(std::move(key), std::nullopt);
  auto empty = IslSession::to_optional(isl_set_is_empty(as));
  std::optional<bool> r;
  if (empty && *empty) r = false;
  else if (empty && at->exact && bt->exact && !w.abstracted()) r = true;
  return memo.remember(std::move(key), r);
}

std::optional<bool> subset_within_shape(const sym::Subset& subset, const std::vector<sym::Expr>& shape,
                                        const sym::Assumptions& assumptions) {
  if (subset.rank() != shape.size()) return std::nullopt;
  sym::Subset box;
  for (Expr extent : shape) {
    if (extent == nullptr) return std::nullopt;
    box.dims.push_back({sym::integer(0), sym::sub(extent, sym::integer(1)), sym::integer(1), sym::integer(1)});
  }
  return subset_covers(box, subset, assumptions);
}

}  // namespace dace::analysis
