// Lowerings of DaCe's PBLAS library nodes (dace.libraries.pblas, ReferenceOpenMPI): calls into
// the runtime's ScaLAPACK wrappers on the program state's BLACS grid.
#pragma once
#include "codegen/plugin_nodes.h"

namespace dace::mpi {

// The node classes whose SDFGs need the BLACS grid (DaCe's ScaLAPACK environment).
bool is_pblas_class(const std::string& classpath);

Status lower_pgemm(codegen::LibraryNodeContext& c);
Status lower_pgemv(codegen::LibraryNodeContext& c);
Status lower_bc_scatter(codegen::LibraryNodeContext& c);
Status lower_bc_gather(codegen::LibraryNodeContext& c);

}  // namespace dace::mpi
