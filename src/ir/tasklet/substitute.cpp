#include "ir/tasklet/substitute.h"

#include <mutex>
#include <string>
#include <unordered_map>

#include "ir/tasklet/parser.h"
#include "ir/tasklet/printer.h"

namespace dace::tasklet {
namespace {

// Bounded: a long-running host parsing ever new text must not grow without limit.
constexpr size_t kCacheLimit = 1 << 14;

template <class V>
class TextCache {
 public:
  template <class Parse>
  Result<V> get(std::string_view source, Parse parse) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = map_.find(std::string(source));
      if (it != map_.end()) return it->second;
    }
    auto parsed = parse(source);
    if (!parsed) return parsed.take_error();
    std::lock_guard<std::mutex> lock(mu_);
    if (map_.size() >= kCacheLimit) map_.clear();
    map_.emplace(std::string(source), *parsed);
    return *parsed;
  }

 private:
  std::mutex mu_;
  std::unordered_map<std::string, V> map_;
};

template <class Fn>
void for_each_child(const Expr& e, Fn&& fn) {
  auto one = [&](const ExprPtr& c) {
    if (c) fn(*c);
  };
  if (const auto* u = e.as<UnaryOp>()) {
    one(u->operand);
  } else if (const auto* b = e.as<BinOp>()) {
    one(b->left);
    one(b->right);
  } else if (const auto* bo = e.as<BoolOp>()) {
    for (const auto& v : bo->values) one(v);
  } else if (const auto* c = e.as<Compare>()) {
    one(c->left);
    for (const auto& v : c->comparators) one(v);
  } else if (const auto* i = e.as<IfExp>()) {
    one(i->test);
    one(i->body);
    one(i->orelse);
  } else if (const auto* call = e.as<Call>()) {
    for (const auto& a : call->args) one(a);
    for (const auto& k : call->keywords) one(k.value);
  } else if (const auto* s = e.as<Subscript>()) {
    one(s->value);
    for (const auto& v : s->indices) one(v);
  } else if (const auto* sl = e.as<Slice>()) {
    one(sl->lower);
    one(sl->upper);
    one(sl->step);
  } else if (const auto* a = e.as<Attribute>()) {
    one(a->value);
  }
}

void collect(const Expr& e, std::set<std::string>& out) {
  if (const auto* n = e.as<Name>()) out.insert(n->id);
  for_each_child(e, [&](const Expr& c) { collect(c, out); });
}
void collect(const ExprPtr& e, std::set<std::string>& out) {
  if (e) collect(*e, out);
}

void collect(const std::vector<StmtPtr>& body, std::set<std::string>& out);
void collect_target(const ExprPtr& t, std::set<std::string>& out) {
  if (const auto* s = t->as<Subscript>())
    for (const auto& v : s->indices) collect(v, out);
}
void collect(const Stmt& s, std::set<std::string>& out) {
  if (const auto* a = s.as<Assign>()) {
    for (const auto& t : a->targets) collect_target(t, out);
    collect(a->value, out);
  } else if (const auto* aug = s.as<AugAssign>()) {
    collect(aug->target, out);  // read as well as written
    collect(aug->value, out);
  } else if (const auto* i = s.as<If>()) {
    collect(i->test, out);
    collect(i->body, out);
    collect(i->orelse, out);
  } else if (const auto* x = s.as<ExprStmt>()) {
    collect(x->value, out);
  }
}
void collect(const std::vector<StmtPtr>& body, std::set<std::string>& out) {
  for (const auto& s : body) collect(*s, out);
}

void collect_assigned(const std::vector<StmtPtr>& body, std::set<std::string>& out) {
  auto target = [&](const ExprPtr& t) {
    const Expr* e = t.get();
    if (const auto* s = e->as<Subscript>()) e = s->value.get();
    if (const auto* n = e->as<Name>()) out.insert(n->id);
  };
  for (const auto& s : body) {
    if (const auto* a = s->as<Assign>()) {
      for (const auto& t : a->targets) target(t);
    } else if (const auto* aug = s->as<AugAssign>()) {
      target(aug->target);
    } else if (const auto* i = s->as<If>()) {
      collect_assigned(i->body, out);
      collect_assigned(i->orelse, out);
    }
  }
}

