#include "ir/tasklet/typecheck.h"

#include <limits>
#include <set>

#include "ir/tasklet/builtins.h"
#include "ir/tasklet/promotion.h"

namespace dace::tasklet {

namespace {

Error type_error(SourceLoc loc, const std::string& message) {
  return make_error(Code::InvalidSdfg,
                    "line " + std::to_string(loc.line) + ", column " + std::to_string(loc.column) +
                        ": " + message,
                    loc.line, loc.column);
}

// A typed expression, with its weakness (NEP 50, promotion.h).
struct Typed {
  ExprPtr expr;
  Weak weak = Weak::None;
  int rank = 0;
  ScalarType type() const { return expr->type; }
};

bool is_int_like(ScalarType t) { return is_bool(t) || is_integer(t); }

ScalarType float_result(ScalarType t) { return is_int_like(t) ? ScalarType::Float64 : t; }

struct Scope {
  std::set<std::string> defined;  // locals and scalar outputs assigned on every path so far
};

class Checker {
 public:
  Checker(const std::map<std::string, ConnectorInfo>& inputs,
          const std::map<std::string, ConnectorInfo>& outputs,
          const std::map<std::string, ScalarType>& symbols)
      : inputs_(inputs), outputs_(outputs), symbols_(symbols) {
    for (const auto& [name, info] : outputs) out_types_[name] = info.type;
  }

  Result<TypedProgram> run(const Program& p) {
    TypedProgram tp;
    Scope scope;
    DACE_TRY(body(p.body, scope, tp.program.body));
    tp.outputs = out_types_;
    tp.locals = locals_;
    return tp;
  }

  Result<Typed> expression(const Expr& e, const Scope& scope) { return expr(e, scope); }

 private:
  // ---- statements -------------------------------------------------------------------------

  Status body(const std::vector<StmtPtr>& in, Scope& scope, std::vector<StmtPtr>& out) {
    for (const StmtPtr& s : in) {
      if (!s) continue;
      Result<StmtPtr> t = stmt(*s, scope);
      if (!t) return t.take_error();
      out.push_back(std::move(t.value()));
    }
    return Status::success();
  }

  Result<StmtPtr> stmt(const Stmt& s, Scope& scope) {
    if (const Assign* a = s.as<Assign>()) {
      Result<Typed> v = scalar_expr(a->value, scope);
      if (!v) return v.take_error();
      Assign out;
      for (const ExprPtr& t : a->targets) {
        Result<ExprPtr> tt = assign_target(t, v.value(), scope);
        if (!tt) return tt.take_error();
        out.targets.push_back(std::move(tt.value()));
      }
      out.value = v->expr;
      return make_stmt(s.loc, std::move(out));
    }
    if (const AugAssign* a = s.as<AugAssign>()) {
      // `t op= v` reads t, so t must already hold a value.
      Result<Typed> cur = scalar_expr(a->target, scope);
      if (!cur) return cur.take_error();
      Result<Typed> v = scalar_expr(a->value, scope);
      if (!v) return v.take_error();
      Result<ScalarType> rt = binop_type(a->op, cur.value(), v.value(), s.loc).first;
      if (!rt) return rt.take_error();
      Typed result{make_expr(a->value->loc, a->value->node, rt.value()), Weak::None, 0};
      Result<ExprPtr> tt = assign_target(a->target, result, scope);
      if (!tt) return tt.take_error();
      return make_stmt(s.loc, AugAssign{std::move(tt.value()), a->op, v->expr});
    }
    if (const If* i = s.as<If>()) {
      Result<Typed> test = scalar_expr(i->test, scope);
      if (!test) return test.take_error();
      If out;
      out.test = test->expr;
      Scope then_scope = scope, else_scope = scope;
      DACE_TRY(body(i->body, then_scope, out.body));
      DACE_TRY(body(i->orelse, else_scope, out.orelse));
      // After the if, only what both branches assigned is surely assigned.
      for (const std::string& n : then_scope.defined)
        if (else_scope.defined.count(n)) scope.defined.insert(n);
      return make_stmt(s.loc, std::move(out));
    }
    if (const ExprStmt* x = s.as<ExprStmt>()) {
      if (!x->value) return type_error(s.loc, "empty expression statement");
      Result<ExprPtr> e = statement_call(*x->value, scope);
      if (!e) return e.take_error();
      return make_stmt(s.loc, ExprStmt{std::move(e.value())});
    }
    return make_stmt(s.loc, Pass{});
  }

