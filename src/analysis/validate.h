// Validation of SDFGs: every rule of DaCe's validate_sdfg (DESIGN.md §9).
#pragma once
#include <vector>

#include "ir/result.h"
#include "ir/sdfg.h"

namespace dace::analysis {

// First violation as Code::InvalidSdfg; the message starts with the element path
// (ir/path.h) and states the rule, e.g.
//   sdfg "x" / state "s" / node 3 (Tasklet "t") / connector "b": input connector has no edge
Status validate(const ir::SDFG& sdfg);
// Every violation found (stops after `limit`).
std::vector<Error> validate_all(const ir::SDFG& sdfg, size_t limit = 100);

}  // namespace dace::analysis
