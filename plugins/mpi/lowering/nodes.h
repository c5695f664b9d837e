// The MPI plugin's library-node lowerings, by DaCe class: each emits a call into the
// plugin's runtime (runtime/dace_mpi_runtime.h) with DaCe's semantics and connectors.
#pragma once
#include <string>
#include <vector>

#include "codegen/plugin_nodes.h"

namespace dace::mpi {

using NodeLowering = Status (*)(codegen::LibraryNodeContext&);

struct NodeClass {
  const char* classpath;
  const char* implementation;  // DaCe's name of the implementation this stands for
  NodeLowering lower;
};

const std::vector<NodeClass>& node_classes();

}  // namespace dace::mpi
