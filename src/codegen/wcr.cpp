#include "codegen/wcr.h"

#include "codegen/expr_emit.h"
#include "codegen/scalar_ops.h"
#include "ir/memlet.h"
#include "ir/tasklet/parser.h"
#include "ir/tasklet/typecheck.h"

namespace dace::codegen {

using namespace tasklet;

namespace {

std::string trim(std::string s) {
  size_t a = s.find_first_not_of(" \t\n\r");
  size_t b = s.find_last_not_of(" \t\n\r");
  if (a == std::string::npos) return "";
  return s.substr(a, b - a + 1);
}

// Removes one pair of parentheses enclosing the whole text.
bool strip_parens(std::string& s) {
  if (s.size() < 2 || s.front() != '(' || s.back() != ')') return false;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    else if (s[i] == ')' && --depth == 0 && i + 1 != s.size()) return false;
  }
  s = trim(s.substr(1, s.size() - 2));
  return true;
}

bool is_name(const ExprPtr& e, const std::string& n) {
  const Name* x = e ? e->as<Name>() : nullptr;
  return x && x->id == n;
}

bool is_pair(const ExprPtr& l, const ExprPtr& r, const std::string& a, const std::string& b) {
  return (is_name(l, a) && is_name(r, b)) || (is_name(l, b) && is_name(r, a));
}

WcrKind classify(const Expr& body, const std::string& a, const std::string& b) {
  if (const Name* n = body.as<Name>()) {
    if (n->id == b) return WcrKind::Replace;
    return WcrKind::Custom;
  }
  if (const BinOp* bo = body.as<BinOp>()) {
    if (!is_pair(bo->left, bo->right, a, b)) return WcrKind::Custom;
    switch (bo->op) {
      case BinOpKind::Add: return WcrKind::Sum;
      case BinOpKind::Mult: return WcrKind::Product;
      case BinOpKind::BitAnd: return WcrKind::BitAnd;
      case BinOpKind::BitOr: return WcrKind::BitOr;
      case BinOpKind::BitXor: return WcrKind::BitXor;
      default: return WcrKind::Custom;
    }
  }
  if (const BoolOp* bo = body.as<BoolOp>()) {
    if (bo->values.size() != 2 || !is_pair(bo->values[0], bo->values[1], a, b)) return WcrKind::Custom;
    return bo->op == BoolOpKind::And ? WcrKind::LogicalAnd : WcrKind::LogicalOr;
  }
  if (const Compare* c = body.as<Compare>()) {
    if (c->ops.size() == 1 && c->ops[0] == CmpOpKind::NotEq && is_pair(c->left, c->comparators[0], a, b))
      return WcrKind::LogicalXor;
    return WcrKind::Custom;
  }
  if (const Call* c = body.as<Call>()) {
    if (c->args.size() != 2 || !is_pair(c->args[0], c->args[1], a, b)) return WcrKind::Custom;
    std::string fn = c->func;
    size_t dot = fn.rfind('.');
    if (dot != std::string::npos) fn = fn.substr(dot + 1);
    if (fn == "max" || fn == "fmax" || fn == "maximum") return WcrKind::Max;
    if (fn == "min" || fn == "fmin" || fn == "minimum") return WcrKind::Min;
  }
  return WcrKind::Custom;
}

class PairEnv : public NameEnv {
 public:
  PairEnv(const std::string& a, TypedValue av, const std::string& b, TypedValue bv) : a_(a), b_(b), av_(av), bv_(bv) {}
  Result<TypedValue> read(const std::string& name) override {
    if (name == a_) return av_;
    if (name == b_) return bv_;
    return make_error(Code::InvalidSdfg, "WCR lambda uses unknown name '" + name + "'");
  }
  Result<ArrayRef> array(const std::string& name) override {
    return make_error(Code::InvalidSdfg, "WCR lambda indexes '" + name + "'");
  }

 private:
  std::string a_, b_;
  TypedValue av_, bv_;
};

llvm::IntegerType* bits_type(llvm::LLVMContext& ctx, ScalarType t) {
  return llvm::IntegerType::get(ctx, static_cast<unsigned>(8 * std::max(1, type_size(t))));
}

}  // namespace

