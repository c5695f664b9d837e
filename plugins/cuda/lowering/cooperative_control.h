// Control flow inside a cooperative kernel must be uniform across the grid: every thread runs
// the nested SDFGs of a GPU_Persistent map (DaCe's persistent states) and evaluates their
// interstate conditions and assignments, loop statements and branch conditions itself, while
// the grid barriers sit only after the GPU_Device maps. Code that reads a container a phase of
// the kernel writes has no barrier between that read and the write: a fast block may already
// have written the value a slow block is about to read, the two take different branches, and
// they reach different numbers of grid barriers (a hang on a device; the emulated launch fails).
#pragma once
#include "codegen/state_emit.h"

namespace dace::cuda {

// Refused with Unsupported, naming the nested SDFG, the code (interstate edge, loop, branch)
// and the container: code of the SDFGs nested in the GPU_Persistent map at `entry` that reads
// a container that the kernel writes anywhere — in a phase (a map's output, also of another
// nested SDFG or of a map directly in the scope) or in interstate code. Any write counts, not
// only a later one: the persistent map's points and loops run the phases again after the read.
Status check_uniform_control_flow(const codegen::StateEmitter& se, int entry);

}  // namespace dace::cuda
