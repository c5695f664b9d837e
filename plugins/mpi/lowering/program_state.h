// The MPI program state: created at the end of __dace_init (MPI initialised if needed, the
// host communicator duplicated, DaCe's process grids, subarray types and, for PBLAS nodes,
// the BLACS grid), released at the start of __dace_exit.
#pragma once
#include "codegen/plugin_nodes.h"

namespace dace::mpi {

Status lower_state_init(codegen::ProgramStateContext& context);
Status lower_state_exit(codegen::ProgramStateContext& context);
// At the program function's entry: binds __dace_comm_rank and __dace_comm_size (the rank and
// size of the program communicator) for the whole SDFG when it declares either, as DaCe's
// MPI target defines them program-wide (the MPI schedule binds them inside its maps too).
Status lower_state_entry(codegen::ProgramStateContext& context);

}  // namespace dace::mpi
