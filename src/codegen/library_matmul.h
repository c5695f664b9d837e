// The operands of a MatMul-family node (MatMul, Gemm, Gemv, Dot) as the loop lowering and
// the BLAS lowering both see them: squeezed operands, transposes applied to A/B's last two
// dimensions, alpha/beta from the node (beta = 1 for an output with a sum WCR).
#pragma once
#include <functional>
#include <optional>

#include "codegen/library_nodes.h"

namespace dace::codegen {

struct MatMulOperands {
  Operand a, b, c;
  std::optional<Operand> cin;
  double alpha = 1.0, beta = 0.0;
};

Result<MatMulOperands> matmul_operands(StateEmitter& se, int node);

// Emits the product through the registry's OpenBLAS implementation when the options, the
// node and the operand layouts allow it (a runtime layout test picks `loops` otherwise, for
// strides known only at run time); calls `loops` alone when BLAS cannot apply at all.
Status emit_blas_or_loops(StateEmitter& se, int node, const MatMulOperands& ops, const std::function<Status()>& loops);

}  // namespace dace::codegen
