// Where a control-flow region starts executing. One rule for the code generator and the
// optimizer, so that passes reason about the block the compiled code actually enters.
#pragma once

#include "ir/control_flow.h"

namespace dace::ir {

// DaCe's start block: the unique block without in-edges when there is one (DaCe 1.0 writes a
// stale 0 as start_block), else the stored start block, else the first source, else the
// first block; -1 for an empty region.
int entry_block(const ControlFlowRegion& region);

}  // namespace dace::ir
