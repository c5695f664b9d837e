// Calls of the tasklet language's built-in functions (tasklet/builtins.h): math functions as
// LLVM intrinsics or C math library calls, min/max/abs, predicates, casts, complex parts.
#pragma once
#include <string>
#include <vector>

#include "codegen/types.h"
#include "ir/result.h"
#include "ir/tasklet/builtins.h"

namespace dace::codegen {

// `fname` is the name as written (for messages); `result` is the type checker's annotation.
Result<TypedValue> emit_builtin(llvm::IRBuilder<>& b, const tasklet::Builtin& builtin, const std::string& fname,
                                const std::vector<TypedValue>& args, ScalarType result);

}  // namespace dace::codegen
