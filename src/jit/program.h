// A compiled SDFG ready to call: its JitModule plus libffi call descriptions prepared once.
//
// DaCe's ABI (codegen/lower.h): init(symbols) -> state, program(state, args...), exit(state).
// The state depends on the symbol values given to init, so a Program keeps the state of the
// last init and re-initializes only when a call brings different symbol values. Calls on one
// Program are serialized (the state is shared); distinct Programs run concurrently.
//
// Tiers: a Program may start on quickly compiled code and get its optimized code from a
// background job (start_optimized_tier). The job's module is swapped in between two calls,
// under the same lock the calls take, so every call runs entirely in one tier. Both tiers
// must come from the same lowered module: the live state made by one tier's init is passed
// to the other tier's program and exit functions (a heap block of pointers, same layout).
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "analysis/arguments.h"
#include "codegen/instrument_record.h"
#include "ir/result.h"
#include "jit/session.h"

namespace dace::jit {

// One argument slot: a pointer (arrays) or the raw little-endian bytes of a scalar/symbol
// in the argument's own dtype (int64 for symbols of unknown type).
struct ArgValue {
  alignas(16) uint8_t bytes[16] = {};

  static ArgValue pointer(void* p) {
    ArgValue v;
    std::memcpy(v.bytes, &p, sizeof p);
    return v;
  }
  template <class T>
  static ArgValue scalar(T x) {
    static_assert(sizeof(T) <= 16);
    static_assert(!std::is_pointer_v<T>, "an array would decay to a pointer: pass the value type");
    ArgValue v;
    std::memcpy(v.bytes, &x, sizeof(T));
    return v;
  }
};

struct ProgramEntryPoints {
  std::string init, program, exit;
};

// Where a Program's optimized tier stands (optimized_tier()).
struct TierState {
  // 1: the fast tier runs calls; 2: the optimized (or only) tier. Set to 2 in the swap's
  // critical section together with swapped_at, swap_ms and optimized, so it never lags the
  // code that calls run.
  int tier = 2;
  bool pending = false;         // the background job has not finished
  Status status;                // the background job's error, if it failed (tier 1 stays
                                // unless the failure came after the swap: unloading tier 1)
  std::optional<std::chrono::steady_clock::time_point> swapped_at;  // when tier 2 came in
  double swap_ms = 0;           // taking the call lock and installing the new entry points
  CompileStats optimized;       // the optimized module's compile statistics
  // Calls that ran the tier 1 code and the tier 2 (optimized or only) code, counted under
  // the call lock by the code they ran, so a test can tell which side of the swap each
  // call was on (capi_program_tiers_test.cpp).
  uint64_t first_tier_calls = 0, optimized_tier_calls = 0;
};

class Program {
 public:
  // Looks up the three entry points in `module` and prepares the call descriptions.
  // Errors: NotFound (entry point missing), Internal (libffi refused a signature or an init
  // symbol is not among the arguments).
  static Result<std::unique_ptr<Program>> create(std::unique_ptr<JitModule> module, const ProgramEntryPoints& entry,
                                                 std::vector<analysis::Argument> arguments,
                                                 std::vector<analysis::Argument> init_arguments);
  ~Program();  // release(), ignoring its error
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  // Program arguments after the state pointer, in order (DaCe's arglist).
  const std::vector<analysis::Argument>& arguments() const;
  // The init function's symbols; each is also one of arguments().
  const std::vector<analysis::Argument>& init_arguments() const;

  // Runs the program with `values` in arguments() order (the caller checked them). Allocates
  // nothing unless it fails. Errors: InvalidArgument (wrong count, released; a transient's
  // extent evaluated negative), OutOfMemory (a transient's size overflows or its allocation
  // failed, in init or in the program: codegen/run_status.h), RuntimeError (exit of a
  // previous state failed). After an error the program stays callable.
  Status call(const std::vector<ArgValue>& values);

  // Calls exit on the live state, if any; the next call starts from a fresh init.
  // Errors: RuntimeError (exit failed).
  Status reset();

  // Calls exit on the live state, then unloads the code. Idempotent. Waits for a running
  // background job first (an LLVM compile cannot be interrupted).
  Status release();

  // Starts `job` on a thread of its own; the module it returns replaces the current code
  // between two calls (same entry point names) and the current module is unloaded. The
  // Program must currently run tier 1 code; at most one job per Program. A failed job leaves
  // tier 1 in place and its error in optimized_tier().status.
  void start_optimized_tier(std::function<Result<std::unique_ptr<JitModule>>()> job);

  // Blocks until no background job is running; its error if it failed.
  Status wait_optimized_tier();

  TierState optimized_tier() const;

  // Instrumentation (codegen/instrument_record.h): the module's elements table as JSON text,
  // empty when no element is instrumented; the events of the last program call (copied out
  // under the call lock), and how many it could not store (beyond the buffer's capacity).
  const std::string& instrument_elements() const;
  // The PTX of the module's GPU kernels (codegen/ptx_symbol.h), empty when it has none
  // (no kernels, or kernels built for the emulated device). Read once at create: both tiers
  // embed the same text, which the lowering produced before either was compiled.
  const std::string& ptx() const;
  std::vector<codegen::InstrumentEvent> last_instrument_events(int64_t* dropped) const;

 private:
  struct Impl;
  explicit Program(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace dace::jit
