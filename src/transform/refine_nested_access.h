// RefineNestedAccess (DaCe's name and meaning, dace/transformation/interstate/sdfg_nesting.py):
// when a nested SDFG reads or writes only one fixed block of a connector's container (every
// memlet at its access nodes has the same range in some dimensions, not all starting at 0),
// the outer memlet on the connector is narrowed to that block and the inner memlets are
// re-based to start at 0 there. LoopToMap and dependence tests then see what the nested SDFG
// really touches.
//
// Legal when at least one connector qualifies. A connector qualifies when: its inner
// container is a non-transient Array whose layout matches the outer one (strides_match);
// its outer edge has unit steps and starts at 0 in the refined dimensions; every memlet at an
// access node of it (all states) agrees in those dimensions and uses only symbols the symbol
// mapping defines (not assigned or used as loop variable inside); it is not the unnamed side of a
// copy; no interstate code (conditions, assignments, loop headers, branch conditions) names
// it. Inner memlets are offset in every state; the outer subset becomes the inner range with
// the symbol mapping substituted. Unlike DaCe, the outer memlets further out (through map
// entries) are not re-propagated: they stay a correct superset.
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class RefineNestedAccess : public SingleStateTransformation {
 public:
  std::string_view name() const override { return "RefineNestedAccess"; }
  // Memlets of this state and of every state of the nested SDFG: the latter are other states,
  // whose cached analyses only a NestedSDFGs report drops.
  Modifies modifies() const override { return Modifies::Memlets | Modifies::NestedSDFGs; }

 protected:
  size_t pattern_size() const override { return 1; }
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;
};

}  // namespace dace::transform
