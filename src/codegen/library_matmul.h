// The operands of a MatMul-family node (MatMul, Gemm, Gemv, Dot) as the loop lowering and
// the BLAS lowering both see them: squeezed operands, transposes applied to A/B's last two
// dimensions, alpha/beta from the node (beta = 1 for an output with a sum WCR).
#pragma once
#include <functional>
#include <optional>

#include "codegen/library_nodes.h"

namespace dace::codegen {

// Gemm's alpha and beta: a number known while compiling, or (`value` set) one read at run
// time from a Scalar container, a symbol or a scalar input connector that the property names,
// as DaCe's BLAS expansions write `double(alpha)` into their call.
struct ScaleFactor {
  double number = 0.0;
  llvm::Value* value = nullptr;  // of the product's element type; null for a number
  bool is(double v) const { return !value && number == v; }
};

struct MatMulOperands {
  Operand a, b, c;
  std::optional<Operand> cin;
  ScaleFactor alpha{1.0}, beta{0.0};
};

// The factor as a value of type `t` (a constant for a number).
llvm::Value* factor_value(llvm::IRBuilder<>& b, const ScaleFactor& s, ScalarType t);

// For a factor known only at run time (`s.value`), the i1 test `s == 0`; null for a number.
// BLAS ignores C when beta == 0, so NaN or Inf there must not reach the result through 0 * C.
llvm::Value* factor_is_zero_at_run_time(llvm::IRBuilder<>& b, const ScaleFactor& s, ScalarType t);

Result<MatMulOperands> matmul_operands(StateEmitter& se, int node);

// Emits the product through the registry's OpenBLAS implementation when the options, the
// node and the operand layouts allow it (a runtime layout test picks `loops` otherwise, for
// strides known only at run time); calls `loops` alone when BLAS cannot apply at all.
Status emit_blas_or_loops(StateEmitter& se, int node, const MatMulOperands& ops, const std::function<Status()>& loops);

}  // namespace dace::codegen
