// auto_optimize's placement of sequential time loops around parallel maps (issue 11):
// `for t: map (i, j, ...): body` becomes `map i: for t: map (j, ...): body`, DaCe's
// MoveLoopIntoMap applied after MapExpansion (expansion_limit 1) has split off the map's
// first dimension. DaCe moves the loop into the whole map instead, so each point runs the
// loop as a scalar, latency-bound chain; here the map over the remaining dimensions stays
// inside the loop, stride-1 and vectorizable, and each outer iteration's data stays in cache
// for all loop iterations, while the threads fork and join once per call instead of once
// per loop iteration (mandelbrot1). Applied where MoveLoopIntoMap is legal on the unsplit map
// and still legal after the split (checked on a copy first, so a refusal changes nothing);
// maps of one dimension are left in the loop (the loop inside would serialize the vector
// lanes). Both steps are recorded in the history under their own names.
#pragma once
#include "transform/pass.h"

namespace dace::transform {

class MoveLoopIntoOuterMapDimension : public Pass {
 public:
  std::string_view name() const override { return "MoveLoopIntoOuterMapDimension"; }
  Modifies modifies() const override {
    return Modifies::States | Modifies::InterstateEdges | Modifies::Nodes | Modifies::Memlets | Modifies::Symbols |
           Modifies::NestedSDFGs;
  }
  bool records_itself() const override { return true; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;
};

}  // namespace dace::transform
