// The MPI program state: created at the end of __dace_init (MPI initialised if needed, the
// host communicator duplicated, DaCe's process grids, subarray types and, for PBLAS nodes,
// the BLACS grid), released at the start of __dace_exit.
#pragma once
#include "codegen/plugin_nodes.h"

namespace dace::mpi {

Status lower_state_init(codegen::ProgramStateContext& context);
Status lower_state_exit(codegen::ProgramStateContext& context);

}  // namespace dace::mpi
