// Arithmetic, comparisons and unary operators on typed scalars, with the semantics DaCe
// gives Python tasklet code: `//` floors, `%` takes the divisor's sign, `/` is true division,
// `**` with an integer exponent multiplies, complex numbers follow the usual formulas.
#pragma once
#include <optional>

#include "codegen/types.h"
#include "ir/result.h"
#include "ir/tasklet/ast.h"

namespace dace::codegen {

// `a op b` where the result has type `result` (the type checker's annotation). Operands are
// converted as the operator needs (to `result`, except shift amounts). `constant_exponent`
// is the value of a literal integer exponent of `**`, if there is one.
Result<TypedValue> binary_op(llvm::IRBuilder<>& b, tasklet::BinOpKind op, TypedValue lhs, TypedValue rhs,
                             ScalarType result, std::optional<int64_t> constant_exponent = std::nullopt);

// Comparison of two values promoted to `common` first; returns i1.
Result<llvm::Value*> compare_op(llvm::IRBuilder<>& b, tasklet::CmpOpKind op, TypedValue lhs, TypedValue rhs,
                                ScalarType common);

// -x, +x, ~x, not x with the result type `result`.
Result<TypedValue> unary_op(llvm::IRBuilder<>& b, tasklet::UnaryOpKind op, TypedValue v, ScalarType result);

// Python floor division and modulo on values of one type.
// C integer division (truncating) that never traps: x / 0 is 0, MIN / -1 wraps (NumPy).
llvm::Value* integer_div(llvm::IRBuilder<>& b, llvm::Value* a, llvm::Value* d, ScalarType t);
llvm::Value* floor_div(llvm::IRBuilder<>& b, llvm::Value* a, llvm::Value* d, ScalarType t);
llvm::Value* python_mod(llvm::IRBuilder<>& b, llvm::Value* a, llvm::Value* d, ScalarType t);

// Integer power by repeated squaring, emitted as a loop (exponents < 0 give 0, as NumPy's
// integer power would be undefined there).
llvm::Value* integer_power(llvm::IRBuilder<>& b, llvm::Value* base, llvm::Value* exponent);

// max/min with Python's argument order semantics (the first argument wins ties).
llvm::Value* max_value(llvm::IRBuilder<>& b, TypedValue a, TypedValue c);
llvm::Value* min_value(llvm::IRBuilder<>& b, TypedValue a, TypedValue c);

// Complex arithmetic on {re, im} values of complex type t.
llvm::Value* complex_mul(llvm::IRBuilder<>& b, ScalarType t, llvm::Value* x, llvm::Value* y);
llvm::Value* complex_div(llvm::IRBuilder<>& b, ScalarType t, llvm::Value* x, llvm::Value* y);
llvm::Value* complex_exp(llvm::IRBuilder<>& b, ScalarType t, llvm::Value* x);
llvm::Value* complex_log(llvm::IRBuilder<>& b, ScalarType t, llvm::Value* x);
llvm::Value* complex_abs(llvm::IRBuilder<>& b, ScalarType t, llvm::Value* x);

// A call of an LLVM floating-point intrinsic on one or two operands of the same type.
llvm::Value* float_intrinsic(llvm::IRBuilder<>& b, unsigned id, llvm::Value* x, llvm::Value* y = nullptr);
// A call of a C math library function (double `name`, float `name` + "f").
llvm::Value* libm_call(llvm::IRBuilder<>& b, const char* name, llvm::Value* x, llvm::Value* y = nullptr);

}  // namespace dace::codegen