  // `s.push(x)` / `s.append(x)` on an output stream; any other expression is typed normally.
  Result<ExprPtr> statement_call(const Expr& e, const Scope& scope) {
    const Call* c = e.as<Call>();
    if (c) {
      std::string_view f = c->func;
      size_t dot = f.rfind('.');
      if (dot != std::string_view::npos) {
        std::string base(f.substr(0, dot));
        std::string_view method = f.substr(dot + 1);
        auto out = outputs_.find(base);
        if (out != outputs_.end() && out->second.is_stream) {
          if (method != "push" && method != "append")
            return type_error(e.loc, "output stream '" + base + "' supports push/append, not '" +
                                         std::string(method) + "'");
          if (c->args.size() != 1 || !c->keywords.empty())
            return type_error(e.loc, "'" + c->func + "' takes exactly 1 argument");
          Result<Typed> v = scalar_expr(c->args[0], scope);
          if (!v) return v.take_error();
          ScalarType& st = out_types_[base];
          if (st == ScalarType::Unknown) st = concrete(v.value());
          return make_expr(e.loc, Call{c->func, {v->expr}, {}}, ScalarType::Unknown);
        }
      }
    }
    Result<Typed> t = expr(e, scope);
    if (!t) return t.take_error();
    return t->expr;
  }

  static ScalarType concrete(const Typed& t) {
    return t.weak != Weak::None ? weak_default(t.weak) : t.type();
  }

  // Checks and annotates an assignment target; records definitions and inferred types.
  Result<ExprPtr> assign_target(const ExprPtr& target, const Typed& value, Scope& scope) {
    const Expr& t = *target;
    if (const Name* n = t.as<Name>()) {
      const std::string& id = n->id;
      auto out = outputs_.find(id);
      if (out != outputs_.end()) {
        if (out->second.is_stream)
          return type_error(t.loc, "output stream '" + id + "' is written with " + id + ".push(value)");
        if (out->second.rank > 0)
          return type_error(t.loc, "output connector '" + id + "' has rank " +
                                       std::to_string(out->second.rank) + " and must be indexed");
        ScalarType& ty = out_types_[id];
        if (ty == ScalarType::Unknown) ty = concrete(value);
        scope.defined.insert(id);
        return make_expr(t.loc, t.node, ty);
      }
      if (inputs_.count(id)) return type_error(t.loc, "cannot assign to input connector '" + id + "'");
      if (symbols_.count(id)) return type_error(t.loc, "cannot assign to symbol '" + id + "'");
      if (is_module_name(id)) return type_error(t.loc, "cannot assign to module name '" + id + "'");
      auto [it, inserted] = locals_.emplace(id, concrete(value));
      if (!inserted && it->second == ScalarType::Unknown) it->second = concrete(value);
      scope.defined.insert(id);
      return make_expr(t.loc, t.node, it->second);
    }
    if (const Subscript* s = t.as<Subscript>()) {
      const Name* base = s->value ? s->value->as<Name>() : nullptr;
      if (!base) return type_error(t.loc, "cannot assign to this expression");
      auto out = outputs_.find(base->id);
      if (out == outputs_.end()) {
        if (inputs_.count(base->id))
          return type_error(t.loc, "cannot assign to input connector '" + base->id + "'");
        return type_error(t.loc, "'" + base->id + "' is not an array output connector");
      }
      if (out->second.is_stream)
        return type_error(t.loc, "output stream '" + base->id + "' cannot be indexed");
      Result<Typed> typed = subscript(t, *s, out->second, scope);
      if (!typed) return typed.take_error();
      ScalarType& ty = out_types_[base->id];
      if (ty == ScalarType::Unknown) ty = concrete(value);
      return typed->expr;
    }
    return type_error(t.loc, "cannot assign to this expression");
  }

  // ---- expressions ------------------------------------------------------------------------