Result<Wcr> parse_wcr(const std::string& text) {
  std::optional<std::string> canon = ir::canonical_wcr(text);
  std::string s = trim(canon ? *canon : text);
  while (strip_parens(s)) {
  }
  if (s.compare(0, 6, "lambda") != 0) return make_error(Code::Unsupported, "WCR \"" + text + "\" is not a lambda");
  size_t colon = s.find(':');
  if (colon == std::string::npos) return make_error(Code::InvalidSdfg, "malformed WCR lambda \"" + text + "\"");
  std::string params = s.substr(6, colon - 6);
  size_t comma = params.find(',');
  if (comma == std::string::npos) return make_error(Code::InvalidSdfg, "WCR lambda \"" + text + "\" needs two parameters");
  Wcr w;
  w.a = trim(params.substr(0, comma));
  w.b = trim(params.substr(comma + 1));
  Result<ExprPtr> body = parse_expression(s.substr(colon + 1));
  if (!body) return make_error(body.error().code, "WCR \"" + text + "\": " + body.error().message);
  w.body = *body;
  w.kind = classify(*w.body, w.a, w.b);
  return w;
}

Result<TypedValue> wcr_combine(Frame& f, const Wcr& wcr, TypedValue cur, TypedValue val, ScalarType t) {
  llvm::IRBuilder<>& b = f.b;
  cur = convert_typed(b, cur, t);
  val = convert_typed(b, val, t);
  switch (wcr.kind) {
    case WcrKind::Replace: return val;
    case WcrKind::Sum: return binary_op(b, BinOpKind::Add, cur, val, t);
    case WcrKind::Product: return binary_op(b, BinOpKind::Mult, cur, val, t);
    case WcrKind::BitAnd: return binary_op(b, BinOpKind::BitAnd, cur, val, t);
    case WcrKind::BitOr: return binary_op(b, BinOpKind::BitOr, cur, val, t);
    case WcrKind::BitXor: return binary_op(b, BinOpKind::BitXor, cur, val, t);
    case WcrKind::Max: return TypedValue{max_value(b, cur, val), t};
    case WcrKind::Min: return TypedValue{min_value(b, cur, val), t};
    case WcrKind::LogicalAnd:
    case WcrKind::LogicalOr:
    case WcrKind::LogicalXor: {
      llvm::Value* p = truthy(b, cur);
      llvm::Value* q = truthy(b, val);
      llvm::Value* r = wcr.kind == WcrKind::LogicalAnd ? b.CreateAnd(p, q)
                       : wcr.kind == WcrKind::LogicalOr ? b.CreateOr(p, q)
                                                        : b.CreateXor(p, q);
      return convert_typed(b, TypedValue{r, ScalarType::Bool}, t);
    }
    case WcrKind::Custom: {
      std::map<std::string, ScalarType> syms{{wcr.a, t}, {wcr.b, t}};
      Result<ExprPtr> typed = typecheck_expression(*wcr.body, {}, syms);
      if (!typed) return typed.take_error();
      PairEnv env(wcr.a, cur, wcr.b, val);
      ExprEmitter em(b, env);
      Result<TypedValue> r = em.emit(**typed);
      if (!r) return r;
      return convert_typed(b, *r, t);
    }
  }
  return make_error(Code::Internal, "unknown WCR kind");
}

