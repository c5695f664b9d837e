// Whether a loop variable is still read after its state-machine loop exits. Lifting scopes the
// variable to the LoopRegion (validation and code generation treat it as defined only inside),
// so a read after the loop, before the variable is assigned again, forbids lifting. DaCe's
// frontend reuses loop variables (`for i ...` twice): the second loop's init edge assigns the
// variable again, which ends the search on that path.
#pragma once
#include <string>

#include "ir/control_flow.h"

namespace dace::transform {

// Whether `name` may be read after edge `exit_edge` of `region` is taken, before some edge
// assigns it: in the blocks and edges reached from it, and after the region ends (the
// enclosing loop's update, condition and next iteration, then what follows the loop).
// Conservative: any mention counts as a read; the end of a region that is neither the SDFG
// nor a loop body counts as a read.
bool read_after_exit(const ir::ControlFlowRegion& region, int exit_edge, const std::string& name);

// Whether anything in `block` (dataflow, code, conditions, nested blocks) mentions `name`.
bool block_mentions(const ir::ControlFlowBlock& block, const std::string& name);

}  // namespace dace::transform