  Result<Typed> scalar_expr(const ExprPtr& e, const Scope& scope) {
    if (!e) return type_error(SourceLoc{}, "missing expression");
    Result<Typed> t = expr(*e, scope);
    if (!t) return t;
    if (t->rank > 0) return rank_error(*e, t->rank);
    return t;
  }

  static Error rank_error(const Expr& e, int rank) {
    std::optional<std::string> n = dotted_name(e);
    return type_error(e.loc, "array '" + n.value_or("?") + "' has rank " + std::to_string(rank) +
                                 " and must be indexed with " + std::to_string(rank) +
                                 (rank == 1 ? " index" : " indices"));
  }

  static Typed typed(SourceLoc loc, ExprNode node, ScalarType t, Weak w = Weak::None, int rank = 0) {
    return Typed{make_expr(loc, std::move(node), t, w), w, rank};
  }

  Result<Typed> expr(const Expr& e, const Scope& scope) {
    if (const Name* n = e.as<Name>()) return name(e, *n, scope);
    if (const Constant* c = e.as<Constant>()) return constant(e, *c);
    if (const UnaryOp* u = e.as<UnaryOp>()) return unary(e, *u, scope);
    if (const BinOp* b = e.as<BinOp>()) {
      Result<Typed> l = scalar_expr(b->left, scope);
      if (!l) return l;
      Result<Typed> r = scalar_expr(b->right, scope);
      if (!r) return r;
      auto [rt, weak] = binop_type(b->op, l.value(), r.value(), e.loc);
      if (!rt) return rt.take_error();
      return typed(e.loc, BinOp{b->op, l->expr, r->expr}, rt.value(), weak);
    }
    if (const BoolOp* b = e.as<BoolOp>()) {
      BoolOp out{b->op, {}};
      for (const ExprPtr& v : b->values) {
        Result<Typed> t = scalar_expr(v, scope);
        if (!t) return t;
        out.values.push_back(t->expr);
      }
      return typed(e.loc, std::move(out), ScalarType::Bool);
    }
    if (const Compare* c = e.as<Compare>()) return compare(e, *c, scope);
    if (const IfExp* i = e.as<IfExp>()) {
      Result<Typed> test = scalar_expr(i->test, scope);
      if (!test) return test;
      Result<Typed> body = scalar_expr(i->body, scope);
      if (!body) return body;
      Result<Typed> orelse = scalar_expr(i->orelse, scope);
      if (!orelse) return orelse;
      auto [t, w] = promote_weak(body->type(), body->weak, orelse->type(), orelse->weak);
      return typed(e.loc, IfExp{test->expr, body->expr, orelse->expr}, t, w);
    }
    if (const Call* c = e.as<Call>()) return call(e, *c, scope);
    if (const Subscript* s = e.as<Subscript>()) {
      const Name* base = s->value ? s->value->as<Name>() : nullptr;
      if (!base) return type_error(e.loc, "only connectors can be indexed");
      const ConnectorInfo* info = array_info(base->id);
      if (!info) {
        if (known_value(base->id, scope))
          return type_error(e.loc, "'" + base->id + "' is a scalar and cannot be indexed");
        return type_error(s->value->loc, "undefined name '" + base->id + "'");
      }
      if (info->is_stream) return type_error(e.loc, "stream '" + base->id + "' cannot be indexed");
      return subscript(e, *s, *info, scope);
    }
    if (e.is<Slice>()) return type_error(e.loc, "slices are only allowed as array indices");
    if (const Attribute* a = e.as<Attribute>()) return attribute(e, *a, scope);
    return type_error(e.loc, "unsupported expression");
  }

  const ConnectorInfo* array_info(const std::string& id) const {
    auto in = inputs_.find(id);
    if (in != inputs_.end()) return &in->second;
    auto out = outputs_.find(id);
    if (out != outputs_.end()) return &out->second;
    return nullptr;
  }

  bool known_value(const std::string& id, const Scope& scope) const {
    return scope.defined.count(id) || symbols_.count(id) || locals_.count(id);
  }

