// Write-conflict resolution: the lambdas DaCe puts on memlets (`lambda a, b: a + b`,
// `(lambda a, b: max(a, b))`, ...) recognized as reductions, and the read-modify-write that
// applies them, atomically (atomicrmw, or a compare-and-swap loop for anything else) when
// other threads may update the same element.
#pragma once
#include <string>

#include "codegen/frame.h"
#include "ir/tasklet/ast.h"

namespace dace::codegen {

enum class WcrKind { Replace, Sum, Product, Min, Max, LogicalAnd, LogicalOr, LogicalXor, BitAnd, BitOr, BitXor, Custom };

struct Wcr {
  WcrKind kind = WcrKind::Custom;
  std::string a, b;             // parameter names (Custom)
  tasklet::ExprPtr body;        // lambda body (Custom)
};

// Accepts a lambda or DaCe's reduction names ("sum", "max", ...).
Result<Wcr> parse_wcr(const std::string& text);

// `current (op) value`, both of type t.
Result<TypedValue> wcr_combine(Frame& f, const Wcr& wcr, TypedValue current, TypedValue value, ScalarType t);

// Applies the WCR to the element at `ptr` (element type `t`), atomically if `atomic`.
Status emit_wcr_update(Frame& f, const Wcr& wcr, llvm::Value* ptr, TypedValue value, ScalarType t, bool atomic);

}  // namespace dace::codegen
