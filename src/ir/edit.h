// Edits of the IR shared by the builder (C API) and the optimizer passes: small steps that keep
// connectors, scope pairs and region entries consistent, so each caller does not repeat them.
// None of them validates; callers check legality first.
#pragma once
#include <string>
#include <utility>

#include "ir/sdfg.h"
#include "ir/state.h"

namespace dace::ir {

// Adds connector `name` (untyped) to the node's outputs (`output`) or inputs, unless present.
void ensure_connector(Node& node, bool output, const std::string& name);

// Inserts a map scope: an entry holding `map` and its exit, both labelled `label`. Returns
// {entry id, exit id}.
std::pair<int, int> add_map(State& state, const std::string& label, MapScope map);

// Removes edge `e` and the connectors at its two ends that no other edge uses any more.
void remove_edge_and_connectors(State& state, int e);

// Points edge `e` at new ends and connectors (the memlet stays); connectors are added at the
// new ends, and those at the old ends that no other edge uses go.
void redirect_edge(State& state, int e, int src, const std::string& src_conn, int dst, const std::string& dst_conn);

// Removes a node with its edges; connectors of its neighbours that no remaining edge uses go.
void remove_node_and_edges(State& state, int node);

// `base` when no block of `region` has that label, else `base_0`, `base_1`, ...
std::string unique_block_label(const ControlFlowRegion& region, const std::string& base);

// DaCe's add_state_before: a new empty state labelled (uniquely) `label` in `region` takes over
// the in-edges of block `slot` and its role as the region's start block. Returns the slot of the
// new unconditional edge new -> slot.
int add_state_before(SDFG& sdfg, ControlFlowRegion& region, int slot, const std::string& label);

}  // namespace dace::ir
