// ControlFlowRaising (the name of newer DaCe's pass, dace/transformation/passes/simplification/
// control_flow_raising.py; DaCe 1.0.2 has no such class and cannot replay its history entry):
// raises the control flow of state machines into structured blocks. First every for-loop
// LoopLifting takes (loop_lifting.h), then every branching (branch_detection.h) becomes a
// ConditionalBlock with one branch region per out-edge of the branching block, in edge order,
// each with its edge's condition: the branch's blocks move into the region (the edge's
// assignments on an edge from a new `<branch>_start` state; edges into the join that carry a
// condition or assignments end in a new `<branch>_end` state; an empty branch holds one empty
// `noop` state), and the branching block is followed by the ConditionalBlock, which leads to
// the join (or ends the region when the branches never met). Branchings are raised one at a
// time, the first in cfg_list and then block order, until none is left, so the result depends
// only on the input. Not part of simplify, whose history DaCe 1.0.2 must replay.
#pragma once
#include "transform/pass.h"

namespace dace::transform {

class ControlFlowRaising : public Pass {
 public:
  std::string_view name() const override { return "ControlFlowRaising"; }
  Modifies modifies() const override { return Modifies::States | Modifies::InterstateEdges; }
  Modifies depends_on() const override { return Modifies::States | Modifies::InterstateEdges; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;
};

}  // namespace dace::transform