  Result<Typed> subscript(const Expr& e, const Subscript& s, const ConnectorInfo& info,
                          const Scope& scope) {
    const std::string& id = s.value->as<Name>()->id;
    if (info.rank == 0)
      return type_error(e.loc, "connector '" + id + "' is a scalar and cannot be indexed");
    if (static_cast<int>(s.indices.size()) != info.rank)
      return type_error(e.loc, "'" + id + "' has rank " + std::to_string(info.rank) +
                                   " but is indexed with " + std::to_string(s.indices.size()) +
                                   (s.indices.size() == 1 ? " index" : " indices"));
    Subscript out{make_expr(s.value->loc, s.value->node, info.type), {}};
    for (const ExprPtr& idx : s.indices) {
      if (idx && idx->is<Slice>())
        return type_error(idx->loc, "slices are not supported in tasklet code; index '" + id +
                                        "' element by element");
      Result<Typed> t = scalar_expr(idx, scope);
      if (!t) return t;
      ScalarType it = t->type();
      if (it != ScalarType::Unknown && !is_int_like(it))
        return type_error(idx->loc, std::string("array index must be an integer, got ") + type_name(it));
      out.indices.push_back(t->expr);
    }
    return typed(e.loc, std::move(out), info.type);
  }

  Result<Typed> name(const Expr& e, const Name& n, const Scope& scope) {
    const std::string& id = n.id;
    if (scope.defined.count(id)) {
      auto out = out_types_.find(id);
      if (out != out_types_.end() && outputs_.count(id)) return typed(e.loc, n, out->second);
      return typed(e.loc, n, locals_.at(id));
    }
    auto in = inputs_.find(id);
    if (in != inputs_.end()) {
      if (in->second.is_stream)
        return type_error(e.loc, "input stream '" + id + "' is read with " + id + ".pop()");
      return typed(e.loc, n, in->second.type, Weak::None, in->second.rank);
    }
    auto out = outputs_.find(id);
    if (out != outputs_.end()) {
      if (out->second.is_stream)
        return type_error(e.loc, "output stream '" + id + "' cannot be read");
      if (out->second.rank > 0)  // array outputs may be read element-wise (in-place updates)
        return typed(e.loc, n, out_types_[id], Weak::None, out->second.rank);
      return type_error(e.loc, "output connector '" + id + "' is read before it is assigned");
    }
    auto sym = symbols_.find(id);
    if (sym != symbols_.end()) return typed(e.loc, n, sym->second);
    if (is_module_name(id)) return type_error(e.loc, "module '" + id + "' cannot be used as a value");
    if (locals_.count(id)) return type_error(e.loc, "name '" + id + "' may be used before it is assigned");
    // DaCe's runtime defines a bare `inf` (its frontend writes `nextafter(x, inf)` for np.spacing).
    if (id == "inf") {
      Constant c;
      c.kind = ConstantKind::Float;
      c.value = std::numeric_limits<double>::infinity();
      return typed(e.loc, c, ScalarType::Float64, Weak::Float);
    }
    return type_error(e.loc, "undefined name '" + id + "'");
  }

  static Result<Typed> constant(const Expr& e, const Constant& c) {
    switch (c.kind) {
      case ConstantKind::Int: return typed(e.loc, c, ScalarType::Int64, Weak::Int);
      case ConstantKind::Float: return typed(e.loc, c, ScalarType::Float64, Weak::Float);
      case ConstantKind::Complex: return typed(e.loc, c, ScalarType::Complex128, Weak::Complex);
      case ConstantKind::Bool: return typed(e.loc, c, ScalarType::Bool);
    }
    return typed(e.loc, c, ScalarType::Unknown);
  }

  Result<Typed> unary(const Expr& e, const UnaryOp& u, const Scope& scope) {
    Result<Typed> v = scalar_expr(u.operand, scope);
    if (!v) return v;
    ScalarType t = v->type();
    if (u.op == UnaryOpKind::Not) return typed(e.loc, UnaryOp{u.op, v->expr}, ScalarType::Bool);
    if (t == ScalarType::Unknown) return typed(e.loc, UnaryOp{u.op, v->expr}, t);
    if (u.op == UnaryOpKind::Invert && !is_int_like(t))
      return type_error(e.loc, std::string("operator '~' needs an integer or bool operand, got ") +
                                   type_name(t));
    // Python and C++ both turn a bool into an int for -, + and ~ (~True == -2).
    ScalarType rt = is_bool(t) ? ScalarType::Int64 : t;
    return typed(e.loc, UnaryOp{u.op, v->expr}, rt, v->weak);
  }

