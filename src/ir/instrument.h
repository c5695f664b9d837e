// DaCe's `instrument` property (dtypes.InstrumentationType) on the elements libdace can time:
// SDFGs, states, map and consume entries, tasklets, nested-SDFG and library nodes. The value
// stays where the JSON reader put it (the element's unmodelled properties, `"\"Timer\""`),
// so files round-trip unchanged; the default (No_Instrumentation) is never stored, so an
// SDFG without instrumentation is the same SDFG (same JSON, hash and code) as before.
// Supported: No_Instrumentation and Timer. DaCe's other values (PAPI_Counters, LIKWID_CPU,
// LIKWID_GPU, GPU_Events, FPGA) are read and written back, but setting them and compiling
// an SDFG that uses them is refused with a message naming the element (docs/instrumentation.md).
#pragma once
#include <string>
#include <string_view>

#include "ir/result.h"
#include "ir/sdfg.h"

namespace dace::ir {

enum class Instrumentation { None, Timer };

// Where a timer may be placed. Access nodes carry DaCe's DataInstrumentationType instead
// (Save/Restore), which libdace does not implement; exits share their entry's property;
// loops, conditionals and other blocks have no instrument property in DaCe 1.0.
bool can_be_instrumented(const Node& node);

// The element's instrumentation; `path` names it in the error for a value libdace does not
// implement (Unsupported) or that is not one of DaCe's names (InvalidArgument).
Result<Instrumentation> instrumentation_of(const ExtraProperties& props, const std::string& path);
// The node's: reads LibraryNode::properties for library nodes, `extra` for the others.
Result<Instrumentation> instrumentation_of(const SDFG& sdfg, const State& state, int node_id);

// The stored value as DaCe's name ("No_Instrumentation" when unset).
std::string instrument_name(const ExtraProperties& props);
const ExtraProperties& instrument_properties(const Node& node);

// Sets `value` (DaCe's name). Refuses, naming `path`: names DaCe does not have
// (InvalidArgument), DaCe names libdace does not implement (Unsupported).
Status set_instrument(ExtraProperties& props, std::string_view value, const std::string& path);
// A node's property: only nodes that can_be_instrumented; a map or consume entry's exit
// gets the same value (DaCe keeps one property on the scope, written on both nodes).
Status set_node_instrument(SDFG& sdfg, State& state, int node_id, std::string_view value);

// What `dace run --instrument` and dace_sdfg_instrument select.
struct InstrumentSelection {
  // nodes: tasklets, library and nested-SDFG nodes at the top level of a state (inside a map
  // they run once per iteration).
  bool program = false, states = false, maps = false, nodes = false;
  bool none = false;  // "none": remove every timer
};
// "program", "states", "maps", "nodes", "all" (all four), "none" (clears every timer), or a
// comma-separated list of the first four. InvalidArgument for anything else.
Result<InstrumentSelection> parse_instrument_selection(std::string_view text);
// Sets Timer on the selected elements of `sdfg` and of all nested SDFGs (the program timer
// only on the root); `none` removes every Timer. Returns how many elements it set.
int apply_instrument_selection(SDFG& sdfg, const InstrumentSelection& selection);

}  // namespace dace::ir
