// Facts about one state that several dataflow rules need: live edges, acyclicity, scope
// parents, memlet paths through scope nodes, and the symbols defined at a node.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "analysis/validate_internal.h"
#include "ir/schedule.h"

namespace dace::analysis::detail {

struct StateInfo {
  const SdfgContext& ctx;
  const ir::State& state;
  std::vector<int> edges;    // live edges whose endpoints both exist
  std::vector<std::vector<int>> in, out;  // per node slot: its edges among `edges`
  bool acyclic = false;
  std::vector<int> parents;  // scope parent per node slot; only meaningful when acyclic
  std::set<std::string> base;  // symbols defined everywhere in the state

  StateInfo(const SdfgContext& c, const ir::State& s, const RegionScope& scope);

  // Enclosing scope entries of `node`, innermost first (the node itself excluded).
  std::vector<int> enclosing(int node) const;
  // Symbols defined by an entry for its body: map parameters / PE index, dynamic inputs.
  std::set<std::string> entry_symbols(int entry) const;
  // Symbols visible at `node`: base plus whatever enclosing scopes define.
  std::set<std::string> defined_at(int node) const;
  // Whether `node` runs inside a GPU-scheduled scope (or the SDFG is inside a GPU kernel).
  bool in_gpu(int node) const;
  // Whether an enclosing scope has the Default schedule (storage decided later).
  bool in_default(int node) const;
  // DaCe's memlet_path: the edges from the path's source to its sink through scope nodes
  // (IN_x/OUT_x connector pairs), in order.
  std::vector<int> memlet_path(int edge) const;
};

using ir::is_gpu_schedule;
using ir::schedule_of;
// The entry an exit node refers to, or -1.
int entry_of_exit(const ir::Node& n);

// Memlet rules (validate_memlet.cpp).
void validate_memlets(SdfgContext& ctx, const StateInfo& info);

}  // namespace dace::analysis::detail