Status emit_wcr_update(Frame& f, const Wcr& wcr, llvm::Value* ptr, TypedValue value, ScalarType t, bool atomic) {
  llvm::IRBuilder<>& b = f.b;
  value = convert_typed(b, value, t);
  if (!atomic) {
    TypedValue cur = load_scalar(b, ptr, t);
    Result<TypedValue> r = wcr_combine(f, wcr, cur, value, t);
    if (!r) return r.take_error();
    // A WCR sum says that the order of its updates does not matter (DaCe resolves conflicting
    // writes in any order, and builds its code with -ffast-math): with `reassoc` LLVM keeps a
    // sum over a loop in registers and vectorizes it, as for Reduce (library_reduce.cpp). A dot
    // product written as a sequential map with a WCR sum into a scalar ran one addition per
    // four cycles (the latency chain) without it.
    if (wcr.kind == WcrKind::Sum && (t == ScalarType::Float32 || t == ScalarType::Float64))
      if (auto* inst = llvm::dyn_cast<llvm::Instruction>(r->value); inst && inst->getOpcode() == llvm::Instruction::FAdd)
        inst->setHasAllowReassoc(true);
    store_scalar(b, *r, ptr);
    return Status::success();
  }
  llvm::Align align(static_cast<uint64_t>(std::max(1, is_complex(t) ? type_size(component_type(t)) : type_size(t))));
  auto rmw = [&](llvm::AtomicRMWInst::BinOp op, llvm::Value* p, llvm::Value* v, llvm::Align al) {
    b.CreateAtomicRMW(op, p, v, al, llvm::AtomicOrdering::Monotonic);
  };
  bool is_int = is_integer(t);
  bool is_fp = is_float(t) && t != ScalarType::Float16;
  switch (wcr.kind) {
    case WcrKind::Sum:
      if (is_int) {
        rmw(llvm::AtomicRMWInst::Add, ptr, value.value, align);
        return Status::success();
      }
      if (is_fp) {
        rmw(llvm::AtomicRMWInst::FAdd, ptr, value.value, align);
        return Status::success();
      }
      if (is_complex(t)) {
        llvm::Type* ct = value_type(f.mc.ctx, component_type(t));
        rmw(llvm::AtomicRMWInst::FAdd, ptr, real_part(b, value.value), align);
        rmw(llvm::AtomicRMWInst::FAdd, b.CreateConstInBoundsGEP1_64(ct, ptr, 1), imag_part(b, value.value), align);
        return Status::success();
      }
      break;
    case WcrKind::Max:
    case WcrKind::Min: {
      bool mx = wcr.kind == WcrKind::Max;
      if (is_int) {
        auto op = is_signed_integer(t) ? (mx ? llvm::AtomicRMWInst::Max : llvm::AtomicRMWInst::Min)
                                       : (mx ? llvm::AtomicRMWInst::UMax : llvm::AtomicRMWInst::UMin);
        {
        rmw(op, ptr, value.value, align);
        return Status::success();
      }
      }
      break;  // float min/max: CAS loop keeps Python's comparison semantics
    }
    case WcrKind::BitAnd:
    case WcrKind::BitOr:
    case WcrKind::BitXor:
      if (is_int) {
        auto op = wcr.kind == WcrKind::BitAnd ? llvm::AtomicRMWInst::And
                  : wcr.kind == WcrKind::BitOr ? llvm::AtomicRMWInst::Or
                                               : llvm::AtomicRMWInst::Xor;
        {
        rmw(op, ptr, value.value, align);
        return Status::success();
      }
      }
      break;
    case WcrKind::Replace: {
      llvm::Value* v = value.value;
      if (t == ScalarType::Bool) v = b.CreateZExt(v, b.getInt8Ty());
      if (!is_complex(t)) {
        b.CreateAlignedStore(v, ptr, llvm::Align(static_cast<uint64_t>(std::max(1, type_size(t)))))->setAtomic(llvm::AtomicOrdering::Monotonic);
        return Status::success();
      }
      break;
    }
    default: break;
  }
  // Compare-and-swap loop on the element's bits.
  llvm::LLVMContext& ctx = f.mc.ctx;
  llvm::IntegerType* it = bits_type(ctx, t);
  llvm::Align full(static_cast<uint64_t>(std::max(1, type_size(t))));
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::Value* init = b.CreateAlignedLoad(it, ptr, full);
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(ctx, "wcr.cas", f.fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx, "wcr.done", f.fn);
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  llvm::PHINode* old_bits = b.CreatePHI(it, 2);
  old_bits->addIncoming(init, pre);
  // Reinterpret the bits as the element type through a stack slot (works for complex too).
  llvm::AllocaInst* tmp = f.entry_alloca(it, "wcr.tmp");
  tmp->setAlignment(full);
  b.CreateStore(old_bits, tmp);
  TypedValue cur = load_scalar(b, tmp, t);
  Result<TypedValue> r = wcr_combine(f, wcr, cur, value, t);
  if (!r) return r.take_error();
  store_scalar(b, *r, tmp);
  llvm::Value* new_bits = b.CreateLoad(it, tmp);
  llvm::Value* pair = b.CreateAtomicCmpXchg(ptr, old_bits, new_bits, full, llvm::AtomicOrdering::Monotonic,
                                            llvm::AtomicOrdering::Monotonic);
  llvm::Value* seen = b.CreateExtractValue(pair, 0);
  llvm::Value* ok = b.CreateExtractValue(pair, 1);
  old_bits->addIncoming(seen, b.GetInsertBlock());
  b.CreateCondBr(ok, done, loop);
  b.SetInsertPoint(done);
  return Status::success();
}

}  // namespace dace::codegen
