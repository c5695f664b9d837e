#include "codegen/expr_emit.h"

#include "codegen/loops.h"
#include "codegen/math_calls.h"
#include "codegen/scalar_ops.h"
#include "ir/tasklet/builtins.h"
#include "ir/tasklet/promotion.h"

namespace dace::codegen {

using namespace tasklet;

namespace {

Error unsupported(const Expr& e, const std::string& what) {
  return make_error(Code::Unsupported,
                    "line " + std::to_string(e.loc.line) + ", column " + std::to_string(e.loc.column) + ": " + what,
                    e.loc.line, e.loc.column);
}

}  // namespace

ScalarType comparison_type(const Expr& a, const Expr& b) {
  return promote_weak(a.type, a.weak, b.type, b.weak).type;
}

ScalarType augmented_type(BinOpKind op, ScalarType target, const Expr& value) {
  ScalarType t = promote_weak(target, Weak::None, value.type, value.weak).type;
  bool int_like = is_bool(t) || is_integer(t);
  switch (op) {
    case BinOpKind::Div: return int_like ? ScalarType::Float64 : t;
    case BinOpKind::BitAnd:
    case BinOpKind::BitOr:
    case BinOpKind::BitXor: return t;
    default: return is_bool(t) ? ScalarType::Int64 : t;
  }
}

std::optional<int64_t> constant_integer(const Expr& e) {
  if (const Constant* c = e.as<Constant>()) {
    if (c->kind == ConstantKind::Int && c->int_value <= static_cast<uint64_t>(INT64_MAX))
      return static_cast<int64_t>(c->int_value);
    if (c->kind == ConstantKind::Float && c->value == static_cast<double>(static_cast<int64_t>(c->value)) &&
        c->value > -1e15 && c->value < 1e15)
      return static_cast<int64_t>(c->value);
    return std::nullopt;
  }
  if (const UnaryOp* u = e.as<UnaryOp>()) {
    if (!u->operand) return std::nullopt;
    std::optional<int64_t> v = constant_integer(*u->operand);
    if (!v) return std::nullopt;
    if (u->op == UnaryOpKind::Minus) return -*v;
    if (u->op == UnaryOpKind::Plus) return v;
    return std::nullopt;
  }
  if (const Call* c = e.as<Call>()) {
    std::optional<Builtin> bi = find_builtin(c->func);
    if (bi && bi->rule == BuiltinRule::Cast && c->args.size() == 1 && c->args[0]) return constant_integer(*c->args[0]);
  }
  return std::nullopt;
}

llvm::Value* element_address(llvm::IRBuilder<>& b, const ArrayRef& ref, const std::vector<TypedValue>& indices) {
  llvm::Value* offset = nullptr;
  for (size_t i = 0; i < indices.size() && i < ref.strides.size(); ++i) {
    llvm::Value* term = mul_index(b, as_i64(b, indices[i]), ref.strides[i]);
    offset = offset ? add_index(b, offset, term) : term;
  }
  llvm::Type* et = storage_type(b.getContext(), ref.type);
  if (!offset) return ref.base;
  return b.CreateGEP(et, ref.base, offset);
}

Result<std::pair<llvm::Value*, ScalarType>> ExprEmitter::address_of(const Expr& e) {
  const Subscript* s = e.as<Subscript>();
  const Name* base = s && s->value ? s->value->as<Name>() : nullptr;
  if (!base) return unsupported(e, "only connectors and containers can be indexed");
  Result<ArrayRef> ref = env_.array(base->id);
  if (!ref) return ref.take_error();
  if (ref->strides.size() != s->indices.size())
    return make_error(Code::InvalidSdfg, "'" + base->id + "' is indexed with " + std::to_string(s->indices.size()) +
                                             " indices but has " + std::to_string(ref->strides.size()) + " dimensions");
  std::vector<TypedValue> idx;
  for (const ExprPtr& i : s->indices) {
    if (!i) return unsupported(e, "missing index");
    Result<TypedValue> v = emit(*i);
    if (!v) return v.take_error();
    idx.push_back(*v);
  }
  if (!ref->extents.empty()) {
    std::vector<llvm::Value*> i64;
    for (const TypedValue& v : idx) i64.push_back(as_i64(b_, v));
    DACE_TRY(env_.check_indices(*ref, i64));
  }
  return std::make_pair(element_address(b_, *ref, idx), ref->type);
}

Result<TypedValue> ExprEmitter::emit(const Expr& e) {
  if (const Name* n = e.as<Name>()) return env_.read(n->id);
  if (const Constant* c = e.as<Constant>()) {
    switch (c->kind) {
      case ConstantKind::Int: {
        ScalarType t = e.type == ScalarType::Unknown ? ScalarType::Int64 : e.type;
        if (!is_integer(t)) t = ScalarType::Int64;
        return TypedValue{llvm::ConstantInt::get(value_type(b_.getContext(), t), c->int_value), t};
      }
      case ConstantKind::Float: return TypedValue{llvm::ConstantFP::get(b_.getDoubleTy(), c->value), ScalarType::Float64};
      case ConstantKind::Bool: return TypedValue{b_.getInt1(c->bool_value), ScalarType::Bool};
      case ConstantKind::Complex:
        return TypedValue{make_complex(b_, ScalarType::Complex128, llvm::ConstantFP::get(b_.getDoubleTy(), 0.0),
                                       llvm::ConstantFP::get(b_.getDoubleTy(), c->value)),
                          ScalarType::Complex128};
    }
  }
  if (const UnaryOp* u = e.as<UnaryOp>()) {
    Result<TypedValue> v = emit(*u->operand);
    if (!v) return v;
    ScalarType t = e.type == ScalarType::Unknown ? v->type : e.type;
    return unary_op(b_, u->op, *v, t);
  }
  if (const BinOp* bo = e.as<BinOp>()) {
    Result<TypedValue> l = emit(*bo->left);
    if (!l) return l;
    Result<TypedValue> r = emit(*bo->right);
    if (!r) return r;
    std::optional<int64_t> ce;
    if (bo->op == BinOpKind::Pow) ce = constant_integer(*bo->right);
    Result<TypedValue> out = binary_op(b_, bo->op, *l, *r, e.type, ce);
    if (!out) return unsupported(e, out.error().message);
    return out;
  }
  if (const BoolOp* bo = e.as<BoolOp>()) return bool_op(*bo);
  if (const Compare* c = e.as<Compare>()) return compare(*c);
  if (const IfExp* i = e.as<IfExp>()) return if_exp(*i, e.type);
  if (const Call* c = e.as<Call>()) return call(e, *c);
  if (e.is<Subscript>()) {
    auto addr = address_of(e);
    if (!addr) return addr.take_error();
    return load_scalar(b_, addr->first, addr->second);
  }
  if (const Attribute* a = e.as<Attribute>()) return attribute(e, *a);
  return unsupported(e, "unsupported expression");
}

Result<TypedValue> ExprEmitter::bool_op(const BoolOp& op) {
  // Short-circuit evaluation: later operands may index arrays guarded by earlier ones.
  llvm::Function* fn = b_.GetInsertBlock()->getParent();
  llvm::BasicBlock* done = llvm::BasicBlock::Create(b_.getContext(), op.op == BoolOpKind::And ? "and.end" : "or.end", fn);
  std::vector<std::pair<llvm::Value*, llvm::BasicBlock*>> incoming;
  for (size_t i = 0; i < op.values.size(); ++i) {
    Result<TypedValue> v = emit(*op.values[i]);
    if (!v) return v;
    llvm::Value* t = truthy(b_, *v);
    incoming.push_back({t, b_.GetInsertBlock()});
    if (i + 1 == op.values.size()) {
      b_.CreateBr(done);
      break;
    }
    llvm::BasicBlock* next = llvm::BasicBlock::Create(b_.getContext(), "bool.next", fn);
    if (op.op == BoolOpKind::And) b_.CreateCondBr(t, next, done);
    else b_.CreateCondBr(t, done, next);
    b_.SetInsertPoint(next);
  }
  b_.SetInsertPoint(done);
  llvm::PHINode* phi = b_.CreatePHI(b_.getInt1Ty(), static_cast<unsigned>(incoming.size()));
  for (auto& [v, bb] : incoming) phi->addIncoming(v, bb);
  return TypedValue{phi, ScalarType::Bool};
}

Result<TypedValue> ExprEmitter::compare(const Compare& c) {
  Result<TypedValue> left = emit(*c.left);
  if (!left) return left;
  const Expr* left_expr = c.left.get();
  llvm::Value* result = nullptr;
  for (size_t i = 0; i < c.ops.size() && i < c.comparators.size(); ++i) {
    Result<TypedValue> right = emit(*c.comparators[i]);
    if (!right) return right;
    ScalarType common = comparison_type(*left_expr, *c.comparators[i]);
    if (common == ScalarType::Unknown) common = promote(left->type, right->type);
    Result<llvm::Value*> r = compare_op(b_, c.ops[i], *left, *right, common);
    if (!r) return r.take_error();
    result = result ? b_.CreateAnd(result, *r) : *r;
    left = right;
    left_expr = c.comparators[i].get();
  }
  if (!result) result = b_.getInt1(true);
  return TypedValue{result, ScalarType::Bool};
}

Result<TypedValue> ExprEmitter::if_exp(const IfExp& e, ScalarType type) {
  Result<TypedValue> test = emit(*e.test);
  if (!test) return test;
  llvm::Function* fn = b_.GetInsertBlock()->getParent();
  llvm::LLVMContext& ctx = b_.getContext();
  llvm::BasicBlock* then_bb = llvm::BasicBlock::Create(ctx, "ifexp.then", fn);
  llvm::BasicBlock* else_bb = llvm::BasicBlock::Create(ctx, "ifexp.else", fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx, "ifexp.end", fn);
  b_.CreateCondBr(truthy(b_, *test), then_bb, else_bb);
  b_.SetInsertPoint(then_bb);
  Result<TypedValue> tv = emit(*e.body);
  if (!tv) return tv;
  if (type == ScalarType::Unknown) type = tv->type;
  llvm::Value* tconv = convert(b_, *tv, type);
  llvm::BasicBlock* then_end = b_.GetInsertBlock();
  b_.CreateBr(done);
  b_.SetInsertPoint(else_bb);
  Result<TypedValue> ev = emit(*e.orelse);
  if (!ev) return ev;
  llvm::Value* econv = convert(b_, *ev, type);
  llvm::BasicBlock* else_end = b_.GetInsertBlock();
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  llvm::PHINode* phi = b_.CreatePHI(value_type(ctx, type), 2);
  phi->addIncoming(tconv, then_end);
  phi->addIncoming(econv, else_end);
  return TypedValue{phi, type};
}

Result<TypedValue> ExprEmitter::call(const Expr& e, const Call& c) {
  std::optional<Builtin> bi = find_builtin(c.func);
  if (!bi) return unsupported(e, "function '" + c.func + "' cannot be compiled (stream or unknown function)");
  std::vector<TypedValue> args;
  for (const ExprPtr& a : c.args) {
    Result<TypedValue> v = emit(*a);
    if (!v) return v;
    args.push_back(*v);
  }
  // Python literals as arguments of min/max/pow adopt the other arguments' type.
  Result<TypedValue> r = emit_builtin(b_, *bi, c.func, args, e.type);
  if (!r) return unsupported(e, r.error().message);
  return r;
}

Result<TypedValue> ExprEmitter::attribute(const Expr& e, const Attribute& a) {
  if (std::optional<std::string> d = dotted_name(e)) {
    if (std::optional<double> v = find_constant(*d))
      return TypedValue{llvm::ConstantFP::get(b_.getDoubleTy(), *v), ScalarType::Float64};
    if (is_gpu_builtin(*d)) {
      // A target that runs the code in a kernel binds the built-ins as symbols of that name
      // (the CUDA plugin: thread and block indices); anywhere else there is none.
      Result<TypedValue> bound = env_.read(*d);
      if (bound) return bound;
      return unsupported(e, "the GPU built-in '" + *d + "' exists only inside a GPU kernel (CPU code reads it)");
    }
  }
  Result<TypedValue> v = emit(*a.value);
  if (!v) return v;
  if (a.attr == "real") {
    if (is_complex(v->type)) return TypedValue{real_part(b_, v->value), component_type(v->type)};
    return v;
  }
  if (a.attr == "imag") {
    if (is_complex(v->type)) return TypedValue{imag_part(b_, v->value), component_type(v->type)};
    return TypedValue{zero_value(b_, v->type), v->type};
  }
  return unsupported(e, "unknown attribute '" + a.attr + "'");
}

}  // namespace dace::codegen
