// Run-time bounds checks of memlets (LowerOptions::bounds_check; the compile option
// `bounds_check`, CLI --bounds-check). Validation proves what it can about subsets at compile
// time; map ranges past an array or shifted subsets with symbolic sizes it cannot, and the
// program would then read or write outside the container. With the option on, before a node
// runs, the index range each of its memlets touches in every dimension is computed from the
// values bound at that point (map parameters, symbols) and compared with the container's
// shape; the first violation is recorded in the status record (RunStatus::OutOfBounds,
// run_status.h) and the function leaves before the node touches anything. Off, nothing is
// emitted: the IR is that of a build without the option.
#pragma once
#include "codegen/state_emit.h"

namespace dace::codegen {

// The checks of the memlets that `node` (directly inside the scope being emitted) reads and
// writes, at the current insertion point; a no-op with bounds_check off. Tasklets, library
// nodes and nested SDFGs: every edge (WCR writes included); access nodes: copies to other
// access nodes (both subsets). Edges through map entries and exits carry propagated subsets
// and are left to the memlets inside; streams, scalars and references are not checked, nor
// memlets marked allow_oob.
Status emit_bounds_checks(StateEmitter& se, int node);

// The check of indices that tasklet code computes (`A[idx]` on a connector whose memlet is
// `A[0:N]`): each must lie in 0 .. extent - 1 of the connector's view of its memlet, else
// the violation, named "<label>, index k", is recorded and the function left. Emitted only
// with bounds_check on (the caller gives no extents otherwise).
Status emit_index_checks(Frame& f, const std::string& label, const std::vector<llvm::Value*>& indices,
                         const std::vector<llvm::Value*>& extents);

}  // namespace dace::codegen
