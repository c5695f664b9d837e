// The checked byte size of a heap allocation (allocation.h: checked_allocation_size), and
// what it is computed from, so that a batch of allocations computes each size once.
#pragma once
#include <llvm/IR/Value.h>

#include <vector>

#include "ir/symbolic/expr.h"

namespace dace::codegen {

// Size in bytes of a container's allocation (total_size elements, or the product of shape,
// plus start_offset), computed with overflow checks. `code` (i32, a RunStatus) is 0 when the
// size is usable; otherwise `what`/`value` describe the first problem: a negative extent
// (named with its expression and symbols) or a byte count that overflows.
struct CheckedSize {
  llvm::Value* bytes = nullptr;
  llvm::Value* code = nullptr;
  llvm::Value* what = nullptr;
  llvm::Value* value = nullptr;
  llvm::Value* oom_what = nullptr;  // text for an allocator failure
  // The same size was checked for an earlier block on every path to this one, and its
  // failure is in the status record already (the record keeps the first): no record here.
  bool reported_earlier = false;
};

// What a CheckedSize depends on besides the symbols' values: the descriptor's shape,
// total_size and start_offset (interned, so equal expressions are equal pointers) and the
// element size in bytes.
struct SizeInputs {
  std::vector<sym::Expr> shape;
  sym::Expr total_size = nullptr;
  sym::Expr start_offset = nullptr;
  int element_bytes = 0;
  bool operator==(const SizeInputs&) const = default;
};

}  // namespace dace::codegen
