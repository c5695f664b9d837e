#include "codegen/math_runtime.h"

#include <llvm/IR/Intrinsics.h>

#include <cmath>

#include "codegen/scalar_ops.h"

namespace dace::codegen {

using namespace tasklet;

namespace {

Error unsupported(const std::string& fname, const std::string& why) {
  return make_error(Code::Unsupported, "function '" + fname + "' " + why);
}

llvm::Module* module_of(llvm::IRBuilder<>& b) { return b.GetInsertBlock()->getModule(); }

// gcd by Euclid's algorithm on absolute values (NumPy: gcd(0, 0) == 0, result >= 0).
llvm::Value* gcd(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* y, bool is_signed) {
  llvm::Type* ty = x->getType();
  llvm::Value* zero = llvm::Constant::getNullValue(ty);
  auto absolute = [&](llvm::Value* v) {
    return is_signed ? b.CreateSelect(b.CreateICmpSLT(v, zero), b.CreateNeg(v), v) : v;
  };
  llvm::Value* a0 = absolute(x);
  llvm::Value* b0 = absolute(y);
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* head = llvm::BasicBlock::Create(b.getContext(), "gcd.head", fn);
  llvm::BasicBlock* step = llvm::BasicBlock::Create(b.getContext(), "gcd.step", fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(b.getContext(), "gcd.done", fn);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  llvm::PHINode* a = b.CreatePHI(ty, 2, "gcd.a");
  llvm::PHINode* c = b.CreatePHI(ty, 2, "gcd.b");
  a->addIncoming(a0, pre);
  c->addIncoming(b0, pre);
  b.CreateCondBr(b.CreateICmpEQ(c, zero), done, step);
  b.SetInsertPoint(step);
  // |MIN| stays negative in two's complement; URem treats it as 2^(n-1), which is its magnitude.
  llvm::Value* r = b.CreateURem(a, c);
  a->addIncoming(c, step);
  c->addIncoming(r, step);
  b.CreateBr(head);
  b.SetInsertPoint(done);
  return a;
}

llvm::Value* lcm(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* y, bool is_signed) {
  llvm::Type* ty = x->getType();
  llvm::Value* zero = llvm::Constant::getNullValue(ty);
  llvm::Value* g = gcd(b, x, y, is_signed);
  llvm::Value* g_safe = b.CreateSelect(b.CreateICmpEQ(g, zero), llvm::ConstantInt::get(ty, 1), g);
  llvm::Value* m = b.CreateMul(b.CreateUDiv(is_signed ? b.CreateSelect(b.CreateICmpSLT(x, zero), b.CreateNeg(x), x) : x, g_safe),
                               is_signed ? b.CreateSelect(b.CreateICmpSLT(y, zero), b.CreateNeg(y), y) : y);
  return b.CreateSelect(b.CreateICmpEQ(g, zero), zero, m);
}

// C remainder (sign of the dividend); integers never trap: x % 0 == 0.
llvm::Value* c_remainder(llvm::IRBuilder<>& b, llvm::Value* p, llvm::Value* q, ScalarType t) {
  if (is_float(t)) return b.CreateFRem(p, q);
  llvm::Value* quotient = integer_div(b, p, q, t);
  llvm::Value* rem = b.CreateSub(p, b.CreateMul(quotient, q));
  return b.CreateSelect(b.CreateICmpEQ(q, llvm::Constant::getNullValue(q->getType())),
                        llvm::Constant::getNullValue(q->getType()), rem);
}

llvm::Value* frexp_part(llvm::IRBuilder<>& b, llvm::Value* v, unsigned index) {
  llvm::Function* f = llvm::Intrinsic::getDeclaration(module_of(b), llvm::Intrinsic::frexp, {v->getType(), b.getInt32Ty()});
  return b.CreateExtractValue(b.CreateCall(f, {v}), {index});
}

llvm::Value* is_finite(llvm::IRBuilder<>& b, llvm::Value* v) {
  llvm::Value* a = float_intrinsic(b, llvm::Intrinsic::fabs, v);
  return b.CreateFCmpOLT(a, llvm::ConstantFP::getInfinity(v->getType()));
}

std::optional<Result<TypedValue>> real_math(llvm::IRBuilder<>& b, std::string_view name, TypedValue x,
                                            ScalarType result) {
  auto value = [&](llvm::Value* v) -> std::optional<Result<TypedValue>> { return Result<TypedValue>(TypedValue{v, result}); };
  if (name != "round" && name != "rad2deg" && name != "deg2rad" && name.rfind("np_modf_", 0) != 0 &&
      name != "np_frexp_mantissa")
    return std::nullopt;
  if (is_complex(result)) return Result<TypedValue>(unsupported(std::string(name), "is not supported for complex arguments"));
  llvm::Value* v = convert(b, x, result);
  if (name == "round") return value(float_intrinsic(b, llvm::Intrinsic::roundeven, v));  // Python/NumPy: half to even
  if (name == "rad2deg") return value(b.CreateFMul(v, constant_float(b, result, 180.0 / M_PI)));
  if (name == "deg2rad") return value(b.CreateFMul(v, constant_float(b, result, M_PI / 180.0)));
  llvm::Value* integral = float_intrinsic(b, llvm::Intrinsic::trunc, v);
  if (name == "np_modf_integral") return value(integral);
  if (name == "np_modf_fractional") {
    // x - trunc(x) keeps x's sign (copysign also makes modf(-inf) give -0.0, as C's modf).
    llvm::Value* frac = b.CreateSelect(is_finite(b, v), b.CreateFSub(v, integral), zero_value(b, result));
    return value(float_intrinsic(b, llvm::Intrinsic::copysign, frac, v));
  }
  return value(frexp_part(b, v, 0));  // np_frexp_mantissa
}

}  // namespace

std::optional<Result<TypedValue>> emit_runtime_builtin(llvm::IRBuilder<>& b, const Builtin& bi,
                                                      const std::string& fname, const std::vector<TypedValue>& args,
                                                      ScalarType result) {
  std::string_view name = bi.name;
  using R = Result<TypedValue>;
  auto two = [&]() -> std::optional<R> {
    if (args.size() != 2) return R(unsupported(fname, "takes two arguments"));
    return std::nullopt;
  };
  switch (bi.rule) {
    case BuiltinRule::RealMath:
      return real_math(b, name, args[0], result);
    case BuiltinRule::FloatBinary: {
      if (name != "heaviside" && name != "nextafter") return std::nullopt;
      if (auto e = two()) return e;
      if (is_complex(result)) return R(unsupported(fname, "is not supported for complex arguments"));
      llvm::Value* p = convert(b, args[0], result);
      llvm::Value* q = convert(b, args[1], result);
      if (name == "nextafter") return R(TypedValue{libm_call(b, "nextafter", p, q), result});
      // heaviside(x, h0): 0 below zero, h0 at zero, 1 above, NaN for NaN (NumPy).
      llvm::Value* zero = zero_value(b, result);
      llvm::Value* r = b.CreateSelect(b.CreateFCmpOGT(p, zero), constant_float(b, result, 1.0), q);
      r = b.CreateSelect(b.CreateFCmpOLT(p, zero), zero, r);
      return R(TypedValue{b.CreateSelect(b.CreateFCmpUNO(p, p), p, r), result});
    }
    case BuiltinRule::Predicate: {
      if (name != "signbit") return std::nullopt;
      TypedValue x = args[0];
      if (is_complex(x.type)) return R(unsupported(fname, "is not supported for complex arguments"));
      if (is_float(x.type)) {
        unsigned bits = x.value->getType()->getPrimitiveSizeInBits();
        llvm::Value* i = b.CreateBitCast(x.value, b.getIntNTy(bits));
        return R(TypedValue{b.CreateICmpSLT(i, llvm::ConstantInt::get(i->getType(), 0)), ScalarType::Bool});
      }
      if (!is_signed_integer(x.type)) return R(TypedValue{b.getInt1(false), ScalarType::Bool});
      return R(TypedValue{b.CreateICmpSLT(x.value, zero_value(b, x.type)), ScalarType::Bool});
    }
    case BuiltinRule::PyArith: {
      if (auto e = two()) return e;
      if (is_complex(result)) return R(unsupported(fname, "is not supported for complex arguments"));
      llvm::Value* p = convert(b, args[0], result);
      llvm::Value* q = convert(b, args[1], result);
      if (name == "py_floor") return R(TypedValue{floor_div(b, p, q, result), result});
      if (name == "py_mod") return R(TypedValue{python_mod(b, p, q, result), result});
      return R(TypedValue{c_remainder(b, p, q, result), result});  // cpp_mod
    }
    case BuiltinRule::FloatPow: {
      if (auto e = two()) return e;
      return binary_op(b, BinOpKind::Pow, convert_typed(b, args[0], result), convert_typed(b, args[1], result), result);
    }
    case BuiltinRule::IntegerOnly: {
      if (auto e = two()) return e;
      llvm::Value* p = convert(b, args[0], result);
      llvm::Value* q = convert(b, args[1], result);
      bool s = is_signed_integer(result);
      return R(TypedValue{name == "gcd" ? gcd(b, p, q, s) : lcm(b, p, q, s), result});
    }
    case BuiltinRule::Reciprocal: {
      TypedValue one = is_integer(result) || is_bool(result) ? TypedValue{constant_int(b, result, 1), result}
                                                               : convert_typed(b, TypedValue{constant_float(b, ScalarType::Float64, 1.0), ScalarType::Float64}, result);
      return binary_op(b, BinOpKind::Div, one, convert_typed(b, args[0], result), result);
    }
    case BuiltinRule::FirstFloat: {
      if (auto e = two()) return e;
      llvm::Value* x = convert(b, args[0], result);
      llvm::Value* n = convert(b, args[1], ScalarType::Int32);
      llvm::Function* f = llvm::Intrinsic::getDeclaration(module_of(b), llvm::Intrinsic::ldexp, {x->getType(), b.getInt32Ty()});
      return R(TypedValue{b.CreateCall(f, {x, n}), result});
    }
    case BuiltinRule::FrexpExponent: {
      TypedValue x = args[0];
      if (!is_float(x.type)) x = convert_typed(b, x, ScalarType::Float64);
      // NumPy gives exponent 0 for zero, infinities and NaN; LLVM leaves the last two unspecified.
      llvm::Value* e = frexp_part(b, x.value, 1);
      return R(TypedValue{b.CreateSelect(is_finite(b, x.value), e, b.getInt32(0)), ScalarType::Int32});
    }
    default:
      return std::nullopt;
  }
}

}  // namespace dace::codegen
