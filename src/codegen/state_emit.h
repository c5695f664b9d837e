// Lowering of one state: its nodes in dependency order, scope by scope (a map scope becomes
// loops or an outlined parallel body with its contents inside).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "codegen/frame.h"

namespace dace::codegen {

Status emit_state(Frame& f, const ir::State& state);

class StateEmitter {
 public:
  StateEmitter(Frame& f, const ir::State& state);

  Status emit();
  // Emits the nodes directly inside `scope` (a scope entry id, -1 = top level) in dependency
  // order; nested scopes recurse.
  Status emit_scope(int scope);
  // Emits `nodes` (direct children of one scope, in an order scope_order allows) the way
  // emit_scope does; a target splitting a scope's body (at a collective) emits it in parts.
  Status emit_nodes(const std::vector<int>& nodes);
  // Direct children of a scope (exits excluded) in a deterministic topological order.
  std::vector<int> scope_order(int scope) const;

  // First and last node of the memlet path through `edge` (crossing scope entries/exits).
  int path_source(int edge) const;
  int path_sink(int edge) const;
  // The in-edge of `node` arriving at connector `conn` / out-edge leaving from it; -1 if none.
  int in_edge_at(int node, const std::string& conn) const;
  int out_edge_at(int node, const std::string& conn) const;
  // The data container an access node names, or -1/"" for other nodes.
  std::string access_data(int node) const;
  // DaCe's get_view_edge: the edge that connects a view access node to the data it views.
  int view_edge(int node) const;

  std::string where(int node) const;
  std::string where_edge(int edge) const;

  // Symbols bound by enclosing map scopes (for type-checking tasklets): name -> type.
  std::map<std::string, ScalarType> scope_symbols;
  // Params of the innermost enclosing parallel map (WCR conflict test).
  std::vector<std::string> parallel_params;
  // Values carried by tasklet -> tasklet edges: edge id -> storage and type.
  std::map<int, std::pair<llvm::Value*, ScalarType>> edge_values;
  // ScopeLocal containers by the scope that allocates them (lowest common scope of their
  // access nodes in this state).
  std::map<int, std::vector<std::string>> scope_locals;

  Frame* f;  // the frame being emitted into (changes inside outlined parallel bodies)
  const ir::State& state;
  const ir::SDFG& sdfg;
  std::vector<int> parents;

  // Allocates the scope-local containers of `scope` in the current frame; returns heap
  // pointers to free when the scope instance ends.
  Result<std::vector<llvm::Value*>> allocate_scope_locals(int scope);
  void free_all(const std::vector<llvm::Value*>& ptrs);
};

}  // namespace dace::codegen
