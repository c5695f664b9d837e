#include "transform/loop_bounds.h"

#include <string_view>

namespace dace::transform {
namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n')) s.remove_suffix(1);
  return std::string(s);
}

// "i = <expr>" -> <expr>, when the left-hand side is exactly `var`.
std::optional<sym::Expr> assigned_value(const std::string& code, const std::string& var) {
  const size_t eq = code.find('=');
  if (eq == std::string::npos || eq + 1 >= code.size() || code[eq + 1] == '=') return std::nullopt;
  if (trim(std::string_view(code).substr(0, eq)) != var) return std::nullopt;
  Result<sym::Expr> e = sym::parse(trim(std::string_view(code).substr(eq + 1)));
  if (!e.ok()) return std::nullopt;
  return *e;
}

bool is_var(sym::Expr e, const std::string& var) { return e->op == sym::Op::Symbol && e->name == var; }

}  // namespace

std::optional<LoopBounds> loop_bounds(const ir::LoopRegion& loop) {
  const std::string& v = loop.loop_variable;
  if (v.empty() || loop.inverted) return std::nullopt;
  std::optional<sym::Expr> start = assigned_value(loop.init_statement.code, v);
  std::optional<sym::Expr> next = assigned_value(loop.update_statement.code, v);
  if (!start || !next || sym::free_symbols(*start).count(v)) return std::nullopt;
  // The update must be i + s with a constant s: then the iterations form an arithmetic range.
  std::optional<sym::Affine> upd = sym::affine(*next, {v});
  if (!upd || upd->coefficients.size() != 1 || upd->coefficients.begin()->second != 1) return std::nullopt;
  std::optional<int64_t> step = sym::as_integer(upd->constant);
  if (!step || *step == 0) return std::nullopt;

  Result<sym::Expr> cond = sym::parse(loop.loop_condition.code);
  if (!cond.ok()) return std::nullopt;
  sym::Expr c = *cond;
  if ((c->op != sym::Op::Lt && c->op != sym::Op::Le) || c->args.size() != 2) return std::nullopt;
  const bool strict = c->op == sym::Op::Lt;
  LoopBounds b;
  b.start = *start;
  b.step = *step;
  // Gt/Ge are canonicalized as Lt/Le with swapped operands, so the variable's side tells the
  // direction: `i < e` bounds from above (needs a positive step), `e < i` from below.
  if (is_var(c->args[0], v) && !sym::free_symbols(c->args[1]).count(v)) {
    if (*step < 0) return std::nullopt;
    b.end = strict ? sym::sub(c->args[1], sym::integer(1)) : c->args[1];
  } else if (is_var(c->args[1], v) && !sym::free_symbols(c->args[0]).count(v)) {
    if (*step > 0) return std::nullopt;
    b.end = strict ? sym::add(c->args[0], sym::integer(1)) : c->args[0];
  } else {
    return std::nullopt;
  }
  return b;
}

std::optional<sym::Range> ascending_range(const LoopBounds& b) {
  if (b.step > 0) return sym::Range{b.start, b.end, sym::integer(b.step), sym::integer(1)};
  if (b.step == -1) return sym::Range{b.end, b.start, sym::integer(1), sym::integer(1)};
  return std::nullopt;
}

}  // namespace dace::transform
