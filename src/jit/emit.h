// Machine code for an optimized module: an in-memory ELF object for the linker, assembly
// text for dumps, and the IR text. The caller owns the TargetMachine; do not share one
// TargetMachine between threads.
#pragma once
#include <string>

#include "ir/result.h"

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace dace::jit {

// Runs the code generator on `module` (which it modifies: CodeGenPrepare and friends).
Result<std::string> emit_object(llvm::Module& module, llvm::TargetMachine& tm);

// Emits assembly from a clone, leaving `module` untouched, through its own legacy PM.
Result<std::string> emit_assembly(const llvm::Module& module, llvm::TargetMachine& tm);

// Module::print without use-list orders or annotations: stable across runs.
std::string print_module(const llvm::Module& module);

}  // namespace dace::jit
