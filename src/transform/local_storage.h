// DaCe's LocalStorage family (dace/transformation/dataflow/local_storage.py and
// stream_transient.py's AccumulateTransient): a new transient access node is put on the edge
// `node_a -> node_b` between two scope nodes that carries X[S]. The transient is shaped like
// S's bounding box; the memlets on the inner side of the pair (below an inner entry, above
// an inner exit) name the transient, offset by S's start. InLocalStorage (two entries: the
// inner scope reads a local copy), OutLocalStorage (two exits: the inner scope writes a local
// block that is copied out after it) and AccumulateTransient (two map exits with a WCR: the
// inner map accumulates into a local block initialized to `identity`) share this code.
#pragma once
#include <string>
#include <vector>

#include "transform/transformation.h"

namespace dace::transform::local_storage {

enum class Direction { In, Out };  // In: node_a, node_b are entries; Out: exits

// Pairs `node_a -> node_b` of scope entries (In) or exits (Out; map exits only with
// `maps_only`) joined by a non-empty edge, ascending by node_a then node_b.
void pair_matches(const ir::State& state, Direction dir, bool maps_only, std::vector<std::vector<int>>& out);

// The edge a -> b to work on: the first one of `array`; with `array` empty, the first
// non-empty edge with (`wcr`) or without (!`wcr`) a WCR, as DaCe picks it. -1 when none.
int chosen_edge(const ir::State& state, int a, int b, const std::string& array, bool wcr);

// Why the transient cannot go on edge `e` (empty when it can). Common conditions: X is an
// Array or Scalar, the memlet has no other subset, the connectors are IN_x / OUT_x pairs
// with one edge each, the inner memlet tree names X only and ends at tasklets (and, for In,
// access nodes) through further scopes, its WCR is the edge's (`wcr`) or absent, no access
// node of X lies inside the inner scope (Out), and S's extents use no parameter of an
// enclosing scope. `tree` receives the inner memlet tree's edges.
std::string edge_problem(const ir::SDFG& sdfg, const ir::State& state, const ScopeTree& scopes, Direction dir, int a,
                         int b, int e, bool wcr, std::vector<int>* tree);

// Why the inner writes of an Out edge might not fill all of S (empty when they provably
// do): the tree is one chain from a tasklet whose memlet indexes each dimension either by
// a point equal to S's or by `p + c` with a distinct unit-step parameter p of the maps on the
// chain whose image is exactly S's range there.
std::string coverage_problem(const ir::State& state, const ScopeTree& scopes, int e, const std::vector<int>& tree);

// The whole legality chain of InLocalStorage / OutLocalStorage (without WCR) on the pair
// a -> b: the edge chosen for `array` (chosen_edge), edge_problem and, for Out,
// coverage_problem. Returns the edge, or -1 with `why` set; `tree` as edge_problem's.
int legal_edge(const ir::SDFG& sdfg, const ir::State& state, const ScopeTree& scopes, Direction dir, int a, int b,
               const std::string& array, std::vector<int>* tree, std::string& why);

// Inserts the transient (named `prefix + X`, then `_0`, `_1`, ...) on edge `e` and rewrites
// `tree`; returns the new access node's id and sets `name`.
int insert_transient(ir::SDFG& sdfg, ir::State& state, Direction dir, int e, const std::vector<int>& tree,
                     const std::string& prefix, std::string* name);

}  // namespace dace::transform::local_storage

namespace dace::transform {

// DaCe's LocalStorage base: properties `array`, `prefix`, `create_array`; pattern node_a,
// node_b. `create_array = false` (reuse an existing container) is refused.
class LocalStorage : public SingleStateTransformation {
 public:
  Modifies modifies() const override { return Modifies::Descriptors | Modifies::AccessNodes | Modifies::Memlets; }

 protected:
  explicit LocalStorage(local_storage::Direction dir);
  size_t pattern_size() const override { return 2; }  // node_a, node_b
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;

  local_storage::Direction dir_;
  std::string array_;
  std::string prefix_ = "trans_";
  bool create_array_ = true;
};

}  // namespace dace::transform
