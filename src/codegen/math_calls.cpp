#include "codegen/math_calls.h"

#include <llvm/IR/Intrinsics.h>

#include <cmath>
#include <string_view>

#include "codegen/math_runtime.h"
#include "codegen/scalar_ops.h"

namespace dace::codegen {

using namespace tasklet;

namespace {

Error unsupported(const std::string& fname, const std::string& why) {
  return make_error(Code::Unsupported, "function '" + fname + "' " + why);
}

struct Unary {
  std::string_view name;
  unsigned intrinsic;    // 0: libm
  const char* libm;
};

constexpr Unary kUnary[] = {
    {"sin", llvm::Intrinsic::sin, nullptr},      {"cos", llvm::Intrinsic::cos, nullptr},
    {"exp", llvm::Intrinsic::exp, nullptr},      {"exp2", llvm::Intrinsic::exp2, nullptr},
    {"log", llvm::Intrinsic::log, nullptr},      {"log2", llvm::Intrinsic::log2, nullptr},
    {"log10", llvm::Intrinsic::log10, nullptr},  {"sqrt", llvm::Intrinsic::sqrt, nullptr},
    {"fabs", llvm::Intrinsic::fabs, nullptr},    {"floor", llvm::Intrinsic::floor, nullptr},
    {"ceil", llvm::Intrinsic::ceil, nullptr},    {"trunc", llvm::Intrinsic::trunc, nullptr},
    {"rint", llvm::Intrinsic::rint, nullptr},    {"tan", 0, "tan"},
    {"asin", 0, "asin"},                         {"arcsin", 0, "asin"},
    {"acos", 0, "acos"},                         {"arccos", 0, "acos"},
    {"atan", 0, "atan"},                         {"arctan", 0, "atan"},
    {"sinh", 0, "sinh"},                         {"cosh", 0, "cosh"},
    {"tanh", 0, "tanh"},                         {"asinh", 0, "asinh"},
    {"arcsinh", 0, "asinh"},                     {"acosh", 0, "acosh"},
    {"arccosh", 0, "acosh"},                     {"atanh", 0, "atanh"},
    {"arctanh", 0, "atanh"},                     {"expm1", 0, "expm1"},
    {"log1p", 0, "log1p"},                       {"cbrt", 0, "cbrt"},
    {"erf", 0, "erf"},                           {"erfc", 0, "erfc"},
    {"gamma", 0, "tgamma"},                      {"lgamma", 0, "lgamma"},
};

Result<TypedValue> complex_math(llvm::IRBuilder<>& b, std::string_view name, const std::string& fname, TypedValue x,
                                ScalarType t) {
  llvm::Value* v = convert(b, x, t);
  if (name == "exp") return TypedValue{complex_exp(b, t, v), t};
  if (name == "log") return TypedValue{complex_log(b, t, v), t};
  if (name == "sqrt") {
    // sqrt(z) = exp(log(z) / 2); exact for the principal branch away from the negative axis.
    llvm::Value* l = complex_log(b, t, v);
    llvm::Value* half = constant_float(b, component_type(t), 0.5);
    llvm::Value* h = make_complex(b, t, b.CreateFMul(real_part(b, l), half), b.CreateFMul(imag_part(b, l), half));
    return TypedValue{complex_exp(b, t, h), t};
  }
  return unsupported(fname, "is not supported for complex arguments");
}

llvm::Value* sign_of(llvm::IRBuilder<>& b, TypedValue x) {
  llvm::Value* v = x.value;
  llvm::Value* zero = zero_value(b, x.type);
  if (is_float(x.type)) {
    llvm::Value* one = constant_float(b, x.type, 1.0);
    llvm::Value* m1 = constant_float(b, x.type, -1.0);
    llvm::Value* r = b.CreateSelect(b.CreateFCmpOLT(v, zero), m1, v);  // NaN and zeros stay
    return b.CreateSelect(b.CreateFCmpOGT(v, zero), one, r);
  }
  if (is_bool(x.type)) return v;
  llvm::Value* gt = is_signed_integer(x.type) ? b.CreateICmpSGT(v, zero) : b.CreateICmpUGT(v, zero);
  llvm::Value* lt = is_signed_integer(x.type) ? b.CreateICmpSLT(v, zero) : b.getInt1(false);
  return b.CreateSub(b.CreateZExt(gt, v->getType()), b.CreateZExt(lt, v->getType()));
}

}  // namespace

Result<TypedValue> emit_builtin(llvm::IRBuilder<>& b, const Builtin& bi, const std::string& fname,
                                const std::vector<TypedValue>& args, ScalarType result) {
  std::string_view name = bi.name;
  if (args.empty()) return unsupported(fname, "needs arguments");
  TypedValue x = args[0];
  if (result == ScalarType::Unknown) result = x.type;
  if (std::optional<Result<TypedValue>> r = emit_runtime_builtin(b, bi, fname, args, result)) return std::move(*r);
  switch (bi.rule) {
    case BuiltinRule::Cast: {
      ScalarType t = bi.cast_type;
      if (is_complex(t) && args.size() == 2) {
        ScalarType c = component_type(t);
        return TypedValue{make_complex(b, t, convert(b, args[0], c), convert(b, args[1], c)), t};
      }
      return TypedValue{convert(b, x, t), t};
    }
    case BuiltinRule::FloatMath:
    case BuiltinRule::RealMath: {
      if (is_complex(result)) return complex_math(b, name, fname, x, result);
      llvm::Value* v = convert(b, x, result);
      if (name == "degrees") return TypedValue{b.CreateFMul(v, constant_float(b, result, 180.0 / M_PI)), result};
      if (name == "radians") return TypedValue{b.CreateFMul(v, constant_float(b, result, M_PI / 180.0)), result};
      for (const Unary& u : kUnary) {
        if (u.name != name) continue;
        if (u.intrinsic) return TypedValue{float_intrinsic(b, u.intrinsic, v), result};
        return TypedValue{libm_call(b, u.libm, v), result};
      }
      return unsupported(fname, "is not supported");
    }
    case BuiltinRule::FloatBinary: {
      if (args.size() != 2) return unsupported(fname, "takes two arguments");
      if (is_complex(result)) return unsupported(fname, "is not supported for complex arguments");
      llvm::Value* p = convert(b, args[0], result);
      llvm::Value* q = convert(b, args[1], result);
      if (name == "copysign") return TypedValue{float_intrinsic(b, llvm::Intrinsic::copysign, p, q), result};
      if (name == "fmod") return TypedValue{b.CreateFRem(p, q), result};
      if (name == "hypot") return TypedValue{libm_call(b, "hypot", p, q), result};
      return TypedValue{libm_call(b, "atan2", p, q), result};
    }
    case BuiltinRule::PowLike: {
      if (args.size() != 2) return unsupported(fname, "takes two arguments");
      return binary_op(b, BinOpKind::Pow, args[0], args[1], result);
    }
    case BuiltinRule::MinMax: {
      bool is_max = name == "max" || name == "fmax" || name == "maximum";
      if (is_complex(result)) return unsupported(fname, "is not supported for complex arguments");
      TypedValue acc = convert_typed(b, args[0], result);
      for (size_t i = 1; i < args.size(); ++i) {
        TypedValue next = convert_typed(b, args[i], result);
        if (is_float(result) && (name == "fmax" || name == "fmin")) {
          acc.value = float_intrinsic(b, is_max ? llvm::Intrinsic::maxnum : llvm::Intrinsic::minnum, acc.value, next.value);
        } else if (is_float(result) && (name == "maximum" || name == "minimum")) {
          acc.value = float_intrinsic(b, is_max ? llvm::Intrinsic::maximum : llvm::Intrinsic::minimum, acc.value, next.value);
        } else {
          acc.value = is_max ? max_value(b, acc, next) : min_value(b, acc, next);
        }
      }
      return acc;
    }
    case BuiltinRule::Abs: {
      if (is_complex(x.type)) return TypedValue{complex_abs(b, x.type, x.value), component_type(x.type)};
      llvm::Value* v = convert(b, x, result);
      if (is_float(result)) return TypedValue{float_intrinsic(b, llvm::Intrinsic::fabs, v), result};
      if (is_signed_integer(result)) {
        llvm::Value* neg = b.CreateICmpSLT(v, zero_value(b, result));
        return TypedValue{b.CreateSelect(neg, b.CreateNeg(v), v), result};
      }
      return TypedValue{v, result};
    }
    case BuiltinRule::Sign: {
      if (is_complex(result)) return unsupported(fname, "is not supported for complex arguments");
      return TypedValue{sign_of(b, convert_typed(b, x, result)), result};
    }
    case BuiltinRule::Predicate: {
      if (is_complex(x.type)) return unsupported(fname, "is not supported for complex arguments");
      if (!is_float(x.type)) return TypedValue{b.getInt1(name == "isfinite"), ScalarType::Bool};
      if (name == "isnan") return TypedValue{b.CreateFCmpUNO(x.value, x.value), ScalarType::Bool};
      llvm::Value* a = float_intrinsic(b, llvm::Intrinsic::fabs, x.value);
      llvm::Value* inf = llvm::ConstantFP::getInfinity(x.value->getType());
      if (name == "isinf") return TypedValue{b.CreateFCmpOEQ(a, inf), ScalarType::Bool};
      return TypedValue{b.CreateFCmpOLT(a, inf), ScalarType::Bool};
    }
    case BuiltinRule::RealPart: {
      if (is_complex(x.type)) {
        llvm::Value* v = name == "real" ? real_part(b, x.value) : imag_part(b, x.value);
        return TypedValue{v, component_type(x.type)};
      }
      if (name == "real") return x;
      return TypedValue{zero_value(b, x.type), x.type};
    }
    case BuiltinRule::Conj: {
      if (!is_complex(x.type)) return x;
      return TypedValue{make_complex(b, x.type, real_part(b, x.value), b.CreateFNeg(imag_part(b, x.value))), x.type};
    }
    case BuiltinRule::IntBinary: {
      if (args.size() != 2) return unsupported(fname, "takes two arguments");
      llvm::Value* p = convert(b, args[0], result);
      llvm::Value* q = convert(b, args[1], result);
      if (name == "int_floor") return TypedValue{floor_div(b, p, q, result), result};
      // ceil(p / q) == -floor(-p / q)
      return TypedValue{b.CreateNeg(floor_div(b, b.CreateNeg(p), q, result)), result};
    }
    default:  // DaCe runtime helpers: emit_runtime_builtin
      break;
  }
  return unsupported(fname, "is not supported");
}

}  // namespace dace::codegen
