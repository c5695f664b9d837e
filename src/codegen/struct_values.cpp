#include "codegen/struct_values.h"

#include <set>

#include "codegen/expr_emit.h"
#include "ir/tasklet/typecheck.h"

namespace dace::codegen {

using namespace tasklet;

namespace {

// The struct name a constructor call spells: "S" or "dace.S", "module.S".
std::string last_part(const std::string& dotted) {
  size_t dot = dotted.rfind('.');
  return dot == std::string::npos ? dotted : dotted.substr(dot + 1);
}

class Splitter {
 public:
  explicit Splitter(const StructConnectors& structs) : structs_(structs) {}

  Result<ExprPtr> expr(const ExprPtr& e) {
    if (!e) return e;
    if (const Attribute* a = e->as<Attribute>()) {
      const Name* base = a->value ? a->value->as<Name>() : nullptr;
      if (base && structs_.count(base->id)) {
        const ir::StructLayout& s = structs_.at(base->id);
        if (!s.field(a->attr))
          return make_error(Code::InvalidSdfg, "struct \"" + base->id + "\" (" + s.name + ") has no field \"" +
                                                   a->attr + "\"");
        return make_expr(e->loc, Name{field_connector(base->id, a->attr)});
      }
      Result<ExprPtr> v = expr(a->value);
      if (!v) return v;
      return make_expr(e->loc, Attribute{*v, a->attr});
    }
    if (const Name* n = e->as<Name>()) {
      if (structs_.count(n->id))
        return make_error(Code::Unsupported, "struct \"" + n->id + "\" is used as a whole value; only its fields (" +
                                                 n->id + "." + structs_.at(n->id).fields[0].name +
                                                 ") or a constructor call can be used here");
      return e;
    }
    if (e->is<Constant>()) return e;
    if (const UnaryOp* u = e->as<UnaryOp>()) {
      Result<ExprPtr> o = expr(u->operand);
      if (!o) return o;
      return make_expr(e->loc, UnaryOp{u->op, *o});
    }
    if (const BinOp* b = e->as<BinOp>()) {
      Result<ExprPtr> l = expr(b->left), r = expr(b->right);
      if (!l) return l;
      if (!r) return r;
      return make_expr(e->loc, BinOp{b->op, *l, *r});
    }
    if (const BoolOp* b = e->as<BoolOp>()) {
      Result<std::vector<ExprPtr>> v = exprs(b->values);
      if (!v) return v.take_error();
      return make_expr(e->loc, BoolOp{b->op, std::move(*v)});
    }
    if (const Compare* c = e->as<Compare>()) {
      Result<ExprPtr> l = expr(c->left);
      if (!l) return l;
      Result<std::vector<ExprPtr>> v = exprs(c->comparators);
      if (!v) return v.take_error();
      return make_expr(e->loc, Compare{*l, c->ops, std::move(*v)});
    }
    if (const IfExp* i = e->as<IfExp>()) {
      Result<ExprPtr> t = expr(i->test), b = expr(i->body), o = expr(i->orelse);
      if (!t) return t;
      if (!b) return b;
      if (!o) return o;
      return make_expr(e->loc, IfExp{*t, *b, *o});
    }
    if (const Call* c = e->as<Call>()) {
      Result<std::vector<ExprPtr>> args = exprs(c->args);
      if (!args) return args.take_error();
      std::vector<Keyword> kws;
      for (const Keyword& k : c->keywords) {
        Result<ExprPtr> v = expr(k.value);
        if (!v) return v;
        kws.push_back(Keyword{k.name, *v, k.loc});
      }
      return make_expr(e->loc, Call{c->func, std::move(*args), std::move(kws)});
    }
    if (const Subscript* s = e->as<Subscript>()) {
      Result<ExprPtr> v = expr(s->value);
      if (!v) return v;
      Result<std::vector<ExprPtr>> idx = exprs(s->indices);
      if (!idx) return idx.take_error();
      return make_expr(e->loc, Subscript{*v, std::move(*idx)});
    }
    if (const Slice* s = e->as<Slice>()) {
      Result<ExprPtr> lo = expr(s->lower), hi = expr(s->upper), st = expr(s->step);
      if (!lo) return lo;
      if (!hi) return hi;
      if (!st) return st;
      return make_expr(e->loc, Slice{*lo, *hi, *st});
    }
    return e;
  }

