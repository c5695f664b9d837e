// The one place where libdace asks an LLVM TargetMachine for its code generator passes, for
// host objects (src/jit) and for PTX (the CUDA plugin) alike.
#pragma once
#include <llvm/Support/CodeGen.h>

namespace llvm {
class TargetMachine;
class raw_pwrite_stream;
namespace legacy {
class PassManager;
}  // namespace legacy
}  // namespace llvm

namespace dace::codegen {

// Adds `tm`'s code generator to `pm`, writing to `os`, with loop strength reduction on or
// off. LLVM reads that switch from a process-wide option while it builds the passes, so
// every code generator of the process is built here, under one lock, each with its own
// setting: host code without LSR (unless DACE_JIT_LSR=1, host_lsr()), PTX with it, whatever
// ran before. False when `tm` cannot emit `type`.
bool add_codegen_passes(llvm::legacy::PassManager& pm, llvm::TargetMachine& tm, llvm::raw_pwrite_stream& os,
                        llvm::CodeGenFileType type, bool lsr);

// Whether host code is generated with loop strength reduction (DACE_JIT_LSR=1; off by default).
bool host_lsr();

}  // namespace dace::codegen
