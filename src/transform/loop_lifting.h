// LoopLifting (DaCe's name, dace/transformation/interstate/loop_lifting.py): replaces each
// natural for-loop written as a state machine (loop_detection.h) by a LoopRegion holding the
// body blocks, with init, condition, update and loop variable taken from the init, body and
// back edges. Assignments on the init edge other than the loop variable's stay on the edge
// into the loop; those on the back edge move onto an edge to a new empty state at the end of
// the body (evaluated before the update, as the simultaneous edge assignments were).
// Outer loops are lifted first and their bodies searched afterwards, in cfg_list order, so the
// result does not depend on anything but the input.
#pragma once
#include "transform/pass.h"

namespace dace::transform {

class LoopLifting : public Pass {
 public:
  std::string_view name() const override { return "LoopLifting"; }
  Modifies modifies() const override { return Modifies::States | Modifies::InterstateEdges; }
  Modifies depends_on() const override { return Modifies::States | Modifies::InterstateEdges; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;
};

}  // namespace dace::transform
