// AccumulateTransient (DaCe's name and properties `array`, `identity`;
// dace/transformation/dataflow/stream_transient.py): a map nested in another that writes a
// block with a WCR (`map_exit -> outer_map_exit` carrying X[S] with, say, a sum) accumulates
// into a new transient `trans_X` shaped like S instead, initialized to `identity` before the
// inner map runs in each outer iteration; the transient is then combined into X[S] with the
// same WCR. Fewer conflicting writes reach X.
// DaCe applies its OutLocalStorage to the WCR edge and, with an identity, nests the inner map
// into a nested SDFG whose first state initializes the transient. We put the same
// initialization, a map `acctrans_init` writing `identity` to every element, in the outer map
// scope before the inner map (an empty edge from its access node orders them), without
// nesting. Without an identity DaCe leaves the transient uninitialized, which changes results:
// refused. Legal otherwise under local_storage.h's conditions for an exit pair with a WCR (the
// inner writes carry the same WCR; nothing inside the inner scope reads X or has its access
// nodes; S's extents use no map parameter).
#pragma once
#include <optional>

#include "transform/local_storage.h"

namespace dace::transform {

class AccumulateTransient final : public SingleStateTransformation {
 public:
  AccumulateTransient() {
    props_.bind_string("array", &array_);
    props_.bind_optional_string("identity", &identity_);
  }
  std::string_view name() const override { return "AccumulateTransient"; }
  Modifies modifies() const override {
    return Modifies::Descriptors | Modifies::AccessNodes | Modifies::Scopes | Modifies::Tasklets | Modifies::Memlets;
  }

 protected:
  size_t pattern_size() const override { return 2; }  // map_exit, outer_map_exit
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;

 private:
  std::string array_;
  std::optional<std::string> identity_;
};

}  // namespace dace::transform
