#include "codegen/scalar_ops.h"

#include <cmath>
#include <limits>

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

namespace dace::codegen {

using tasklet::BinOpKind;
using tasklet::CmpOpKind;
using tasklet::component_type;
using tasklet::is_bool;
using tasklet::is_complex;
using tasklet::is_float;
using tasklet::is_integer;
using tasklet::is_signed_integer;
using tasklet::UnaryOpKind;

namespace {

Error unsupported(const std::string& what) { return make_error(Code::Unsupported, what); }

llvm::Module* module_of(llvm::IRBuilder<>& b) { return b.GetInsertBlock()->getModule(); }

llvm::Value* complex_add(llvm::IRBuilder<>& b, ScalarType t, llvm::Value* x, llvm::Value* y, bool sub) {
  llvm::Value* re = sub ? b.CreateFSub(real_part(b, x), real_part(b, y)) : b.CreateFAdd(real_part(b, x), real_part(b, y));
  llvm::Value* im = sub ? b.CreateFSub(imag_part(b, x), imag_part(b, y)) : b.CreateFAdd(imag_part(b, x), imag_part(b, y));
  return make_complex(b, t, re, im);
}

// x ** n for a constant n >= 0 by an unrolled square-and-multiply chain.
llvm::Value* power_chain(llvm::IRBuilder<>& b, ScalarType t, llvm::Value* x, int64_t n) {
  auto mul = [&](llvm::Value* p, llvm::Value* q) -> llvm::Value* {
    if (is_complex(t)) return complex_mul(b, t, p, q);
    if (is_float(t)) return b.CreateFMul(p, q);
    return b.CreateMul(p, q);
  };
  llvm::Value* result = nullptr;
  llvm::Value* base = x;
  while (n > 0) {
    if (n & 1) result = result ? mul(result, base) : base;
    n >>= 1;
    if (n > 0) base = mul(base, base);
  }
  return result ? result : constant_int(b, t, 1);
}

}  // namespace

llvm::Value* float_intrinsic(llvm::IRBuilder<>& b, unsigned id, llvm::Value* x, llvm::Value* y) {
  llvm::Function* f = llvm::Intrinsic::getDeclaration(module_of(b), id, {x->getType()});
  if (y) return b.CreateCall(f, {x, y});
  return b.CreateCall(f, {x});
}

llvm::Value* libm_call(llvm::IRBuilder<>& b, const char* name, llvm::Value* x, llvm::Value* y) {
  llvm::Type* t = x->getType();
  llvm::Value* xx = x;
  llvm::Value* yy = y;
  bool half = t->isHalfTy();
  if (half) {  // no half-precision libm: compute in float
    xx = b.CreateFPExt(x, b.getFloatTy());
    if (y) yy = b.CreateFPExt(y, b.getFloatTy());
  }
  llvm::Type* ct = xx->getType();
  std::string fname = name;
  if (ct->isFloatTy()) fname += "f";
  std::vector<llvm::Type*> params(y ? 2 : 1, ct);
  llvm::FunctionCallee callee = module_of(b)->getOrInsertFunction(fname, llvm::FunctionType::get(ct, params, false));
  llvm::Value* r = y ? b.CreateCall(callee, {xx, yy}) : b.CreateCall(callee, {xx});
  if (half) r = b.CreateFPTrunc(r, t);
  return r;
}

llvm::Value* complex_mul(llvm::IRBuilder<>& b, ScalarType t, llvm::Value* x, llvm::Value* y) {
  llvm::Value* a = real_part(b, x);
  llvm::Value* bb = imag_part(b, x);
  llvm::Value* c = real_part(b, y);
  llvm::Value* d = imag_part(b, y);
  llvm::Value* re = b.CreateFSub(b.CreateFMul(a, c), b.CreateFMul(bb, d));
  llvm::Value* im = b.CreateFAdd(b.CreateFMul(a, d), b.CreateFMul(bb, c));
  return make_complex(b, t, re, im);
}

llvm::Value* complex_div(llvm::IRBuilder<>& b, ScalarType t, llvm::Value* x, llvm::Value* y) {
  llvm::Value* a = real_part(b, x);
  llvm::Value* bb = imag_part(b, x);
  llvm::Value* c = real_part(b, y);
  llvm::Value* d = imag_part(b, y);
  llvm::Value* den = b.CreateFAdd(b.CreateFMul(c, c), b.CreateFMul(d, d));
  llvm::Value* re = b.CreateFDiv(b.CreateFAdd(b.CreateFMul(a, c), b.CreateFMul(bb, d)), den);
  llvm::Value* im = b.CreateFDiv(b.CreateFSub(b.CreateFMul(bb, c), b.CreateFMul(a, d)), den);
  return make_complex(b, t, re, im);
}

// |x| is hypot(re, im), computed inline without a libm call (the call cost mandelbrot1 2/3 of
// its run time, and a loop with a call does not vectorize). float: in double, where the
// squares of any float neither overflow nor underflow. double: sqrt(re^2 + im^2) after
// scaling both parts by a power of two (exact) when the larger one is beyond 2^±500, so the
// squares stay normal and finite: within an ulp, as hypot. Infinite parts give +inf even
// beside a NaN (hypot's rule); otherwise NaN propagates.
llvm::Value* complex_abs(llvm::IRBuilder<>& b, ScalarType t, llvm::Value* x) {
  llvm::Value* re = real_part(b, x);
  llvm::Value* im = imag_part(b, x);
  llvm::Type* ft = re->getType();
  if (ft->isFloatTy()) {
    llvm::Value* r = b.CreateFPExt(re, b.getDoubleTy());
    llvm::Value* i = b.CreateFPExt(im, b.getDoubleTy());
    llvm::Value* s = b.CreateFAdd(b.CreateFMul(r, r), b.CreateFMul(i, i));
    return b.CreateFPTrunc(float_intrinsic(b, llvm::Intrinsic::sqrt, s), ft);
  }
  if (!ft->isDoubleTy()) return libm_call(b, "hypot", re, im);
  auto c = [&](double v) { return llvm::ConstantFP::get(ft, v); };
  llvm::Value* ar = float_intrinsic(b, llvm::Intrinsic::fabs, re);
  llvm::Value* ai = float_intrinsic(b, llvm::Intrinsic::fabs, im);
  llvm::Value* m = b.CreateSelect(b.CreateFCmpOGT(ar, ai), ar, ai);
  llvm::Value* big = b.CreateFCmpOGT(m, c(std::ldexp(1.0, 500)));
  llvm::Value* tiny = b.CreateFCmpOLT(m, c(std::ldexp(1.0, -500)));
  llvm::Value* k = b.CreateSelect(big, c(std::ldexp(1.0, -600)), b.CreateSelect(tiny, c(std::ldexp(1.0, 600)), c(1.0)));
  llvm::Value* kinv = b.CreateSelect(big, c(std::ldexp(1.0, 600)), b.CreateSelect(tiny, c(std::ldexp(1.0, -600)), c(1.0)));
  llvm::Value* rs = b.CreateFMul(re, k);
  llvm::Value* is = b.CreateFMul(im, k);
  llvm::Value* s = b.CreateFAdd(b.CreateFMul(rs, rs), b.CreateFMul(is, is));
  llvm::Value* r = b.CreateFMul(float_intrinsic(b, llvm::Intrinsic::sqrt, s), kinv);
  llvm::Value* inf = c(std::numeric_limits<double>::infinity());
  llvm::Value* any_inf = b.CreateOr(b.CreateFCmpOEQ(ar, inf), b.CreateFCmpOEQ(ai, inf));
  return b.CreateSelect(any_inf, inf, r);
}

llvm::Value* complex_exp(llvm::IRBuilder<>& b, ScalarType t, llvm::Value* x) {
  llvm::Value* m = float_intrinsic(b, llvm::Intrinsic::exp, real_part(b, x));
  llvm::Value* im = imag_part(b, x);
  llvm::Value* re = b.CreateFMul(m, float_intrinsic(b, llvm::Intrinsic::cos, im));
  llvm::Value* ii = b.CreateFMul(m, float_intrinsic(b, llvm::Intrinsic::sin, im));
  return make_complex(b, t, re, ii);
}

llvm::Value* complex_log(llvm::IRBuilder<>& b, ScalarType t, llvm::Value* x) {
  llvm::Value* re = float_intrinsic(b, llvm::Intrinsic::log, complex_abs(b, t, x));
  llvm::Value* im = libm_call(b, "atan2", imag_part(b, x), real_part(b, x));
  return make_complex(b, t, re, im);
}

namespace {

// Integer division in hardware traps (SIGFPE) on a zero divisor and on MIN / -1. NumPy does
// not trap: x // 0 and x % 0 are 0, MIN // -1 wraps to MIN. The divisor is replaced by 1 where
// it would trap and the result fixed afterwards, so a bad input never kills the host process.
struct SafeDivisor {
  llvm::Value* divisor;       // d, or 1 where d is 0 or -1
  llvm::Value* is_zero;       // d == 0
  llvm::Value* is_minus_one;  // d == -1 (signed only; else false)
};

SafeDivisor safe_divisor(llvm::IRBuilder<>& b, llvm::Value* d, bool is_signed) {
  llvm::Type* ty = d->getType();
  llvm::Value* zero = b.CreateICmpEQ(d, llvm::Constant::getNullValue(ty));
  llvm::Value* minus_one = is_signed ? b.CreateICmpEQ(d, llvm::Constant::getAllOnesValue(ty)) : b.getFalse();
  llvm::Value* one = llvm::ConstantInt::get(ty, 1);
  return {b.CreateSelect(b.CreateOr(zero, minus_one), one, d), zero, minus_one};
}

}  // namespace

llvm::Value* integer_div(llvm::IRBuilder<>& b, llvm::Value* a, llvm::Value* d, ScalarType t) {
  bool is_signed = is_signed_integer(t);
  SafeDivisor sd = safe_divisor(b, d, is_signed);
  llvm::Value* zero = llvm::Constant::getNullValue(a->getType());
  if (!is_signed) return b.CreateSelect(sd.is_zero, zero, b.CreateUDiv(a, sd.divisor));
  llvm::Value* q = b.CreateSelect(sd.is_minus_one, b.CreateSub(zero, a), b.CreateSDiv(a, sd.divisor));
  return b.CreateSelect(sd.is_zero, zero, q);
}

llvm::Value* floor_div(llvm::IRBuilder<>& b, llvm::Value* a, llvm::Value* d, ScalarType t) {
  if (is_float(t)) return float_intrinsic(b, llvm::Intrinsic::floor, b.CreateFDiv(a, d));
  if (!is_signed_integer(t)) return integer_div(b, a, d, t);
  SafeDivisor sd = safe_divisor(b, d, true);
  llvm::Value* q = b.CreateSDiv(a, sd.divisor);
  llvm::Value* r = b.CreateSRem(a, sd.divisor);
  llvm::Value* zero = llvm::Constant::getNullValue(a->getType());
  // Round toward negative infinity: subtract one when the remainder and divisor differ in sign.
  llvm::Value* adjust = b.CreateAnd(b.CreateICmpNE(r, zero), b.CreateICmpSLT(b.CreateXor(r, sd.divisor), zero));
  q = b.CreateSub(q, b.CreateZExt(adjust, a->getType()));
  q = b.CreateSelect(sd.is_minus_one, b.CreateSub(zero, a), q);
  return b.CreateSelect(sd.is_zero, zero, q);
}

llvm::Value* python_mod(llvm::IRBuilder<>& b, llvm::Value* a, llvm::Value* d, ScalarType t) {
  if (is_float(t)) {
    llvm::Value* r = b.CreateFRem(a, d);
    llvm::Value* zero = llvm::Constant::getNullValue(a->getType());
    llvm::Value* differ = b.CreateXor(b.CreateFCmpOLT(r, zero), b.CreateFCmpOLT(d, zero));
    llvm::Value* fix = b.CreateAnd(b.CreateFCmpUNE(r, zero), differ);
    return b.CreateSelect(fix, b.CreateFAdd(r, d), r);
  }
  bool is_signed = is_signed_integer(t);
  SafeDivisor sd = safe_divisor(b, d, is_signed);
  llvm::Value* zero = llvm::Constant::getNullValue(a->getType());
  if (!is_signed) return b.CreateSelect(sd.is_zero, zero, b.CreateURem(a, sd.divisor));
  // x % 1 == 0 stands in for x % -1 (also 0) and x % 0 (NumPy: 0).
  llvm::Value* r = b.CreateSRem(a, sd.divisor);
  llvm::Value* fix = b.CreateAnd(b.CreateICmpNE(r, zero), b.CreateICmpSLT(b.CreateXor(r, sd.divisor), zero));
  return b.CreateSelect(fix, b.CreateAdd(r, sd.divisor), r);
}

llvm::Value* integer_power(llvm::IRBuilder<>& b, llvm::Value* base, llvm::Value* exponent) {
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  llvm::LLVMContext& ctx = b.getContext();
  llvm::Type* ty = base->getType();
  exponent = b.CreateIntCast(exponent, ty, true);
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(ctx, "ipow.loop", fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx, "ipow.done", fn);
  llvm::Value* zero = llvm::ConstantInt::get(ty, 0);
  llvm::Value* one = llvm::ConstantInt::get(ty, 1);
  b.CreateCondBr(b.CreateICmpSGT(exponent, zero), loop, done);
  b.SetInsertPoint(loop);
  llvm::PHINode* r = b.CreatePHI(ty, 2);
  llvm::PHINode* x = b.CreatePHI(ty, 2);
  llvm::PHINode* e = b.CreatePHI(ty, 2);
  r->addIncoming(one, pre);
  x->addIncoming(base, pre);
  e->addIncoming(exponent, pre);
  llvm::Value* odd = b.CreateICmpNE(b.CreateAnd(e, one), zero);
  llvm::Value* r2 = b.CreateSelect(odd, b.CreateMul(r, x), r);
  llvm::Value* x2 = b.CreateMul(x, x);
  llvm::Value* e2 = b.CreateLShr(e, one);
  r->addIncoming(r2, loop);
  x->addIncoming(x2, loop);
  e->addIncoming(e2, loop);
  b.CreateCondBr(b.CreateICmpSGT(e2, zero), loop, done);
  b.SetInsertPoint(done);
  llvm::PHINode* out = b.CreatePHI(ty, 2);
  out->addIncoming(one, pre);
  out->addIncoming(r2, loop);
  // The pre-header edge is taken for exponent <= 0: x ** 0 == 1, a negative exponent gives 0.
  llvm::Value* neg = b.CreateICmpSLT(exponent, zero);
  return b.CreateSelect(neg, zero, out);
}

llvm::Value* max_value(llvm::IRBuilder<>& b, TypedValue a, TypedValue c) {
  llvm::Value* gt;
  if (is_float(a.type)) gt = b.CreateFCmpOGT(c.value, a.value);
  else if (is_signed_integer(a.type)) gt = b.CreateICmpSGT(c.value, a.value);
  else gt = b.CreateICmpUGT(c.value, a.value);
  return b.CreateSelect(gt, c.value, a.value);
}

llvm::Value* min_value(llvm::IRBuilder<>& b, TypedValue a, TypedValue c) {
  llvm::Value* lt;
  if (is_float(a.type)) lt = b.CreateFCmpOLT(c.value, a.value);
  else if (is_signed_integer(a.type)) lt = b.CreateICmpSLT(c.value, a.value);
  else lt = b.CreateICmpULT(c.value, a.value);
  return b.CreateSelect(lt, c.value, a.value);
}

Result<TypedValue> binary_op(llvm::IRBuilder<>& b, BinOpKind op, TypedValue lhs, TypedValue rhs, ScalarType t,
                             std::optional<int64_t> constant_exponent) {
  if (t == ScalarType::Unknown) return make_error(Code::Internal, "operand of unknown type");
  if (op == BinOpKind::Pow) {
    if (constant_exponent && *constant_exponent >= 0 && *constant_exponent <= 64) {
      llvm::Value* x = convert(b, lhs, t);
      return TypedValue{power_chain(b, t, x, *constant_exponent), t};
    }
    llvm::Value* x = convert(b, lhs, t);
    if (is_complex(t)) {
      llvm::Value* y = convert(b, rhs, t);
      return TypedValue{complex_exp(b, t, complex_mul(b, t, y, complex_log(b, t, x))), t};
    }
    if (is_float(t)) {
      if (is_integer(rhs.type) || is_bool(rhs.type)) {
        llvm::Value* e = convert(b, rhs, ScalarType::Int32);
        llvm::Function* f = llvm::Intrinsic::getDeclaration(module_of(b), llvm::Intrinsic::powi, {x->getType(), b.getInt32Ty()});
        return TypedValue{b.CreateCall(f, {x, e}), t};
      }
      return TypedValue{float_intrinsic(b, llvm::Intrinsic::pow, x, convert(b, rhs, t)), t};
    }
    return TypedValue{integer_power(b, x, convert(b, rhs, t)), t};
  }
  if (op == BinOpKind::LShift || op == BinOpKind::RShift) {
    llvm::Value* x = convert(b, lhs, t);
    llvm::Value* s = convert(b, rhs, t);
    if (op == BinOpKind::LShift) return TypedValue{b.CreateShl(x, s), t};
    return TypedValue{is_signed_integer(t) ? b.CreateAShr(x, s) : b.CreateLShr(x, s), t};
  }
  llvm::Value* x = convert(b, lhs, t);
  llvm::Value* y = convert(b, rhs, t);
  if (is_complex(t)) {
    switch (op) {
      case BinOpKind::Add: return TypedValue{complex_add(b, t, x, y, false), t};
      case BinOpKind::Sub: return TypedValue{complex_add(b, t, x, y, true), t};
      case BinOpKind::Mult: return TypedValue{complex_mul(b, t, x, y), t};
      case BinOpKind::Div: return TypedValue{complex_div(b, t, x, y), t};
      default: return unsupported(std::string("operator '") + tasklet::op_text(op) + "' on complex numbers");
    }
  }
  if (is_float(t)) {
    switch (op) {
      case BinOpKind::Add: return TypedValue{b.CreateFAdd(x, y), t};
      case BinOpKind::Sub: return TypedValue{b.CreateFSub(x, y), t};
      case BinOpKind::Mult: return TypedValue{b.CreateFMul(x, y), t};
      case BinOpKind::Div: return TypedValue{b.CreateFDiv(x, y), t};
      case BinOpKind::FloorDiv: return TypedValue{floor_div(b, x, y, t), t};
      case BinOpKind::Mod: return TypedValue{python_mod(b, x, y, t), t};
      default: return unsupported(std::string("operator '") + tasklet::op_text(op) + "' on floating-point numbers");
    }
  }
  // integers and bool
  if (is_bool(t)) {
    switch (op) {
      case BinOpKind::BitAnd: return TypedValue{b.CreateAnd(x, y), t};
      case BinOpKind::BitOr: return TypedValue{b.CreateOr(x, y), t};
      case BinOpKind::BitXor: return TypedValue{b.CreateXor(x, y), t};
      default: {
        // Arithmetic on bools happens on integers (True + True == 2).
        return binary_op(b, op, lhs, rhs, ScalarType::Int64, constant_exponent);
      }
    }
  }
  switch (op) {
    case BinOpKind::Add: return TypedValue{b.CreateAdd(x, y), t};
    case BinOpKind::Sub: return TypedValue{b.CreateSub(x, y), t};
    case BinOpKind::Mult: return TypedValue{b.CreateMul(x, y), t};
    case BinOpKind::Div: return TypedValue{integer_div(b, x, y, t), t};
    case BinOpKind::FloorDiv: return TypedValue{floor_div(b, x, y, t), t};
    case BinOpKind::Mod: return TypedValue{python_mod(b, x, y, t), t};
    case BinOpKind::BitAnd: return TypedValue{b.CreateAnd(x, y), t};
    case BinOpKind::BitOr: return TypedValue{b.CreateOr(x, y), t};
    case BinOpKind::BitXor: return TypedValue{b.CreateXor(x, y), t};
    default: break;
  }
  return unsupported(std::string("operator '") + tasklet::op_text(op) + "'");
}

Result<llvm::Value*> compare_op(llvm::IRBuilder<>& b, CmpOpKind op, TypedValue lhs, TypedValue rhs, ScalarType t) {
  llvm::Value* x = convert(b, lhs, t);
  llvm::Value* y = convert(b, rhs, t);
  if (is_complex(t)) {
    llvm::Value* re = b.CreateFCmpOEQ(real_part(b, x), real_part(b, y));
    llvm::Value* im = b.CreateFCmpOEQ(imag_part(b, x), imag_part(b, y));
    llvm::Value* eq = b.CreateAnd(re, im);
    if (op == CmpOpKind::Eq) return eq;
    if (op == CmpOpKind::NotEq) return b.CreateNot(eq);
    return unsupported("ordering comparison of complex numbers");
  }
  if (is_float(t)) {
    switch (op) {
      case CmpOpKind::Eq: return b.CreateFCmpOEQ(x, y);
      case CmpOpKind::NotEq: return b.CreateFCmpUNE(x, y);
      case CmpOpKind::Lt: return b.CreateFCmpOLT(x, y);
      case CmpOpKind::LtE: return b.CreateFCmpOLE(x, y);
      case CmpOpKind::Gt: return b.CreateFCmpOGT(x, y);
      case CmpOpKind::GtE: return b.CreateFCmpOGE(x, y);
    }
  }
  bool s = is_signed_integer(t);
  switch (op) {
    case CmpOpKind::Eq: return b.CreateICmpEQ(x, y);
    case CmpOpKind::NotEq: return b.CreateICmpNE(x, y);
    case CmpOpKind::Lt: return s ? b.CreateICmpSLT(x, y) : b.CreateICmpULT(x, y);
    case CmpOpKind::LtE: return s ? b.CreateICmpSLE(x, y) : b.CreateICmpULE(x, y);
    case CmpOpKind::Gt: return s ? b.CreateICmpSGT(x, y) : b.CreateICmpUGT(x, y);
    case CmpOpKind::GtE: return s ? b.CreateICmpSGE(x, y) : b.CreateICmpUGE(x, y);
  }
  return unsupported("comparison");
}

Result<TypedValue> unary_op(llvm::IRBuilder<>& b, UnaryOpKind op, TypedValue v, ScalarType t) {
  if (op == UnaryOpKind::Not) return TypedValue{b.CreateNot(truthy(b, v)), ScalarType::Bool};
  llvm::Value* x = convert(b, v, t);
  switch (op) {
    case UnaryOpKind::Plus: return TypedValue{x, t};
    case UnaryOpKind::Minus:
      if (is_complex(t)) return TypedValue{make_complex(b, t, b.CreateFNeg(real_part(b, x)), b.CreateFNeg(imag_part(b, x))), t};
      if (is_float(t)) return TypedValue{b.CreateFNeg(x), t};
      return TypedValue{b.CreateNeg(x), t};
    case UnaryOpKind::Invert:
      if (is_integer(t) || is_bool(t)) return TypedValue{b.CreateNot(x), t};
      return unsupported("operator '~' on a non-integer");
    case UnaryOpKind::Not: break;
  }
  return unsupported("unary operator");
}

}  // namespace dace::codegen
