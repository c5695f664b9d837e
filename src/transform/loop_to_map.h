// LoopToMap (DaCe's name, dace/transformation/interstate/loop_to_map.py): a for-loop whose
// iterations are independent becomes a map. Scope here: a LoopRegion whose body is one state
// with no interstate edges, a header `loop_bounds.h` accepts, and a body whose top-level
// access nodes are pure sources or pure sinks (so every access of a container is one memlet
// at the state's top level), except transients that loop_privatization.h accepts: written by
// tasklets before every read in each iteration and used nowhere else, they stay inside the
// map, one copy per iteration. Other transients written and read in the body are refused.
// Legality is exact (ISL, `analysis/sets.h`, loop_dependence.h): no container element written
// in iteration i is read or written in an iteration j != i, for every value of the free
// symbols; undecided means refused. WCR writes may overlap other WCR writes of the same
// container with the same operator.
// Apply: the loop is replaced by its body state, whose dataflow is wrapped in a map over the
// loop's range; memlets crossing the map are propagated over it.
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class LoopToMap : public ControlFlowTransformation {
 public:
  std::string_view name() const override { return "LoopToMap"; }
  Modifies modifies() const override {
    return Modifies::States | Modifies::InterstateEdges | Modifies::Scopes | Modifies::Nodes | Modifies::Memlets |
           Modifies::Symbols;
  }

 protected:
  size_t pattern_size() const override { return 1; }  // the loop
  void region_matches(const ir::ControlFlowRegion& region, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& blocks) override;
  Status apply_at(const Site& site, const std::vector<int>& blocks) override;
};

}  // namespace dace::transform
