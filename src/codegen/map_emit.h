// Map scopes: schedule choice, sequential loop nests, and the parallel outlining entry.
#pragma once
#include <functional>

#include "codegen/state_emit.h"

namespace dace::codegen {

// Opens loops over dimensions [first, n) of the map (binding each parameter), runs `inner`
// inside, closes them.
Status emit_map_loops(StateEmitter& se, const ir::MapScope& map, size_t first, const std::function<Status()>& inner);

// The scope body: scope-local containers, then the nodes of the scope.
Status emit_map_body(StateEmitter& se, int entry);

// CPU_Multicore: outlined body over the collapsed outer dimensions + runtime call.
Status emit_parallel_map(StateEmitter& se, int entry, const ir::MapScope& map);

// A parallel loop over [0, total) (total computed in the current frame): `body` emits one
// iteration, given the index, into an outlined function (se.f is its frame meanwhile; it
// must look everything up again by name, values of the enclosing function are not visible).
Status emit_parallel_loop(StateEmitter& se, llvm::Value* total, const std::string& name,
                          const std::function<Status(llvm::Value*)>& body);

// Whether work at this point may be split over threads (CPU_Multicore-like), per options.
bool can_parallelize(const StateEmitter& se);

}  // namespace dace::codegen
