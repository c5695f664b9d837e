// Optimization of a module for the host: attributes every function definition needs, the
// errno-free math convention, and the new-pass-manager pipeline at O0-O3.
#pragma once
#include <string_view>

#include "ir/result.h"
#include "jit/options.h"

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace dace::jit {

// Whether LLVM's masked interleave groups are asked for (DACE_JIT_MASKED_INTERLEAVE=0 keeps
// LLVM's default). The setting changes the machine code, so it is part of the program's cache
// key (program_cache_key) as well as of the optimization pipeline.
bool masked_interleave_requested();

// Stamps `uwtable`, `target-cpu`/`target-features` (overwriting what is there: the JIT targets only the
// host) and the floating-point function attributes on every function definition:
// always "no-trapping-math" and "no-signed-zeros-fp-math"; with fast_math also
// "no-nans-fp-math", "no-infs-fp-math", "approx-func-fp-math" and "unsafe-fp-math".
// Instruction-level fast-math flags (arcp, contract, ...) are the lowering's business.
void stamp_function_attributes(llvm::Module& module, std::string_view cpu,
                               std::string_view features, const OptimizationOptions& options);

// The `-fno-math-errno` equivalent: declarations of C math functions that only differ from
// pure functions by setting errno (sin, exp, pow, sqrt, ... and their `f` forms) become
// `memory(none) nounwind willreturn`, so they can be hoisted, vectorized and mapped to
// libmvec. A declaration whose prototype does not match the C function is left alone.
// Returns the number of declarations marked.
int mark_math_errno_free(llvm::Module& module);

// Runs the default new-PM pipeline at options.level with `tm` (host TTI: vector widths,
// costs). With `use_libmvec`, TargetLibraryInfo knows glibc's vector math functions.
Status optimize_module(llvm::Module& module, llvm::TargetMachine& tm,
                       const OptimizationOptions& options, bool use_libmvec);

}  // namespace dace::jit
