// LLVM reports some failures through report_fatal_error, which ends the process: an
// operation a backend's instruction selection cannot handle ("Cannot select: ..."), a
// backend's internal limit, an option it cannot honour. libdace compiles inside its host's
// process (a simulation, a Python interpreter), so such an error must become the compile's
// status instead. Every call of libdace into LLVM's optimizer and code generators (host
// objects in src/jit, PTX in the CUDA plugin) runs under run_recovering_llvm_fatal_errors.
//
// How: libdace installs LLVM's fatal-error handler once per process. On a thread inside a
// guard the handler throws, and the guard turns that into Code::CompileError; the IR being
// compiled is then in an unknown state and is discarded by the caller (every caller returns
// the error and frees its module). Frames of LLVM's own code between the guard and the
// failure are left without running their destructors, as LLVM's own crash recovery
// (CrashRecoveryContext, by longjmp) does: what they held is leaked, once per such failure.
// On a thread outside every guard (a host that uses the same LLVM library itself) the
// handler prints LLVM's usual "LLVM ERROR: <reason>" and returns, and LLVM ends the process
// as it would without libdace. LLVM keeps one handler per process: a handler the host had
// installed in the same LLVM library before libdace compiled is replaced (docs/reliability.md).
#pragma once
#include <llvm/ADT/STLFunctionalExtras.h>

#include <string_view>

#include "ir/result.h"

namespace dace::codegen {

// Runs `body`; a fatal error LLVM reports inside it is returned as Code::CompileError,
// "<what>: LLVM stopped: <LLVM's reason>". Other exceptions pass through. Nests.
Status run_recovering_llvm_fatal_errors(std::string_view what, llvm::function_ref<void()> body);

}  // namespace dace::codegen
