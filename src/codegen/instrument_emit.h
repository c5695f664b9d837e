// Timers around instrumented elements (DaCe's InstrumentationType.Timer): a steady-clock
// timestamp before the element and one after it, appended to the module's event buffer
// (instrument_record.h). Parallel maps are timed as a whole, around the runtime call that
// runs all their iterations. Nothing is emitted for elements without instrumentation.
#pragma once
#include <optional>
#include <string>

#include "codegen/frame.h"

namespace dace::codegen {

// A started timer: the element's index in the module's table and its start timestamp.
struct Timer {
  int element = -1;
  llvm::Value* start = nullptr;
};

// Starts a timer when the element is instrumented (nullopt when it is not). An
// instrumentation type libdace does not implement is an error naming the element.
Result<std::optional<Timer>> start_sdfg_timer(Frame& f);
Result<std::optional<Timer>> start_state_timer(Frame& f, const ir::State& state);
Result<std::optional<Timer>> start_node_timer(Frame& f, const ir::State& state, int node);

// Records the event (end timestamp now) at the builder's insertion point.
void stop_timer(Frame& f, const Timer& timer);

}  // namespace dace::codegen
