// The run-time status record of a lowered program: how generated code reports a failure
// (an allocation that cannot be made, a library call that fails) to the host that called it.
//
// DaCe's ABI gives `__program_<name>` no return value, so the module defines one global
// record, `__dace_status`, which the generated code fills (first failure wins, atomically,
// so parallel bodies may report too) before leaving the function early, and which the host
// (jit::Program) clears before and reads after each init/program call. Calls on one program
// are serialized and each loaded module has its own copy, so one record per module suffices.
// LLVM-free: shared by the lowering and the JIT layer.
#pragma once
#include <cstdint>

namespace dace::codegen {

inline constexpr const char* kStatusSymbol = "__dace_status";

enum class RunStatus : int32_t {
  Ok = 0,
  OutOfMemory = 1,     // the allocator returned null; value = bytes asked for
  SizeOverflow = 2,    // the size in bytes does not fit 63 bits
  NegativeExtent = 3,  // value = the negative extent
  LibraryFailure = 4,  // a plugin's runtime call failed (MPI); what = the whole message, value = its code
  OutOfBounds = 5,     // a memlet access outside its container (bounds_check): value = the
                       // index, bound = the extent of that dimension
};

// Layout of `__dace_status` ({i32, i64, ptr, i64} in IR: the same on every 64-bit C ABI).
struct StatusRecord {
  int32_t code;
  int64_t value;
  const char* what;  // constant text in the module: element path and what failed
  int64_t bound;     // OutOfBounds: the extent the index was checked against
};

}  // namespace dace::codegen
