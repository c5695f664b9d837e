#include "transform/code_rewrite.h"

#include <type_traits>

#include "ir/tasklet/parser.h"
#include "ir/tasklet/printer.h"

namespace dace::transform {
namespace {

using tasklet::Expr;
using tasklet::ExprPtr;
using tasklet::Stmt;
using tasklet::StmtPtr;

template <class F>
void for_each_child(const Expr& e, F&& f) {
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, tasklet::UnaryOp>) {
          f(n.operand);
        } else if constexpr (std::is_same_v<T, tasklet::BinOp>) {
          f(n.left);
          f(n.right);
        } else if constexpr (std::is_same_v<T, tasklet::BoolOp>) {
          for (const ExprPtr& v : n.values) f(v);
        } else if constexpr (std::is_same_v<T, tasklet::Compare>) {
          f(n.left);
          for (const ExprPtr& v : n.comparators) f(v);
        } else if constexpr (std::is_same_v<T, tasklet::IfExp>) {
          f(n.test);
          f(n.body);
          f(n.orelse);
        } else if constexpr (std::is_same_v<T, tasklet::Call>) {
          for (const ExprPtr& v : n.args) f(v);
          for (const tasklet::Keyword& k : n.keywords) f(k.value);
        } else if constexpr (std::is_same_v<T, tasklet::Subscript>) {
          f(n.value);
          for (const ExprPtr& v : n.indices) f(v);
        } else if constexpr (std::is_same_v<T, tasklet::Slice>) {
          f(n.lower);
          f(n.upper);
          f(n.step);
        } else if constexpr (std::is_same_v<T, tasklet::Attribute>) {
          f(n.value);
        }
      },
      e.node);
}

// Rebuilds `e` with its children mapped through `f` (leaves are returned as they are).
template <class F>
ExprPtr map_children(const ExprPtr& e, F&& f) {
  auto m = [&](const ExprPtr& c) { return c ? f(c) : c; };
  tasklet::ExprNode node = std::visit(
      [&](const auto& n) -> tasklet::ExprNode {
        using T = std::decay_t<decltype(n)>;
        T copy = n;
        if constexpr (std::is_same_v<T, tasklet::UnaryOp>) {
          copy.operand = m(n.operand);
        } else if constexpr (std::is_same_v<T, tasklet::BinOp>) {
          copy.left = m(n.left);
          copy.right = m(n.right);
        } else if constexpr (std::is_same_v<T, tasklet::BoolOp>) {
          for (ExprPtr& v : copy.values) v = m(v);
        } else if constexpr (std::is_same_v<T, tasklet::Compare>) {
          copy.left = m(n.left);
          for (ExprPtr& v : copy.comparators) v = m(v);
        } else if constexpr (std::is_same_v<T, tasklet::IfExp>) {
          copy.test = m(n.test);
          copy.body = m(n.body);
          copy.orelse = m(n.orelse);
        } else if constexpr (std::is_same_v<T, tasklet::Call>) {
          for (ExprPtr& v : copy.args) v = m(v);
          for (tasklet::Keyword& k : copy.keywords) k.value = m(k.value);
        } else if constexpr (std::is_same_v<T, tasklet::Subscript>) {
          copy.value = m(n.value);
          for (ExprPtr& v : copy.indices) v = m(v);
        } else if constexpr (std::is_same_v<T, tasklet::Slice>) {
          copy.lower = m(n.lower);
          copy.upper = m(n.upper);
          copy.step = m(n.step);
        } else if constexpr (std::is_same_v<T, tasklet::Attribute>) {
          copy.value = m(n.value);
        }
        return copy;
      },
      e->node);
  return tasklet::make_expr(e->loc, std::move(node), e->type);
}

bool reads_in(const std::vector<StmtPtr>& body, const std::string& name);
bool assigns_in(const std::vector<StmtPtr>& body, const std::string& name);

// A target reads names in its indices (`a[i] = ...` reads i), not in the assigned name.
bool target_reads(const Expr& target, const std::string& name) {
  if (const auto* s = target.as<tasklet::Subscript>()) {
    for (const ExprPtr& v : s->indices)
      if (v && reads_name(*v, name)) return true;
  }
  return false;
}

const std::string* target_name(const Expr& target) {
  if (const auto* n = target.as<tasklet::Name>()) return &n->id;
  if (const auto* s = target.as<tasklet::Subscript>())
    if (const auto* n = s->value->as<tasklet::Name>()) return &n->id;
  return nullptr;
}

