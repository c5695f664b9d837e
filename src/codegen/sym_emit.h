// Lowering of symbolic integer expressions (ir/symbolic/expr.h) to i64 arithmetic, with
// DaCe's semantics: floor division, Python modulo, ceiling division, min/max, comparisons and
// logic as 0/1.
#pragma once
#include <functional>
#include <string>

#include "codegen/types.h"
#include "ir/result.h"
#include "ir/symbolic/expr.h"

namespace dace::codegen {

// Value of a symbol as i64 (the caller converts symbols of other types).
using SymbolLookup = std::function<Result<llvm::Value*>(const std::string&)>;

Result<llvm::Value*> emit_sym(llvm::IRBuilder<>& b, sym::Expr e, const SymbolLookup& lookup);

// The same, with every + and * checked: `overflow` becomes an i1 that is true when one of
// them overflowed 64 bits (then the value is meaningless). For allocation sizes.
Result<llvm::Value*> emit_sym_checked(llvm::IRBuilder<>& b, sym::Expr e, const SymbolLookup& lookup,
                                      llvm::Value*& overflow);

}  // namespace dace::codegen
