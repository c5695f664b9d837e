// Where a node keeps its schedule (map and consume entries, nested SDFGs, library nodes) and
// which schedules run on a GPU: one definition for validation, the optimizer and code
// generation.
#pragma once
#include "ir/enums.h"
#include "ir/nodes.h"

namespace dace::ir {

// The node's schedule field; nullptr for nodes without one (tasklets, access nodes, exits).
ScheduleType* schedule_field(Node& n);
const ScheduleType* schedule_field(const Node& n);
// The node's schedule; Default for nodes without one.
ScheduleType schedule_of(const Node& n);

bool is_gpu_schedule(ScheduleType s);

}  // namespace dace::ir
