// AugAssignToWCR (DaCe's name and semantics, dace/transformation/dataflow/wcr_conversion.py):
// `A[x] = A[x] op e` — an access node of A read by a tasklet that writes the same element of
// A to another access node, directly (expression 0: input, tasklet, output) or through a map
// (expression 1: input, map_entry, tasklet, map_exit, output) — becomes a tasklet writing `e`
// with the write-conflict resolution `lambda a, b: a op b`; the read goes.
// Operators: + and * and ^ as written, `-` as + of the negated operand (DaCe maps asymmetric
// operators to symmetric ones), % with the element on the left. Stricter than DaCe where its
// checks would change results: the read element must be the written element, no other input
// of the tasklet may read the container, and `e` must not read the removed input again.
// Python tasklets only; the input access node must have no in-edges (DaCe splits the state
// there), and a write leaving a nested SDFG is refused (DaCe also marks the outer memlets).
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class AugAssignToWCR : public SingleStateTransformation {
 public:
  std::string_view name() const override { return "AugAssignToWCR"; }
  Modifies modifies() const override { return Modifies::Nodes | Modifies::Memlets | Modifies::Tasklets; }

 protected:
  size_t pattern_size() const override { return 3; }
  std::vector<size_t> expression_sizes() const override { return {3, 5}; }
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;

 private:
  struct Plan;
  bool plan(const Site& site, const std::vector<int>& nodes, Plan& p);
};

}  // namespace dace::transform
