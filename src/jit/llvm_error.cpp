#include "jit/llvm_error.h"

#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/Support/raw_ostream.h>

namespace dace::jit {

Error to_error(llvm::Error err, Code code, std::string_view context) {
  std::string text = llvm::toString(std::move(err));
  std::string message(context);
  if (!text.empty()) message += (message.empty() ? "" : ": ") + text;
  return make_error(code, std::move(message));
}

bool DiagnosticCollector::handleDiagnostics(const llvm::DiagnosticInfo& info) {
  if (info.getSeverity() != llvm::DS_Error) return true;  // remarks and warnings are dropped
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::DiagnosticPrinterRawOStream printer(os);
  info.print(printer);
  os.flush();
  std::lock_guard<std::mutex> lock(mu_);
  if (!errors_.empty()) errors_ += "\n";
  errors_ += text;
  return true;
}

std::string DiagnosticCollector::errors() const {
  std::lock_guard<std::mutex> lock(mu_);
  return errors_;
}

}  // namespace dace::jit
