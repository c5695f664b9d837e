// RedundantSecondArray (DaCe's name; pattern `in_array -> out_array`, two access nodes joined
// by a copy): a transient that is only filled by a copy from another container and then read
// is removed; its readers read the other container at the copied block. The frontend makes
// such copies of slices (syrk's `A_0 = A[0:i+1, k]`) and of reductions with kept dimensions
// (softmax's `tmp_sum[:, :, :, 0] = __tmp5`): rank differences in dimensions of size one are
// allowed, the readers' indices there dropped or set to the block's start.
//
// Legal only when all of these hold (a subset of DaCe's non-permissive legality):
// - the copy is the out-array's only in-edge and the only edge between the nodes, not empty,
//   without WCR;
// - the out-array is a transient Array or Scalar with scope/state/SDFG lifetime, has this one
//   access node in the whole SDFG, is not named by control flow, and is not set to zero;
// - the in-array is an Array or Scalar (no view, reference or stream) of the same dtype and
//   storage;
// - the copy fills the whole out-array from a block of the in-array with unit steps whose
//   dimensions of size other than one have the out-array's extents, in order;
// - every read of the out-array (through map entries, down to tasklets, or copies with an
//   explicit other subset) has no WCR; nested SDFGs and library nodes read it only when the
//   copy is an identity (equal shapes and strides, no offset), because they see the layout;
// - every other access node of the in-array's container that is written in the state either
//   precedes the in-array node, or follows a top-level access node that every path out of the
//   out-array runs into (so every read has finished before the container is overwritten).
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class RedundantSecondArray : public SingleStateTransformation {
 public:
  std::string_view name() const override { return "RedundantSecondArray"; }
  Modifies modifies() const override { return Modifies::AccessNodes | Modifies::Memlets | Modifies::Descriptors; }

 protected:
  size_t pattern_size() const override { return 2; }  // in_array, out_array
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;
};

}  // namespace dace::transform
