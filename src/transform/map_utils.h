// Small queries on map scopes shared by the map transformations.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "ir/sdfg.h"
#include "ir/state.h"
#include "transform/scope_tree.h"

namespace dace::transform {

bool is_gpu_schedule(ir::ScheduleType s);
// Whether a range has exactly one iteration (start == end, provably).
bool single_iteration(const sym::Range& r);
// In-edges of a scope entry that carry data into the scope (IN_ connectors) versus dynamic
// map-range inputs (other connectors with a non-empty memlet).
bool has_dynamic_inputs(const ir::State& state, int entry);
// "IN_x" -> "x", "OUT_x" -> "x"; empty when the prefix does not match.
std::string connector_suffix(const std::string& conn, const char* prefix);

// Why `inner` is not perfectly nested in `outer` (empty when it is): the outer scope holds
// the inner map and nothing else, and every data path through the inner entry and exit
// continues one-to-one (IN_x <-> OUT_x). Shared by MapCollapse and MapInterchange.
std::string nesting_problem(const ir::State& state, const ScopeTree& scopes, int outer, int inner);

// The memlet an edge at a scope boundary carries for what `inner_edges` (edges inside the
// scope, all on one connector) access over the iterations of `params` in `range`: the hull
// of their propagated subsets, with `outside`'s container, WCR and flags. When a subset does
// not address that container or the ranks differ, `outside` itself (a valid
// over-approximation) is returned.
ir::Memlet propagate_edges(const ir::SDFG& sdfg, const ir::State& state, const std::vector<int>& inner_edges,
                           const std::vector<std::string>& params, const sym::Subset& range,
                           const ir::Memlet& outside);

// Symbols a new map parameter must not shadow: the SDFG's symbols and containers and the
// parameters of every map enclosing `entry` (and of `entry` itself).
std::set<std::string> names_in_use(const ir::SDFG& sdfg, const ir::State& state, const ScopeTree& scopes, int entry);

}  // namespace dace::transform
