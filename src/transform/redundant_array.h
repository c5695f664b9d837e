// RedundantArray (DaCe's name; pattern `in_array -> out_array`, two access nodes joined by a
// copy): a transient that is written once and then only copied into another container is
// removed, and what wrote it writes the other container directly. When the copy fills a
// sub-block of the destination (`tmp -> B[1:N-1, 1:N-1]`, what the Python frontend makes of
// `B[1:-1, 1:-1] = expr`), every memlet of the writes is offset by the block's start.
//
// Legal only when all of these hold (stricter than DaCe, which also reshapes through views):
// - the copy is the in-array's only out-edge, has no WCR, and no other edge joins the nodes;
// - the in-array is a transient Array or Scalar with scope/state/SDFG lifetime, has this one
//   access node in the whole SDFG, is not named by control flow, and is not set to zero;
// - the out-array is an Array or Scalar (no view, reference or stream), of the same dtype
//   and storage;
// - the copy reads the whole in-array, and writes a block of the same extent in every
//   dimension (same rank, unit steps) of the out-array;
// - every write into the in-array (through map/consume exits, back to the producers) has no
//   WCR, and is a tasklet's or a copy's (with an explicit other subset); nested SDFGs and
//   library nodes only when the two descriptors have equal shapes and strides and no offset,
//   because they see the container's layout;
// - no access node of the out-array precedes the in-array in the state through computations,
//   views or nodes inside scopes only: the producers must not read what they would now
//   overwrite. A read of the out-array before another top-level access node is fine (it has
//   finished before the producers run).
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class RedundantArray : public SingleStateTransformation {
 public:
  std::string_view name() const override { return "RedundantArray"; }
  Modifies modifies() const override { return Modifies::AccessNodes | Modifies::Memlets | Modifies::Descriptors; }

 protected:
  size_t pattern_size() const override { return 2; }  // in_array, out_array
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;
};

}  // namespace dace::transform
