// Small queries on map scopes shared by the map transformations.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "ir/schedule.h"
#include "ir/sdfg.h"
#include "ir/state.h"
#include "transform/scope_tree.h"

namespace dace::transform {

// The node as a map entry, or null.
inline const ir::MapEntry* as_map_entry(const ir::Node* n) {
  return n && n->kind == ir::NodeKind::MapEntry ? static_cast<const ir::MapEntry*>(n) : nullptr;
}
// Matches of the one-element pattern `map_entry`: every map entry of the state, ascending.
void map_entry_matches(const ir::State& state, std::vector<std::vector<int>>& out);
// Matches of the pattern `outer_map_entry -> inner_map_entry` (an edge between two map
// entries), ascending by outer then inner id. Shared by MapCollapse and MapInterchange.
void nested_map_matches(const ir::State& state, std::vector<std::vector<int>>& out);
// Why `inner` cannot leave or merge with `outer` (empty when it can): both are map entries
// with exits, `inner` is directly inside `outer`, the parameter names differ and the inner
// range does not depend on an outer parameter.
std::string nested_maps_problem(const ir::State& state, const ScopeTree& scopes, int outer, int inner);

using ir::is_gpu_schedule;
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
