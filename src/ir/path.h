// Element paths for error messages: `sdfg "heat" / state "s3" / node 7 (Tasklet "add") /
// connector "b"`. Every message that concerns an IR element starts with its path.
#pragma once
#include <string>
#include <string_view>

#include "ir/sdfg.h"

namespace dace::ir {

// `sdfg "name"`, prefixed by the enclosing path for nested SDFGs.
std::string path_of(const SDFG& sdfg);
// Blocks nested in regions name every enclosing region: `... / loop "l" / state "s"`.
std::string path_of(const SDFG& sdfg, const ControlFlowBlock& block);
std::string path_of_node(const SDFG& sdfg, const State& state, int node_id);
std::string path_of_edge(const SDFG& sdfg, const State& state, int edge_id);
std::string path_of_interstate_edge(const SDFG& sdfg, const ControlFlowRegion& region, int edge_slot);
std::string path_of_data(const SDFG& sdfg, std::string_view name);
std::string path_of_symbol(const SDFG& sdfg, std::string_view name);
// Quotes a name for messages: `"x"`, escaping quotes and control characters.
std::string quoted(std::string_view s);

}  // namespace dace::ir