bool reads_stmt(const Stmt& s, const std::string& name) {
  if (const auto* a = s.as<tasklet::Assign>()) {
    for (const ExprPtr& t : a->targets)
      if (target_reads(*t, name)) return true;
    return reads_name(*a->value, name);
  }
  if (const auto* a = s.as<tasklet::AugAssign>()) {
    const std::string* t = target_name(*a->target);
    return (t && *t == name) || target_reads(*a->target, name) || reads_name(*a->value, name);
  }
  if (const auto* i = s.as<tasklet::If>())
    return reads_name(*i->test, name) || reads_in(i->body, name) || reads_in(i->orelse, name);
  if (const auto* e = s.as<tasklet::ExprStmt>()) return reads_name(*e->value, name);
  return false;
}

bool assigns_stmt(const Stmt& s, const std::string& name) {
  if (const auto* a = s.as<tasklet::Assign>()) {
    for (const ExprPtr& t : a->targets)
      if (const std::string* n = target_name(*t); n && *n == name) return true;
    return false;
  }
  if (const auto* a = s.as<tasklet::AugAssign>()) {
    const std::string* n = target_name(*a->target);
    return n && *n == name;
  }
  if (const auto* i = s.as<tasklet::If>()) return assigns_in(i->body, name) || assigns_in(i->orelse, name);
  return false;
}

bool reads_in(const std::vector<StmtPtr>& body, const std::string& name) {
  for (const StmtPtr& s : body)
    if (reads_stmt(*s, name)) return true;
  return false;
}
bool assigns_in(const std::vector<StmtPtr>& body, const std::string& name) {
  for (const StmtPtr& s : body)
    if (assigns_stmt(*s, name)) return true;
  return false;
}

// Targets keep their assigned name; only their indices are rewritten.
ExprPtr replace_in_target(const ExprPtr& t, const NameValues& values) {
  if (!t->is<tasklet::Subscript>()) return t;
  const auto& s = *t->as<tasklet::Subscript>();
  tasklet::Subscript copy = s;
  for (ExprPtr& v : copy.indices)
    if (v) v = replace_names(v, values);
  return tasklet::make_expr(t->loc, std::move(copy), t->type);
}

std::vector<StmtPtr> replace_in_body(const std::vector<StmtPtr>& body, const NameValues& values);

StmtPtr replace_in_stmt(const StmtPtr& s, const NameValues& values) {
  tasklet::StmtNode node = std::visit(
      [&](const auto& n) -> tasklet::StmtNode {
        using T = std::decay_t<decltype(n)>;
        T copy = n;
        if constexpr (std::is_same_v<T, tasklet::Assign>) {
          for (ExprPtr& t : copy.targets) t = replace_in_target(t, values);
          copy.value = replace_names(n.value, values);
        } else if constexpr (std::is_same_v<T, tasklet::AugAssign>) {
          copy.target = replace_in_target(n.target, values);
          copy.value = replace_names(n.value, values);
        } else if constexpr (std::is_same_v<T, tasklet::If>) {
          copy.test = replace_names(n.test, values);
          copy.body = replace_in_body(n.body, values);
          copy.orelse = replace_in_body(n.orelse, values);
        } else if constexpr (std::is_same_v<T, tasklet::ExprStmt>) {
          copy.value = replace_names(n.value, values);
        }
        return copy;
      },
      s->node);
  return tasklet::make_stmt(s->loc, std::move(node));
}

std::vector<StmtPtr> replace_in_body(const std::vector<StmtPtr>& body, const NameValues& values) {
  std::vector<StmtPtr> out;
  out.reserve(body.size());
  for (const StmtPtr& s : body) out.push_back(replace_in_stmt(s, values));
  return out;
}

}  // namespace

bool reads_name(const Expr& e, const std::string& name) {
  if (const auto* n = e.as<tasklet::Name>()) return n->id == name;
  bool found = false;
  for_each_child(e, [&](const ExprPtr& c) { found = found || (c && reads_name(*c, name)); });
  return found;
}

bool reads_name(const tasklet::Program& p, const std::string& name) { return reads_in(p.body, name); }
bool assigns_name(const tasklet::Program& p, const std::string& name) { return assigns_in(p.body, name); }

ExprPtr replace_names(const ExprPtr& e, const NameValues& values) {
  if (!e) return e;
  if (const auto* n = e->as<tasklet::Name>()) {
    auto it = values.find(n->id);
    return it == values.end() ? e : it->second;
  }
  return map_children(e, [&](const ExprPtr& c) { return replace_names(c, values); });
}

tasklet::Program replace_names(const tasklet::Program& p, const NameValues& values) {
  return tasklet::Program{replace_in_body(p.body, values)};
}

std::optional<std::string> replace_names_in_expression(const std::string& text, const NameValues& values) {
  Result<ExprPtr> e = tasklet::parse_expression(text);
  if (!e.ok()) return std::nullopt;
  return tasklet::to_source(*replace_names(*e, values));
}

}  // namespace dace::transform
