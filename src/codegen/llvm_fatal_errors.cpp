#include "codegen/llvm_fatal_errors.h"

#include <llvm/Support/ErrorHandling.h>

#include <cstdio>
#include <mutex>
#include <string>

namespace dace::codegen {
namespace {

// Not derived from std::exception, so that no `catch (const std::exception&)` between the
// failure and the guard (in LLVM or in libdace) takes it for an ordinary error.
struct LlvmFatalError {
  std::string reason;
};

// How many guards the current thread is inside.
thread_local int guard_depth = 0;

void on_llvm_fatal_error(void*, const char* reason, bool) {
  if (guard_depth > 0) throw LlvmFatalError{reason ? reason : "(no reason given)"};
  // Outside a guard: what LLVM prints without a handler; LLVM then ends the process.
  std::fprintf(stderr, "LLVM ERROR: %s\n", reason ? reason : "");
  std::fflush(stderr);
}

void install_handler_once() {
  static std::once_flag once;
  std::call_once(once, [] { llvm::install_fatal_error_handler(on_llvm_fatal_error, nullptr); });
}

struct DepthScope {
  DepthScope() { ++guard_depth; }
  ~DepthScope() { --guard_depth; }
  DepthScope(const DepthScope&) = delete;
  DepthScope& operator=(const DepthScope&) = delete;
};

}  // namespace

Status run_recovering_llvm_fatal_errors(std::string_view what, llvm::function_ref<void()> body) {
  install_handler_once();
  try {
    DepthScope scope;
    body();
  } catch (const LlvmFatalError& e) {
    return make_error(Code::CompileError, std::string(what) + ": LLVM stopped: " + e.reason);
  }
  return Status::success();
}

}  // namespace dace::codegen
