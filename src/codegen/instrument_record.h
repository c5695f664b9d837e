// The run-time record of instrumentation timers (docs/instrumentation.md): how a lowered
// program hands the times of its instrumented elements to the host that called it.
//
// A module with at least one instrumented element defines two globals: `__dace_instr`, an
// event buffer the generated code appends to (an atomic counter, so parallel bodies may
// record too; events past the capacity are counted but not stored), and
// `__dace_instr_elements`, constant NUL-terminated JSON text describing each element by its
// index: [{"name": "Map m", "cfg_id": 0, "state_id": 1, "id": 4}, ...] (state_id and id are
// -1 where they do not apply). The host (jit::Program) clears the counter before each
// program call and reads the events after it. A module without instrumentation has neither
// global, and its IR is the same as before instrumentation existed. LLVM-free: shared by
// the lowering and the JIT layer.
#pragma once
#include <cstdint>

namespace dace::codegen {

inline constexpr const char* kInstrumentSymbol = "__dace_instr";
inline constexpr const char* kInstrumentElementsSymbol = "__dace_instr_elements";
inline constexpr int64_t kInstrumentCapacity = int64_t{1} << 16;

// One timed execution of an element: steady-clock (CLOCK_MONOTONIC) nanoseconds, and the
// thread that ran it (pthread_self(), so elements inside parallel maps, recorded by the
// runtime's helper threads, land on their own track; the report numbers the threads).
struct InstrumentEvent {
  int64_t element;  // index into the elements table
  int64_t start_ns;
  int64_t end_ns;
  uint64_t thread;  // pthread_t of the recording thread
};

// Layout of `__dace_instr` ({i64, [capacity x {i64, i64, i64, i64}]} in IR).
struct InstrumentRecord {
  int64_t count;  // events recorded since the host cleared it (may exceed the capacity)
  InstrumentEvent events[kInstrumentCapacity];
};

}  // namespace dace::codegen
