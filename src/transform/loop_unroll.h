// LoopUnroll (DaCe's name and property `count`, dace/transformation/interstate/loop_unroll.py):
// a loop with a constant trip count is replaced by one copy of its body per iteration, in
// order, the loop variable replaced by that iteration's value in each copy (memlets, map
// ranges, Python tasklet code, interstate conditions and assignments, inner loop headers,
// branch conditions, nested-SDFG symbol mappings) — as DaCe 1.0.2 does, which replaces
// rather than assigning the variable. Copies are labelled `<label>_<var>_<value>` and joined
// by unconditional edges; the loop's in-edges lead to the first copy, its out-edges leave
// the last. A loop without iterations becomes an empty state.
// Legal for a LoopRegion whose header loop_bounds.h reads (`i = a; i < b; i = i + s`) with
// b - a a constant (a may be symbolic: the values are then a, a + s, ...), at most
// kMaxUnrolledIterations iterations, a body with one entry and one exit block and no
// break/continue/return, where block_substitution.h can rewrite every use of the variable
// and no container is sized by it.
// `count` > 1 unrolls partially, for any trip count (DaCe raises NotImplementedError): the
// loop runs `count` body copies per iteration (copy k at `i + k*s`) while the last is in
// range, and a copy of the original loop (`<label>_rest`) runs the remaining iterations.
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class LoopUnroll : public ControlFlowTransformation {
 public:
  static constexpr int64_t kMaxUnrolledIterations = 1024;
  LoopUnroll() { props_.bind_int("count", &count_); }
  std::string_view name() const override { return "LoopUnroll"; }
  Modifies modifies() const override {
    return Modifies::States | Modifies::InterstateEdges | Modifies::Nodes | Modifies::Memlets | Modifies::Symbols;
  }

 protected:
  size_t pattern_size() const override { return 1; }  // the loop
  void region_matches(const ir::ControlFlowRegion& region, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& blocks) override;
  Status apply_at(const Site& site, const std::vector<int>& blocks) override;

 private:
  Status apply_partial(const Site& site, int loop_slot);
  int64_t count_ = 0;
};

}  // namespace dace::transform
