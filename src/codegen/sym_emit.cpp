#include "codegen/sym_emit.h"

#include "codegen/loops.h"
#include "codegen/scalar_ops.h"

namespace dace::codegen {

namespace {

class SymEmitter {
 public:
  SymEmitter(llvm::IRBuilder<>& b, const SymbolLookup& lookup, llvm::Value** overflow = nullptr)
      : b_(b), lookup_(lookup), overflow_(overflow) {}

  Result<llvm::Value*> emit(sym::Expr e, int depth = 0) {
    if (!e) return make_error(Code::Internal, "null symbolic expression");
    if (depth > 2000) return make_error(Code::Unsupported, "symbolic expression nested too deeply");
    llvm::Type* i64 = b_.getInt64Ty();
    switch (e->op) {
      case sym::Op::Integer:
      case sym::Op::Boolean: return llvm::ConstantInt::get(i64, static_cast<uint64_t>(e->value), true);
      case sym::Op::Symbol: return lookup_(e->name);
      default: break;
    }
    std::vector<llvm::Value*> a;
    for (sym::Expr arg : e->args) {
      Result<llvm::Value*> v = emit(arg, depth + 1);
      if (!v) return v;
      a.push_back(*v);
    }
    auto need = [&](size_t n) -> Status {
      if (a.size() < n) return make_error(Code::InvalidSdfg, "malformed symbolic expression " + sym::to_string(e));
      return Status::success();
    };
    auto flag = [&](llvm::Value* i1) { return b_.CreateZExt(i1, i64); };
    auto truth = [&](llvm::Value* v) { return b_.CreateICmpNE(v, llvm::ConstantInt::get(i64, 0)); };
    switch (e->op) {
      case sym::Op::Add:
      case sym::Op::Mul:
      case sym::Op::Min:
      case sym::Op::Max: {
        DACE_TRY(need(1));
        llvm::Value* acc = a[0];
        for (size_t i = 1; i < a.size(); ++i) {
          if (e->op == sym::Op::Add) acc = add(acc, a[i]);
          else if (e->op == sym::Op::Mul) acc = mul(acc, a[i]);
          else if (e->op == sym::Op::Min) acc = b_.CreateSelect(b_.CreateICmpSLT(a[i], acc), a[i], acc);
          else acc = b_.CreateSelect(b_.CreateICmpSGT(a[i], acc), a[i], acc);
        }
        return acc;
      }
      case sym::Op::Pow: {
        DACE_TRY(need(2));
        if (std::optional<int64_t> n = sym::as_integer(e->args[1]); n && *n >= 0 && *n <= 64) {
          llvm::Value* r = llvm::ConstantInt::get(i64, 1);
          for (int64_t i = 0; i < *n; ++i) r = mul(r, a[0]);
          return r;
        }
        return integer_power(b_, a[0], a[1]);
      }
      case sym::Op::FloorDiv: DACE_TRY(need(2)); return floor_div(b_, a[0], a[1], ScalarType::Int64);
      case sym::Op::CeilDiv:
        DACE_TRY(need(2));
        return b_.CreateNeg(floor_div(b_, b_.CreateNeg(a[0]), a[1], ScalarType::Int64));
      case sym::Op::Mod: DACE_TRY(need(2)); return python_mod(b_, a[0], a[1], ScalarType::Int64);
      case sym::Op::Lt: DACE_TRY(need(2)); return flag(b_.CreateICmpSLT(a[0], a[1]));
      case sym::Op::Le: DACE_TRY(need(2)); return flag(b_.CreateICmpSLE(a[0], a[1]));
      case sym::Op::Eq: DACE_TRY(need(2)); return flag(b_.CreateICmpEQ(a[0], a[1]));
      case sym::Op::Ne: DACE_TRY(need(2)); return flag(b_.CreateICmpNE(a[0], a[1]));
      case sym::Op::And:
      case sym::Op::Or: {
        DACE_TRY(need(1));
        llvm::Value* acc = truth(a[0]);
        for (size_t i = 1; i < a.size(); ++i)
          acc = e->op == sym::Op::And ? b_.CreateAnd(acc, truth(a[i])) : b_.CreateOr(acc, truth(a[i]));
        return flag(acc);
      }
      case sym::Op::Not: DACE_TRY(need(1)); return flag(b_.CreateNot(truth(a[0])));
      case sym::Op::Call: return call(e, a);
      default: break;
    }
    return make_error(Code::Unsupported, "symbolic expression " + sym::to_string(e) + " cannot be compiled");
  }

 private:
  // With an overflow flag to fill, + and * use the overflow intrinsics and OR their carry
  // into it (allocation sizes); otherwise they wrap like C's int64_t arithmetic.
  llvm::Value* add(llvm::Value* x, llvm::Value* y) { return overflow_ ? checked(llvm::Intrinsic::sadd_with_overflow, x, y) : add_index(b_, x, y); }
  llvm::Value* mul(llvm::Value* x, llvm::Value* y) { return overflow_ ? checked(llvm::Intrinsic::smul_with_overflow, x, y) : mul_index(b_, x, y); }
  llvm::Value* checked(llvm::Intrinsic::ID id, llvm::Value* x, llvm::Value* y) {
    return checked_index(b_, id, x, y, *overflow_);
  }

  Result<llvm::Value*> call(sym::Expr e, const std::vector<llvm::Value*>& a) {
    const std::string& f = e->name;
    if ((f == "int_floor" || f == "floor" || f == "truediv") && a.size() == 2)
      return floor_div(b_, a[0], a[1], ScalarType::Int64);
    if ((f == "int_ceil" || f == "ceiling") && a.size() == 2)
      return b_.CreateNeg(floor_div(b_, b_.CreateNeg(a[0]), a[1], ScalarType::Int64));
    if ((f == "floor" || f == "ceiling" || f == "int" || f == "Integer") && a.size() == 1) return a[0];
    if ((f == "Abs" || f == "abs") && a.size() == 1)
      return b_.CreateSelect(b_.CreateICmpSLT(a[0], b_.getInt64(0)), b_.CreateNeg(a[0]), a[0]);
    if ((f == "Min" || f == "min") && a.size() == 2) return b_.CreateSelect(b_.CreateICmpSLT(a[1], a[0]), a[1], a[0]);
    if ((f == "Max" || f == "max") && a.size() == 2) return b_.CreateSelect(b_.CreateICmpSGT(a[1], a[0]), a[1], a[0]);
    return make_error(Code::Unsupported, "symbolic function '" + f + "' in " + sym::to_string(e) + " cannot be compiled");
  }

  llvm::IRBuilder<>& b_;
  const SymbolLookup& lookup_;
  llvm::Value** overflow_;
};

}  // namespace

Result<llvm::Value*> emit_sym(llvm::IRBuilder<>& b, sym::Expr e, const SymbolLookup& lookup) {
  return SymEmitter(b, lookup).emit(e);
}

Result<llvm::Value*> emit_sym_checked(llvm::IRBuilder<>& b, sym::Expr e, const SymbolLookup& lookup,
                                      llvm::Value*& overflow) {
  overflow = b.getFalse();
  return SymEmitter(b, lookup, &overflow).emit(e);
}

}  // namespace dace::codegen
