// Symbols that control flow inside a block assigns: left-hand sides of interstate
// assignments and loop variables, in the block and every region below it (not inside nested
// SDFGs, whose symbols are their own).
#pragma once
#include <set>
#include <string>

#include "ir/control_flow.h"

namespace dace::transform {

std::set<std::string> assigned_symbols(const ir::ControlFlowBlock& block);

}  // namespace dace::transform
