// ReduceToOuterMap (libdace's own; DaCe 1.0.2's ReduceExpansion does the same split but also
// expands the inner Reduce into a nested SDFG with new transients, so its history entries
// differ and this one is not replayable by DaCe): a Reduce over the trailing axes of its
// input, `B = reduce(A[0:N, 0:M, 0:K], axes=[2])`, moves inside a new map over the kept
// dimensions, `map (i, j): B[i, j] = reduce(A[i, j, 0:K], axes=[2])`.
//
// Why: a Reduce at the top level is a pass over memory of its own between the maps that
// produce its input and consume its output; inside a map over the kept dimensions it can be
// fused (MapFusion) with those maps' outer dimensions (split off by MapExpansion and
// MapCollapse, see reductions_into_row_maps.h), so that softmax's max, exp, sum and divide
// run on one row while it is in the L1 cache instead of four passes over the whole array.
// Each output element is still reduced over the same elements in the same order: no
// reassociation.
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class ReduceToOuterMap : public SingleStateTransformation {
 public:
  std::string_view name() const override { return "ReduceToOuterMap"; }
  Modifies modifies() const override { return Modifies::Scopes | Modifies::Memlets | Modifies::Nodes; }

 protected:
  size_t pattern_size() const override { return 1; }  // the Reduce node
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;
};

// Whether `n` is DaCe's standard Reduce library node (by its full class path, so that
// dace.libraries.mpi.nodes.reduce.Reduce is not taken for it). Shared by every transformation
// that looks for a Reduce.
bool is_reduce_node(const ir::Node& n);
// Whether the Reduce sets `identity`: without one it accumulates into its output's old value.
bool reduce_has_identity(const ir::LibraryNode& n);
// The axes of a Reduce node's `axes` property ("[1, 2]"); nullopt for null, absent or
// anything but a list of non-negative integers.
std::optional<std::vector<int64_t>> reduce_axes(const ir::LibraryNode& n);

}  // namespace dace::transform