  // `target = value` where target is a struct: one assignment per field.
  Status whole_struct(const std::string& target, const ir::StructLayout& s, const Expr& value, SourceLoc loc,
                      std::vector<StmtPtr>& out) {
    std::map<std::string, ExprPtr> by_field;
    if (const Name* n = value.as<Name>(); n && structs_.count(n->id)) {
      // A copy of another struct of the same layout.
      const ir::StructLayout& from = structs_.at(n->id);
      for (const ir::StructField& f : s.fields) {
        if (!from.field(f.name))
          return make_error(Code::InvalidSdfg, "struct \"" + n->id + "\" has no field \"" + f.name + "\"");
        by_field[f.name] = make_expr(loc, Name{field_connector(n->id, f.name)});
      }
    } else if (const Call* c = value.as<Call>()) {
      if (last_part(c->func) != s.name || !c->args.empty())
        return make_error(Code::Unsupported, "struct \"" + target + "\" must be assigned " + s.name +
                                                 "(field=value, ...), not a call to " + c->func);
      for (const Keyword& k : c->keywords) {
        if (!s.field(k.name))
          return make_error(Code::InvalidSdfg, s.name + " has no field \"" + k.name + "\"");
        Result<ExprPtr> v = expr(k.value);
        if (!v) return v.take_error();
        by_field[k.name] = *v;
      }
      for (const ir::StructField& f : s.fields)
        if (!by_field.count(f.name))
          return make_error(Code::InvalidSdfg, s.name + "(...) assigned to \"" + target + "\" leaves field \"" +
                                                   f.name + "\" unset");
    } else {
      return make_error(Code::Unsupported, "struct \"" + target + "\" can only be assigned a " + s.name +
                                               "(...) constructor or another struct");
    }
    // Fields in declaration order: deterministic code.
    for (const ir::StructField& f : s.fields) {
      Assign a;
      a.targets.push_back(make_expr(loc, Name{field_connector(target, f.name)}));
      a.value = by_field.at(f.name);
      out.push_back(make_stmt(loc, std::move(a)));
    }
    return Status::success();
  }

  Result<std::vector<StmtPtr>> stmts(const std::vector<StmtPtr>& in) {
    std::vector<StmtPtr> out;
    for (const StmtPtr& s : in) {
      if (!s) continue;
      if (const Assign* a = s->as<Assign>()) {
        const Name* n = a->targets.size() == 1 && a->targets[0] ? a->targets[0]->as<Name>() : nullptr;
        if (n && structs_.count(n->id) && a->value) {
          DACE_TRY(whole_struct(n->id, structs_.at(n->id), *a->value, s->loc, out));
          continue;
        }
        Result<std::vector<ExprPtr>> targets = exprs(a->targets);
        if (!targets) return targets.take_error();
        Result<ExprPtr> v = expr(a->value);
        if (!v) return v.take_error();
        out.push_back(make_stmt(s->loc, Assign{std::move(*targets), *v}));
      } else if (const AugAssign* a = s->as<AugAssign>()) {
        Result<ExprPtr> t = expr(a->target), v = expr(a->value);
        if (!t) return t.take_error();
        if (!v) return v.take_error();
        out.push_back(make_stmt(s->loc, AugAssign{*t, a->op, *v}));
      } else if (const If* i = s->as<If>()) {
        Result<ExprPtr> t = expr(i->test);
        if (!t) return t.take_error();
        Result<std::vector<StmtPtr>> body = stmts(i->body), orelse = stmts(i->orelse);
        if (!body) return body;
        if (!orelse) return orelse;
        out.push_back(make_stmt(s->loc, If{*t, std::move(*body), std::move(*orelse)}));
      } else if (const ExprStmt* x = s->as<ExprStmt>()) {
        Result<ExprPtr> v = expr(x->value);
        if (!v) return v.take_error();
        out.push_back(make_stmt(s->loc, ExprStmt{*v}));
      } else {
        out.push_back(s);
      }
    }
    return out;
  }

 private:
  Result<std::vector<ExprPtr>> exprs(const std::vector<ExprPtr>& in) {
    std::vector<ExprPtr> out;
    for (const ExprPtr& e : in) {
      Result<ExprPtr> r = expr(e);
      if (!r) return r.take_error();
      out.push_back(*r);
    }
    return out;
  }

  const StructConnectors& structs_;
};

// Field values of the two lambda parameters.
class FieldEnv : public NameEnv {
 public:
  explicit FieldEnv(std::map<std::string, TypedValue> values) : values_(std::move(values)) {}
  Result<TypedValue> read(const std::string& name) override {
    auto it = values_.find(name);
    if (it == values_.end()) return make_error(Code::InvalidSdfg, "struct WCR lambda uses unknown name \"" + name + "\"");
    return it->second;
  }
  Result<ArrayRef> array(const std::string& name) override {
    return make_error(Code::InvalidSdfg, "struct WCR lambda indexes \"" + name + "\"");
  }