class Rewriter {
 public:
  explicit Rewriter(const std::function<ExprPtr(const Expr&)>& fn) : fn_(fn) {}

  ExprPtr expr(const ExprPtr& e) {
    if (!e) return e;
    if (ExprPtr r = fn_(*e)) return r;
    const SourceLoc loc = e->loc;
    if (const auto* u = e->as<UnaryOp>()) {
      ExprPtr o = expr(u->operand);
      return o == u->operand ? e : make_expr(loc, UnaryOp{u->op, o});
    }
    if (const auto* b = e->as<BinOp>()) {
      ExprPtr l = expr(b->left), r = expr(b->right);
      return l == b->left && r == b->right ? e : make_expr(loc, BinOp{b->op, l, r});
    }
    if (const auto* bo = e->as<BoolOp>()) {
      bool changed = false;
      auto vs = list(bo->values, changed);
      return changed ? make_expr(loc, BoolOp{bo->op, std::move(vs)}) : e;
    }
    if (const auto* c = e->as<Compare>()) {
      bool changed = false;
      ExprPtr l = expr(c->left);
      auto cs = list(c->comparators, changed);
      return changed || l != c->left ? make_expr(loc, Compare{l, c->ops, std::move(cs)}) : e;
    }
    if (const auto* i = e->as<IfExp>()) {
      ExprPtr t = expr(i->test), b = expr(i->body), o = expr(i->orelse);
      return t == i->test && b == i->body && o == i->orelse ? e : make_expr(loc, IfExp{t, b, o});
    }
    if (const auto* call = e->as<Call>()) {
      bool changed = false;
      auto args = list(call->args, changed);
      std::vector<Keyword> kws = call->keywords;
      for (auto& k : kws) {
        ExprPtr v = expr(k.value);
        changed |= v != k.value;
        k.value = v;
      }
      return changed ? make_expr(loc, Call{call->func, std::move(args), std::move(kws)}) : e;
    }
    if (const auto* s = e->as<Subscript>()) {
      bool changed = false;
      ExprPtr v = expr(s->value);
      auto idx = list(s->indices, changed);
      return changed || v != s->value ? make_expr(loc, Subscript{v, std::move(idx)}) : e;
    }
    if (const auto* sl = e->as<Slice>()) {
      ExprPtr l = expr(sl->lower), u = expr(sl->upper), st = expr(sl->step);
      return l == sl->lower && u == sl->upper && st == sl->step ? e : make_expr(loc, Slice{l, u, st});
    }
    if (const auto* a = e->as<Attribute>()) {
      ExprPtr v = expr(a->value);
      return v == a->value ? e : make_expr(loc, Attribute{v, a->attr});
    }
    return e;  // Name, Constant
  }

  ExprPtr target(const ExprPtr& t) {
    const auto* s = t->as<Subscript>();
    if (!s) return t;
    bool changed = false;
    auto idx = list(s->indices, changed);
    return changed ? make_expr(t->loc, Subscript{s->value, std::move(idx)}) : t;
  }

  std::vector<StmtPtr> body(const std::vector<StmtPtr>& stmts) {
    std::vector<StmtPtr> out;
    out.reserve(stmts.size());
    for (const auto& s : stmts) out.push_back(stmt(s));
    return out;
  }

  StmtPtr stmt(const StmtPtr& s) {
    if (const auto* a = s->as<Assign>()) {
      Assign r;
      for (const auto& t : a->targets) r.targets.push_back(target(t));
      r.value = expr(a->value);
      return make_stmt(s->loc, std::move(r));
    }
    if (const auto* aug = s->as<AugAssign>()) return make_stmt(s->loc, AugAssign{target(aug->target), aug->op, expr(aug->value)});
    if (const auto* i = s->as<If>()) return make_stmt(s->loc, If{expr(i->test), body(i->body), body(i->orelse)});
    if (const auto* x = s->as<ExprStmt>()) return make_stmt(s->loc, ExprStmt{expr(x->value)});
    return s;
  }