  // Returns the result type or an error, plus the result's weakness.
  static std::pair<Result<ScalarType>, Weak> binop_type(BinOpKind op, const Typed& l,
                                                        const Typed& r, SourceLoc loc) {
    ScalarType a = l.type(), b = r.type();
    auto [t, w] = promote_weak(a, l.weak, b, r.weak);
    if (t == ScalarType::Unknown) return {ScalarType::Unknown, Weak::None};
    auto fail = [&](const std::string& why) {
      return std::pair<Result<ScalarType>, Weak>{
          type_error(loc, std::string("operator '") + op_text(op) + "' " + why + " (operands " +
                              type_name(a) + " and " + type_name(b) + ")"),
          Weak::None};
    };
    switch (op) {
      case BinOpKind::BitAnd:
      case BinOpKind::BitOr:
      case BinOpKind::BitXor:
      case BinOpKind::LShift:
      case BinOpKind::RShift: {
        if (!is_int_like(a) || !is_int_like(b)) return fail("needs integer or bool operands");
        if (is_float(t)) return fail("cannot mix signed and unsigned 64-bit integers");
        bool shift = op == BinOpKind::LShift || op == BinOpKind::RShift;
        if (shift && is_bool(t)) t = ScalarType::Int64;
        return {t, w};
      }
      case BinOpKind::Div:
        if (is_int_like(t)) return {ScalarType::Float64, w == Weak::Int ? Weak::Float : w};
        return {t, w};
      case BinOpKind::FloorDiv:
      case BinOpKind::Mod:
        if (is_complex(t)) return fail("is not defined for complex numbers");
        [[fallthrough]];
      default:
        if (is_bool(t)) t = ScalarType::Int64;  // True + True == 2 in Python and C++
        return {t, w};
    }
  }

  Result<Typed> compare(const Expr& e, const Compare& c, const Scope& scope) {
    Result<Typed> left = scalar_expr(c.left, scope);
    if (!left) return left;
    Compare out{left->expr, c.ops, {}};
    ScalarType prev = left->type();
    for (size_t i = 0; i < c.comparators.size(); ++i) {
      Result<Typed> r = scalar_expr(c.comparators[i], scope);
      if (!r) return r;
      bool ordering = i < c.ops.size() && c.ops[i] != CmpOpKind::Eq && c.ops[i] != CmpOpKind::NotEq;
      if (ordering && (is_complex(prev) || is_complex(r->type())))
        return type_error(e.loc, std::string("operator '") + op_text(c.ops[i]) +
                                     "' is not defined for complex numbers");
      prev = r->type();
      out.comparators.push_back(r->expr);
    }
    return typed(e.loc, std::move(out), ScalarType::Bool);
  }

  // CUDA's thread and block indices and dimensions (`threadIdx.x`, ...): unsigned 32-bit
  // values that only a GPU kernel defines; DaCe's GPU expansions use them in Python tasklets.
  // A connector or local of the same name shadows them.
  bool gpu_builtin(const Attribute& a) const {
    const Name* base = a.value ? a.value->as<Name>() : nullptr;
    if (!base || inputs_.count(base->id) || outputs_.count(base->id) || locals_.count(base->id)) return false;
    return is_gpu_builtin(base->id + "." + a.attr);
  }

  Result<Typed> attribute(const Expr& e, const Attribute& a, const Scope& scope) {
    std::optional<std::string> dotted = dotted_name(e);
    if (dotted) {
      if (std::optional<double> v = find_constant(*dotted)) {
        (void)v;
        return typed(e.loc, a, ScalarType::Float64, Weak::Float);
      }
      const Name* base = a.value->as<Name>();
      if (base && is_module_name(base->id))
        return type_error(e.loc, "unknown name '" + *dotted + "'");
      if (!base) return type_error(e.loc, "unknown name '" + *dotted + "'");
    }
    if (gpu_builtin(a)) return typed(e.loc, a, ScalarType::UInt32);
    if (a.attr != "real" && a.attr != "imag")
      return type_error(e.loc, "unknown attribute '" + a.attr + "'");
    Result<Typed> v = scalar_expr(a.value, scope);
    if (!v) return v;
    return typed(e.loc, Attribute{v->expr, a.attr}, component_type(v->type()));
  }