 private:
  std::map<std::string, TypedValue> values_;
};

// A process-wide spin lock per module for struct read-modify-writes in parallel code.
void emit_lock(Frame& f, llvm::GlobalVariable* lock, bool acquire) {
  llvm::IRBuilder<>& b = f.b;
  if (!acquire) {
    b.CreateAlignedStore(b.getInt32(0), lock, llvm::Align(4))->setAtomic(llvm::AtomicOrdering::Release);
    return;
  }
  llvm::BasicBlock* spin = llvm::BasicBlock::Create(f.mc.ctx, "struct.lock", f.fn);
  llvm::BasicBlock* held = llvm::BasicBlock::Create(f.mc.ctx, "struct.locked", f.fn);
  b.CreateBr(spin);
  b.SetInsertPoint(spin);
  llvm::Value* pair = b.CreateAtomicCmpXchg(lock, b.getInt32(0), b.getInt32(1), llvm::Align(4),
                                            llvm::AtomicOrdering::Acquire, llvm::AtomicOrdering::Monotonic);
  b.CreateCondBr(b.CreateExtractValue(pair, 1), held, spin);
  b.SetInsertPoint(held);
}

llvm::GlobalVariable* struct_lock(ModuleContext& mc) {
  const char* name = "__dace_struct_wcr_lock";
  if (llvm::GlobalVariable* g = mc.module.getNamedGlobal(name)) return g;
  auto* ty = llvm::Type::getInt32Ty(mc.ctx);
  auto* g = new llvm::GlobalVariable(mc.module, ty, false, llvm::GlobalValue::InternalLinkage,
                                     llvm::ConstantInt::get(ty, 0), name);
  g->setAlignment(llvm::Align(4));
  return g;
}

}  // namespace

std::string field_connector(const std::string& conn, const std::string& field) { return conn + "." + field; }

Result<Program> split_struct_connectors(const Program& program, const StructConnectors& structs) {
  if (structs.empty()) return program;
  Splitter s(structs);
  Result<std::vector<StmtPtr>> body = s.stmts(program.body);
  if (!body) return body.take_error();
  return Program{std::move(*body)};
}

llvm::Value* field_pointer(llvm::IRBuilder<>& b, llvm::Value* element, const ir::StructField& field) {
  return field.offset == 0 ? element : b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), element, static_cast<uint64_t>(field.offset));
}

Status emit_struct_write(Frame& f, const ir::StructLayout& layout, llvm::Value* element,
                         const std::map<std::string, TypedValue>& fields, const Wcr* wcr, bool atomic) {
  llvm::IRBuilder<>& b = f.b;
  std::map<std::string, TypedValue> result;
  for (const ir::StructField& fl : layout.fields) {
    auto it = fields.find(fl.name);
    if (it == fields.end()) return make_error(Code::Internal, "struct field \"" + fl.name + "\" has no value");
    result[fl.name] = convert_typed(b, it->second, fl.type);
  }
  // Even a plain replacement takes the lock: two unlocked writers could interleave fields.
  llvm::GlobalVariable* lock = nullptr;
  if (wcr && atomic) {
    lock = struct_lock(f.mc);
    emit_lock(f, lock, true);
  }
  if (wcr && wcr->kind != WcrKind::Replace) {
    // The lambda body as `__r = body`, split into one expression per field of __r.
    const std::string result_name = "__wcr_result";
    StructConnectors structs{{wcr->a, layout}, {wcr->b, layout}, {result_name, layout}};
    Assign a;
    a.targets.push_back(make_expr({}, Name{result_name}));
    a.value = wcr->body;
    Result<Program> split = split_struct_connectors(Program{{make_stmt({}, std::move(a))}}, structs);
    if (!split) return make_error(split.error().code, "struct WCR: " + split.error().message);
    std::map<std::string, TypedValue> env_values;
    std::map<std::string, ScalarType> env_types;
    for (const ir::StructField& fl : layout.fields) {
      TypedValue cur = load_scalar(b, field_pointer(b, element, fl), fl.type);
      env_values[field_connector(wcr->a, fl.name)] = cur;
      env_values[field_connector(wcr->b, fl.name)] = result.at(fl.name);
      env_types[field_connector(wcr->a, fl.name)] = fl.type;
      env_types[field_connector(wcr->b, fl.name)] = fl.type;
    }
    FieldEnv env(env_values);
    // Every field is computed from the old values before any is stored.
    std::map<std::string, TypedValue> combined;
    for (const StmtPtr& s : split->body) {
      const Assign* fa = s->as<Assign>();
      const Name* target = fa && fa->targets.size() == 1 ? fa->targets[0]->as<Name>() : nullptr;
      if (!target) return make_error(Code::Internal, "struct WCR: unexpected statement");
      Result<ExprPtr> typed = typecheck_expression(*fa->value, {}, env_types);
      if (!typed) return make_error(typed.error().code, "struct WCR: " + typed.error().message);
      ExprEmitter em(b, env);
      Result<TypedValue> v = em.emit(**typed);
      if (!v) return make_error(v.error().code, "struct WCR: " + v.error().message);
      combined[target->id.substr(result_name.size() + 1)] = *v;
    }
    for (const ir::StructField& fl : layout.fields) result[fl.name] = convert_typed(b, combined.at(fl.name), fl.type);
  }
  for (const ir::StructField& fl : layout.fields) store_scalar(b, result.at(fl.name), field_pointer(b, element, fl));
  if (lock) emit_lock(f, lock, false);
  return Status::success();
}

}  // namespace dace::codegen
