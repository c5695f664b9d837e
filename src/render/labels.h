// The text drawn for each SDFG element (pure functions, no Graphviz): what a DaCe user reads
// in DaCe's viewer — a map's parameters and ranges, a memlet's data and subset with its
// write-conflict resolution, an interstate edge's condition and assignments.
#pragma once
#include <string>

#include "ir/control_flow.h"
#include "ir/nodes.h"
#include "ir/sdfg.h"
#include "ir/state.h"

namespace dace::render {

// Label of a dataflow node, e.g. "A", "_Mult_", "map_0[i=0:N, j=0:M]", "MatMul (MatMul)".
std::string node_label(const ir::State& state, int node_id);
// Label of a memlet edge: "A[i, 0:N]" plus " (CR: lambda a, b: a + b)"; empty for an
// empty memlet.
std::string memlet_label(const ir::Memlet& memlet);
// Label of an interstate edge: the condition (unless always true), then "; "-separated
// assignments ("i = i + 1").
std::string interstate_label(const ir::InterstateEdge& edge);
// Title of a control-flow block's box: "state s0", "for i = 0; i < N; i = i + 1", ...
std::string block_title(const ir::ControlFlowBlock& block);
// Longest text kept in one label (tasklet code, long subsets); longer text ends in "...".
std::string clip(const std::string& text, size_t max_chars = 80);

}  // namespace dace::render