 private:
  std::vector<ExprPtr> list(const std::vector<ExprPtr>& in, bool& changed) {
    std::vector<ExprPtr> out;
    out.reserve(in.size());
    for (const auto& v : in) {
      out.push_back(expr(v));
      changed |= out.back() != v;
    }
    return out;
  }

  const std::function<ExprPtr(const Expr&)>& fn_;
};

std::function<ExprPtr(const Expr&)> name_table(const NameValues& values, bool subscripts) {
  return [&values, subscripts](const Expr& e) -> ExprPtr {
    const Name* n = e.as<Name>();
    if (!n && subscripts)
      if (const auto* s = e.as<Subscript>()) n = s->value->as<Name>();
    if (!n) return nullptr;
    auto it = values.find(n->id);
    return it == values.end() ? nullptr : it->second;
  };
}

Result<NameValues> parse_values(const std::map<std::string, std::string>& values) {
  NameValues out;
  for (const auto& [name, text] : values) {
    auto v = parse_expression_cached(text);
    if (!v) return make_error(Code::ParseError, "value of '" + name + "': " + v.error().message);
    out.emplace(name, *v);
  }
  return out;
}

bool mentions_any(const std::set<std::string>& read, const std::map<std::string, std::string>& values) {
  for (const auto& [name, text] : values)
    if (read.count(name)) return true;
  return false;
}

}  // namespace

Result<ExprPtr> parse_expression_cached(std::string_view source) {
  static TextCache<ExprPtr> cache;
  return cache.get(source, [](std::string_view s) { return parse_expression(s); });
}

Result<std::shared_ptr<const Program>> parse_code_cached(std::string_view source) {
  static TextCache<std::shared_ptr<const Program>> cache;
  return cache.get(source, [](std::string_view s) -> Result<std::shared_ptr<const Program>> {
    auto p = parse_code(s);
    if (!p) return p.take_error();
    return std::make_shared<const Program>(std::move(*p));
  });
}

std::set<std::string> names_read(const Expr& e) {
  std::set<std::string> out;
  collect(e, out);
  return out;
}

std::set<std::string> names_read(const Program& p) {
  std::set<std::string> out;
  collect(p.body, out);
  return out;
}

std::set<std::string> names_assigned(const Program& p) {
  std::set<std::string> out;
  collect_assigned(p.body, out);
  return out;
}

void walk(const Expr& e, const std::function<void(const Expr&)>& fn) {
  fn(e);
  for_each_child(e, [&](const Expr& c) { walk(c, fn); });
}

ExprPtr rewrite(const ExprPtr& e, const std::function<ExprPtr(const Expr&)>& fn) { return Rewriter(fn).expr(e); }

ExprPtr substitute(const ExprPtr& e, const NameValues& values, bool subscripts) {
  auto fn = name_table(values, subscripts);
  return Rewriter(fn).expr(e);
}

Program substitute(const Program& p, const NameValues& values, bool subscripts) {
  auto fn = name_table(values, subscripts);
  return Program{Rewriter(fn).body(p.body)};
}

Result<std::string> substitute_in_expression(std::string_view code, const std::map<std::string, std::string>& values,
                                             bool subscripts) {
  auto e = parse_expression_cached(code);
  if (!e) return e.take_error();
  if (!mentions_any(names_read(**e), values)) return std::string(code);
  auto vs = parse_values(values);
  if (!vs) return vs.take_error();
  return to_source(*substitute(*e, *vs, subscripts));
}

Result<std::string> substitute_in_code(std::string_view code, const std::map<std::string, std::string>& values,
                                       bool subscripts) {
  auto p = parse_code_cached(code);
  if (!p) return p.take_error();
  if (!mentions_any(names_read(**p), values)) return std::string(code);
  auto vs = parse_values(values);
  if (!vs) return vs.take_error();
  std::string out = to_source(substitute(**p, *vs, subscripts));
  // A one-statement tasklet is written without the trailing newline, as DaCe keeps it.
  if (!out.empty() && out.back() == '\n' && (code.empty() || code.back() != '\n')) out.pop_back();
  return out;
}

}  // namespace dace::tasklet
