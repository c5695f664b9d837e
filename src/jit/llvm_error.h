// Bridges LLVM's error channels to dace::Error. Included only by src/jit .cpp files.
#pragma once
#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/Support/Error.h>

#include <mutex>
#include <string>
#include <string_view>

#include "ir/result.h"

namespace dace::jit {

// Consumes `err`; the message is `context: <LLVM text>`.
Error to_error(llvm::Error err, Code code, std::string_view context);

// Installed on every LLVMContext we compile: without it, an error diagnostic (e.g. from
// inline assembly) makes LLVMContext::diagnose() exit the process.
class DiagnosticCollector : public llvm::DiagnosticHandler {
 public:
  bool handleDiagnostics(const llvm::DiagnosticInfo& info) override;
  // Error-severity messages so far, joined by newlines; empty when none.
  std::string errors() const;

 private:
  mutable std::mutex mu_;
  std::string errors_;
};

}  // namespace dace::jit
