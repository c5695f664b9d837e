// Machine code for an optimized module: an in-memory ELF object for the linker, assembly
// text for dumps, and the IR text. The caller owns the TargetMachine; do not share one
// TargetMachine between threads.
#pragma once
#include <llvm/Support/CodeGen.h>

#include <string>

#include "ir/result.h"

namespace llvm {
class Module;
class TargetMachine;
class raw_pwrite_stream;
namespace legacy {
class PassManager;
}  // namespace legacy
}  // namespace llvm

namespace dace::jit {

// Runs the code generator on `module` (which it modifies: CodeGenPrepare and friends).
Result<std::string> emit_object(llvm::Module& module, llvm::TargetMachine& tm);

// Emits assembly from a clone, leaving `module` untouched, through its own legacy PM.
Result<std::string> emit_assembly(const llvm::Module& module, llvm::TargetMachine& tm);

// Adds `tm`'s code generator to `pm`, writing to `os`, with loop strength reduction on or
// off. LLVM reads that switch from a process-wide option while it builds the passes, so
// every code generator of the process is built here, under one lock, each with its own
// setting: host code without LSR (unless DACE_JIT_LSR=1, host_lsr()), PTX with it, whatever
// ran before. False when `tm` cannot emit `type`.
bool add_codegen_passes(llvm::legacy::PassManager& pm, llvm::TargetMachine& tm, llvm::raw_pwrite_stream& os,
                        llvm::CodeGenFileType type, bool lsr);
bool host_lsr();

// Module::print without use-list orders or annotations: stable across runs.
std::string print_module(const llvm::Module& module);

}  // namespace dace::jit