  // `decltype(x)(v)`: v converted to x's type; with x's type not known yet, v unchanged.
  Result<Typed> decltype_cast(const Expr& e, const Call& c, const Scope& scope) {
    std::string id = c.func.substr(9, c.func.size() - 10);
    if (c.args.size() != 1 || !c.keywords.empty())
      return type_error(e.loc, "'" + c.func + "' takes exactly 1 argument");
    ScalarType t = ScalarType::Unknown;
    if (auto in = inputs_.find(id); in != inputs_.end()) t = in->second.type;
    else if (auto out = out_types_.find(id); out != out_types_.end() && outputs_.count(id)) t = out->second;
    else if (auto o = outputs_.find(id); o != outputs_.end()) t = o->second.type;
    else if (auto l = locals_.find(id); l != locals_.end()) t = l->second;
    else if (auto sy = symbols_.find(id); sy != symbols_.end()) t = sy->second;
    else return type_error(e.loc, "undefined name '" + id + "' in '" + c.func + "'");
    if (t == ScalarType::Unknown) return scalar_expr(c.args[0], scope);
    ExprPtr cast = make_expr(e.loc, Call{"dace." + std::string(type_name(t)), c.args, {}});
    return call(*cast, *cast->as<Call>(), scope);
  }

  Result<Typed> call(const Expr& e, const Call& c, const Scope& scope) {
    if (c.func.rfind("decltype(", 0) == 0 && c.func.back() == ')') return decltype_cast(e, c, scope);
    // Stream pop: `s.pop()` on an input stream.
    size_t dot = c.func.rfind('.');
    if (dot != std::string::npos) {
      std::string base = c.func.substr(0, dot);
      std::string method = c.func.substr(dot + 1);
      auto in = inputs_.find(base);
      if (in != inputs_.end() && in->second.is_stream) {
        if (method != "pop")
          return type_error(e.loc, "input stream '" + base + "' supports pop(), not '" + method + "'");
        if (!c.args.empty() || !c.keywords.empty())
          return type_error(e.loc, "'" + c.func + "' takes no arguments");
        return typed(e.loc, c, in->second.type);
      }
      auto out = outputs_.find(base);
      if (out != outputs_.end() && out->second.is_stream)
        return type_error(e.loc, "'" + c.func + "' returns nothing and must be its own statement");
    }
    std::optional<Builtin> b = find_builtin(c.func);
    if (!b) return type_error(e.loc, "unknown function '" + c.func + "'");
    if (!c.keywords.empty())
      return type_error(c.keywords[0].loc, "keyword arguments are not supported ('" +
                                               c.keywords[0].name + "' in '" + c.func + "')");
    int n = static_cast<int>(c.args.size());
    if (n < b->min_args || (b->max_args >= 0 && n > b->max_args)) {
      std::string expected = b->min_args == b->max_args ? std::to_string(b->min_args)
                             : b->max_args < 0 ? "at least " + std::to_string(b->min_args)
                                               : std::to_string(b->min_args) + " to " +
                                                     std::to_string(b->max_args);
      return type_error(e.loc, "function '" + c.func + "' takes " + expected +
                                   (expected == "1" ? " argument" : " arguments") + ", got " +
                                   std::to_string(n));
    }
    std::vector<Typed> args;
    Call out{c.func, {}, {}};
    for (const ExprPtr& a : c.args) {
      Result<Typed> t = scalar_expr(a, scope);
      if (!t) return t;
      out.args.push_back(t->expr);
      args.push_back(std::move(t.value()));
    }
    Result<std::pair<ScalarType, Weak>> rt = call_type(e, *b, args);
    if (!rt) return rt.take_error();
    return typed(e.loc, std::move(out), rt->first, rt->second);
  }

