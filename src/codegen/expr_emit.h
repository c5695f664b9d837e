// Lowering of typed tasklet-language expressions (tasklet/typecheck.h) to LLVM IR. Names are
// resolved through a NameEnv, so the same emitter serves tasklets (connectors, locals,
// symbols) and interstate code (symbols, data containers).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "codegen/types.h"
#include "ir/result.h"
#include "ir/tasklet/ast.h"

namespace dace::codegen {

// An indexable name: the address of element (0, ..., 0) and the stride (in elements) of each
// index position.
struct ArrayRef {
  llvm::Value* base = nullptr;
  ScalarType type = ScalarType::Unknown;
  std::vector<llvm::Value*> strides;  // i64
  // Run-time bounds checks (LowerOptions::bounds_check): the number of elements along each
  // index position (i64) and the element that a violation names; empty when unchecked.
  std::vector<llvm::Value*> extents;
  std::string label;
};

class NameEnv {
 public:
  virtual ~NameEnv() = default;
  // The value of a scalar name.
  virtual Result<TypedValue> read(const std::string& name) = 0;
  // An indexable name (`a[i, j]`).
  virtual Result<ArrayRef> array(const std::string& name) = 0;
  // Emits the check of indices (i64, one per index position) computed by the code against
  // ref.extents, called only where ref.extents is set: a violation records a status and
  // leaves the function.
  virtual Status check_indices(const ArrayRef& ref, const std::vector<llvm::Value*>& indices) {
    (void)ref;
    (void)indices;
    return Status::success();
  }
};

// Address of `ref[indices]`; the indices are converted to i64.
llvm::Value* element_address(llvm::IRBuilder<>& b, const ArrayRef& ref, const std::vector<TypedValue>& indices);

// The value of an integer literal expression (`2`, `-1`, `dace.complex128(2)`, `2.0`), if
// the expression is one.
std::optional<int64_t> constant_integer(const tasklet::Expr& e);

class ExprEmitter {
 public:
  ExprEmitter(llvm::IRBuilder<>& b, NameEnv& env) : b_(b), env_(env) {}
  Result<TypedValue> emit(const tasklet::Expr& e);
  // Address and element type of a subscript expression.
  Result<std::pair<llvm::Value*, ScalarType>> address_of(const tasklet::Expr& e);

 private:
  Result<TypedValue> bool_op(const tasklet::BoolOp& op);
  Result<TypedValue> compare(const tasklet::Compare& c);
  Result<TypedValue> if_exp(const tasklet::IfExp& e, ScalarType type);
  Result<TypedValue> call(const tasklet::Expr& e, const tasklet::Call& c);
  Result<TypedValue> attribute(const tasklet::Expr& e, const tasklet::Attribute& a);

  llvm::IRBuilder<>& b_;
  NameEnv& env_;
};

// The common type of a comparison's two operands, honouring NumPy's rule that a Python
// literal adopts the other operand's type (from the type checker's `weak` flags).
ScalarType comparison_type(const tasklet::Expr& a, const tasklet::Expr& b);
// Result type of `target op= value` (an augmented assignment), by the same rules.
ScalarType augmented_type(tasklet::BinOpKind op, ScalarType target, const tasklet::Expr& value);

}  // namespace dace::codegen
