// DaCe's set_default_schedule_and_storage_types (dace/sdfg/infer_types.py) for the case the
// inliners need: a nested SDFG whose node has a schedule other than Default is re-defaulted
// from that schedule before its contents move out of it, so that what ran under the node's
// schedule keeps its meaning once the node is gone. Every Default schedule (maps, consumes,
// nested SDFGs, library nodes) becomes the child schedule of the enclosing scope's schedule,
// every Default storage of a transient the child storage (DaCe's SCOPEDEFAULT_SCHEDULE and
// SCOPEDEFAULT_STORAGE tables); non-transient containers take the storage of the outer
// container they are attached to. Recurses into scopes and nested SDFGs as DaCe does, with
// DaCe's GPU cases: under GPU_Device, Default scopes become GPU_ThreadBlock (Dynamic when a
// dynamic thread-block scope is inside), and a GPU_Device scope without explicit thread-block
// scopes inside (none below, no Default one directly below) keeps its transients in
// Register instead of GPU_Shared; a GPU_Default nested SDFG is a parent schedule of its body.
#pragma once
#include <string>

#include "ir/sdfg.h"

namespace dace::transform {

// Whether the re-defaulting below is implemented for the node's schedule and every explicit
// schedule inside its SDFG: not for FPGA schedules (DaCe never inlines FPGA_Device nested
// SDFGs). On false, `why` names the element inside (or the node's schedule).
bool can_redefault_schedules(const ir::NestedSDFGNode& node, std::string& why);

// Re-defaults `body` in place from the schedule of nested-SDFG node `node_id` of `state` in
// `outer`: `body` is that node's SDFG or a copy of it (to check on the copy first); the
// storages of non-transient containers are those of the outer containers on the node's
// connector edges. Nothing to do for the Default schedule. InvalidArgument, naming the
// container, when a non-transient container has no connector edge to take its storage from.
Status redefault_schedules(const ir::SDFG& outer, const ir::State& state, int node_id, ir::SDFG& body);

}  // namespace dace::transform
