// LoopToMap (DaCe's name, dace/transformation/interstate/loop_to_map.py): a for-loop whose
// iterations are independent becomes a map. The header must be one `loop_bounds.h` accepts;
// the body may be any control flow (loop_body.h): several states, inner loops, branches.
// Legality is exact (ISL, `analysis/sets.h`, loop_dependence.h): no element of a shared
// container written in iteration i is read or written in an iteration j != i, for every
// value of the free symbols, over the accesses of all the body's states (inner loops
// propagated over their ranges) and the containers its control-flow code reads; undecided
// means refused. WCR writes may overlap other WCR writes of the same container with the same
// operator. Transients that each iteration writes before reading them and views used only
// in the body are local (loop_privatization.h): one per iteration. Symbols the body assigns
// must be assigned before they are read in each iteration, not used outside the loop, and
// neither the loop variable nor a symbol of the range.
// Apply: a one-state body whose shared access nodes are pure sources or sinks is wrapped in
// the map as it is (local containers inside); any other body becomes a nested SDFG
// (nest_region.h) in a state wrapped by the map. Memlets crossing the map are propagated
// over it.
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
