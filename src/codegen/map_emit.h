// Map scopes: schedule choice and sequential loop nests; every other schedule is lowered by
// the plugin that registered it (ScheduleLowering::lower_scope, target_lowering.h), which
// may use these helpers.
#pragma once
#include <functional>
#include <vector>

#include "codegen/state_emit.h"

namespace dace::codegen {

// Start, end (inclusive) and step of one range, evaluated in `f`.
struct RangeValues {
  llvm::Value* start;
  llvm::Value* end;
  llvm::Value* step;
};
Result<RangeValues> range_values(Frame& f, const sym::Range& r);

// Start, step and trip count of each of the first `n` dimensions of a map, evaluated in `f`:
// what a plugin builds its own iteration from (a collapsed parallel loop, a GPU grid).
struct MapDimension {
  llvm::Value* start;
  llvm::Value* step;
  llvm::Value* count;
};
// Dimensions `first` up to `n` (exclusive).
Result<std::vector<MapDimension>> map_dimensions(Frame& f, const ir::MapScope& map, size_t n, size_t first = 0);

// Binds the dynamic map inputs of `entry` (in-connectors other than IN_*: scalars its range
// and body read, e.g. a CSR row's bounds) as symbols in the current scope of se.f, each loaded
// with the symbols bound now, and records their types in se.scope_symbols.
Status bind_dynamic_map_inputs(StateEmitter& se, int entry);

// Opens loops over dimensions [first, n) of the map (binding each parameter), runs `inner`
// inside, closes them.
Status emit_map_loops(StateEmitter& se, const ir::MapScope& map, size_t first, const std::function<Status()>& inner);

// The scope body: scope-local containers, then the nodes of the scope.
Status emit_map_body(StateEmitter& se, int entry);

// Scope-local heap containers of the scopes inside the map `entry` (its own included) get
// one block per run of that map in the current frame, which every scope instance reuses
// (grown when an instance needs more) instead of an allocator call per instance: in a
// parallel map, called inside the outlined body before its loop, that is one block per
// thread's piece. Containers already reused by an enclosing map of this frame are left to it.
// Returns the containers this call took on; end_block_reuse frees their blocks where the
// map's code ends. Nothing in device code (its containers are stack arrays).
std::vector<std::string> begin_block_reuse(StateEmitter& se, int entry);
void end_block_reuse(StateEmitter& se, const std::vector<std::string>& names);

// A parallel loop over [0, total) (total computed in the current frame), lowered by the
// host's parallel schedule (ScheduleLowering::lower_parallel_loop): `body` emits one
// iteration, given the index, into an outlined function (se.f is its frame meanwhile; it
// must look everything up again by name, values of the enclosing function are not visible).
// Only when can_parallelize(se).
Status emit_parallel_loop(StateEmitter& se, llvm::Value* total, const std::string& name,
                          const std::function<Status(llvm::Value*)>& body);

// Whether work at this point may be split over threads: the options allow it, the code is not
// parallel already and a plugin provides the host's parallel schedule.
bool can_parallelize(const StateEmitter& se);

}  // namespace dace::codegen
