// Replacing a symbol by a value throughout a control-flow block — DaCe's `replace` of a loop
// variable when a loop is unrolled: memlets, map and consume ranges, nested-SDFG symbol
// mappings, Python tasklet code, interstate conditions and assignments, loop headers and
// branch conditions, at any depth (nested SDFGs see the value through their mapping).
// `can_replace_symbol` says first whether every occurrence can be rewritten: code in other
// languages or library-node properties naming the symbol, a tasklet connector or local
// variable of that name, an inner map or loop redefining it, or an assignment to it cannot.
#pragma once
#include <string>

#include "ir/control_flow.h"
#include "ir/symbolic/expr.h"

namespace dace::transform {

bool can_replace_symbol(const ir::ControlFlowBlock& block, const std::string& name, std::string& why);
// Assumes can_replace_symbol accepted `block`.
void replace_symbol(ir::ControlFlowBlock& block, const std::string& name, sym::Expr value);

}  // namespace dace::transform
