// The operands of a MatMul-family node (MatMul, Gemm, Gemv, Dot) as the core's loop lowering
// and the plugins' vendor lowerings (the CPU plugin's CBLAS calls, the CUDA plugin's cuBLAS
// calls) all see them: squeezed operands, transposes applied to A/B's last two
// dimensions, alpha/beta from the node (beta = 1 for an output with a sum WCR).
#pragma once
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

// The product as the core's loop nest (rows in parallel on the host's parallel schedule where
// the code may fork): the node's pure lowering, and the fallback of a plugin's vendor call for
// operands the vendor library cannot take.
Status emit_matmul_loops(StateEmitter& se, int node, const MatMulOperands& ops);

}  // namespace dace::codegen
