// Symbol values per state, the table the propagation passes share: ConstantPropagation
// (`known_symbol_values`) and SymbolPropagation (`propagated_symbol_values`) compute one with
// their own rules, and both rewrite each state, and the code on its out-edges, with it.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>

#include "ir/control_flow.h"

namespace dace::transform {

// A symbol's value on entry to a state as expression text; nullopt when it is not known there
// (DaCe's _UnknownValue: paths disagree, it reads data, ...).
using SymbolValue = std::optional<std::string>;
using SymbolTable = std::map<std::string, SymbolValue>;
// Per state slot of one region, the symbols whose value on entry is known.
using StateSymbolValues = std::map<int, std::map<std::string, std::string>>;

// Whether `region` has blocks and all of them are states (what both analyses handle).
bool states_only(const ir::ControlFlowRegion& region);

// The known entries of per-state tables.
StateSymbolValues known_entries(const std::map<int, SymbolTable>& tables);

// Replaces the symbols of `values` by their values in the state at `slot` of `region` and in
// the conditions and assignment right-hand sides of its out-edges (symbol_rewrite.h; symbols
// occurring where nothing can be rewritten are added to `blocked`). True when anything changed.
bool rewrite_state_and_out_edges(ir::ControlFlowRegion& region, int slot, const std::map<std::string, std::string>& values,
                                 std::set<std::string>& blocked);

}  // namespace dace::transform
