// A module as bitcode bytes and back: how a lowered module travels to another thread (the
// optimized tier compiles in the background, in an LLVMContext of its own, since a context
// must not be used by two threads at once).
#pragma once
#include <memory>
#include <string>

#include "ir/result.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace dace::jit {

std::string write_bitcode(const llvm::Module& module);

// Errors: CompileError with the reader's message.
Result<std::unique_ptr<llvm::Module>> read_bitcode(const std::string& bytes, llvm::LLVMContext& context);

}  // namespace dace::jit
