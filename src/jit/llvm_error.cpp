#include "jit/llvm_error.h"

#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/raw_ostream.h>

#include <new>
#include <system_error>

namespace dace::jit {

std::string take_message(llvm::Error err, bool& out_of_memory) {
  out_of_memory = false;
  std::string text;
  llvm::handleAllErrors(std::move(err), [&](const llvm::ErrorInfoBase& part) {
    if (part.convertToErrorCode() == std::errc::not_enough_memory) out_of_memory = true;
    if (!text.empty()) text += "\n";
    text += part.message();
  });
  return text;
}

bool says_out_of_memory(std::string_view text) {
  const std::string enomem = std::make_error_code(std::errc::not_enough_memory).message();
  return text.find(enomem) != std::string_view::npos;
}

Error to_error(llvm::Error err, Code code, std::string_view context) {
  bool out_of_memory = false;
  std::string text = take_message(std::move(err), out_of_memory);
  std::string message(context);
  if (!text.empty()) message += (message.empty() ? "" : ": ") + text;
  return make_error(out_of_memory ? Code::OutOfMemory : code, std::move(message));
}

namespace {

[[noreturn]] void throw_bad_alloc(void*, const char*, bool) { throw std::bad_alloc(); }

}  // namespace

void install_bad_alloc_handler() {
  static std::once_flag once;
  std::call_once(once, [] { llvm::install_bad_alloc_error_handler(throw_bad_alloc); });
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
