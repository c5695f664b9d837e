#include "jit/bitcode.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "jit/llvm_error.h"

namespace dace::jit {

std::string write_bitcode(const llvm::Module& module) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  llvm::WriteBitcodeToFile(module, os);
  os.flush();
  return bytes;
}

Result<std::unique_ptr<llvm::Module>> read_bitcode(const std::string& bytes, llvm::LLVMContext& context) {
  auto buffer = llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(bytes), "bitcode", false);
  auto module = llvm::parseBitcodeFile(buffer->getMemBufferRef(), context);
  if (!module) return to_error(module.takeError(), Code::CompileError, "cannot read bitcode");
  return std::move(*module);
}

}  // namespace dace::jit
