// Small queries on map scopes shared by the map transformations.
#pragma once
#include <string>
#include <vector>

#include "ir/state.h"

namespace dace::transform {

bool is_gpu_schedule(ir::ScheduleType s);
// Whether a range has exactly one iteration (start == end, provably).
bool single_iteration(const sym::Range& r);
// In-edges of a scope entry that carry data into the scope (IN_ connectors) versus dynamic
// map-range inputs (other connectors with a non-empty memlet).
bool has_dynamic_inputs(const ir::State& state, int entry);
// "IN_x" -> "x", "OUT_x" -> "x"; empty when the prefix does not match.
std::string connector_suffix(const std::string& conn, const char* prefix);

}  // namespace dace::transform
