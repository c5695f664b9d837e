// Bridges LLVM's error channels to dace::Error. Included only by src/jit .cpp files.
#pragma once
#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/Support/Error.h>

#include <mutex>
#include <string>
#include <string_view>

#include "ir/result.h"

namespace dace::jit {

// Consumes `err`; the message is `context: <LLVM text>`. An error that stands for ENOMEM
// (a failed mapping of JIT memory, say) becomes Code::OutOfMemory whatever `code` says.
Error to_error(llvm::Error err, Code code, std::string_view context);

// Consumes `err` and returns its text; `out_of_memory` is set when one of its parts is ENOMEM.
std::string take_message(llvm::Error err, bool& out_of_memory);

// True when `text` (an LLVM message that lost its error code) ends in the system's ENOMEM
// text ("Cannot allocate memory").
bool says_out_of_memory(std::string_view text);

// Makes LLVM's own allocation failures (llvm::safe_malloc and its users, which call
// report_bad_alloc_error) throw std::bad_alloc like a failed operator new, which the compile
// entry points turn into Code::OutOfMemory; without it LLVM prints "out of memory" and
// aborts the process. Installed once per process by the first JIT session.
void install_bad_alloc_handler();

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