  static Result<std::pair<ScalarType, Weak>> call_type(const Expr& e, const Builtin& b,
                                                       const std::vector<Typed>& args) {
    const std::string& fname = e.as<Call>()->func;
    using P = std::pair<ScalarType, Weak>;
    if (b.rule == BuiltinRule::Cast) {
      ScalarType t = args[0].type();
      if ((b.cast_type == ScalarType::Float64 || b.cast_type == ScalarType::Int64) &&
          fname.find('.') == std::string::npos && is_complex(t))
        return type_error(e.loc, "'" + fname + "' cannot convert a complex number");
      return P{b.cast_type, Weak::None};
    }
    if (b.rule == BuiltinRule::Predicate) return P{ScalarType::Bool, Weak::None};
    // Everything else is computed from the promoted argument type.
    ScalarType t = args[0].type();
    Weak w = args[0].weak;
    for (size_t i = 1; i < args.size(); ++i) {
      const Promoted p = promote_weak(t, w, args[i].type(), args[i].weak);
      t = p.type;
      w = p.weak;
    }
    if (t == ScalarType::Unknown) return P{t, Weak::None};
    switch (b.rule) {
      case BuiltinRule::FloatMath:
      case BuiltinRule::FloatBinary:
        return P{float_result(t), w == Weak::None ? Weak::None : Weak::Float};
      case BuiltinRule::RealMath:
        if (is_complex(t)) return type_error(e.loc, "function '" + fname + "' does not accept complex numbers");
        return P{float_result(t), w == Weak::None ? Weak::None : Weak::Float};
      case BuiltinRule::PowLike:
      case BuiltinRule::MinMax:
      case BuiltinRule::Sign:
      case BuiltinRule::Conj:
        if (b.rule == BuiltinRule::PowLike && is_bool(t)) t = ScalarType::Int64;
        return P{t, w};
      case BuiltinRule::Abs:
        return P{component_type(t), w == Weak::Complex ? Weak::Float : w};
      case BuiltinRule::RealPart:
        return P{component_type(t), Weak::None};
      case BuiltinRule::IntBinary:
      case BuiltinRule::IntegerOnly:
        if (!is_int_like(t)) return type_error(e.loc, "function '" + fname + "' needs integer arguments");
        return P{is_bool(t) ? ScalarType::Int64 : t, w};
      case BuiltinRule::PyArith:
      case BuiltinRule::Reciprocal:
        return P{is_bool(t) ? ScalarType::Int64 : t, w};
      case BuiltinRule::FloatPow:
        return P{is_complex(t) ? ScalarType::Complex128 : ScalarType::Float64, Weak::None};
      case BuiltinRule::FirstFloat: {
        ScalarType x = args[0].type();
        if (is_complex(x)) return type_error(e.loc, "function '" + fname + "' does not accept complex numbers");
        return P{float_result(x), Weak::None};
      }
      case BuiltinRule::FrexpExponent:
        return P{ScalarType::Int32, Weak::None};
      default: break;
    }
    return P{t, w};
  }

  const std::map<std::string, ConnectorInfo>& inputs_;
  const std::map<std::string, ConnectorInfo>& outputs_;
  const std::map<std::string, ScalarType>& symbols_;
  std::map<std::string, ScalarType> out_types_;
  std::map<std::string, ScalarType> locals_;
};

}  // namespace

Result<TypedProgram> typecheck(const Program& program,
                               const std::map<std::string, ConnectorInfo>& inputs,
                               const std::map<std::string, ConnectorInfo>& outputs,
                               const std::map<std::string, ScalarType>& symbols) {
  return Checker(inputs, outputs, symbols).run(program);
}

Result<ExprPtr> typecheck_expression(const Expr& expr,
                                     const std::map<std::string, ConnectorInfo>& arrays,
                                     const std::map<std::string, ScalarType>& symbols) {
  static const std::map<std::string, ConnectorInfo> kNone;
  Checker checker(arrays, kNone, symbols);
  Result<Typed> t = checker.expression(expr, Scope{});
  if (!t) return t.take_error();
  return t->expr;
}

}  // namespace dace::tasklet
