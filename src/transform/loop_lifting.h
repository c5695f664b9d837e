// LoopLifting (DaCe's name and pattern, dace/transformation/interstate/loop_lifting.py): a
// natural for-loop written as a state machine (loop_detection.h) becomes a LoopRegion with the
// init, condition, update and loop variable of its init, body and back edges.
//
// The pattern is DaCe's DetectLoop for natural loops, blocks (loop_guard, loop_begin,
// exit_state) of one region: expression 0 when the body is the single block loop_begin (it
// leads straight back to the guard), expression 1 otherwise. So our history entries name the
// blocks and expression DaCe 1.0.2 expects, and its LoopLifting replays them.
//
// Apply follows DaCe's: the guard moves into the loop as its (empty) start block, joined to
// the body's first block by an unconditional edge (StateFusion removes it later); then come the
// body blocks in their former order. Init-edge assignments other than the loop variable's stay
// on the edge into the loop; those of the back edge move onto an edge from the latch to a new
// empty state `<loop>_tail` (evaluated before the update, as the simultaneous edge assignments
// were); the exit edge keeps its assignments and becomes unconditional. Legality is stricter
// than DaCe's (loop_detection.h): e.g. a loop variable read after the loop is refused.
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class LoopLifting : public ControlFlowTransformation {
 public:
  std::string_view name() const override { return "LoopLifting"; }
  Modifies modifies() const override { return Modifies::States | Modifies::InterstateEdges; }

 protected:
  void region_matches(const ir::ControlFlowRegion& region, std::vector<std::vector<int>>& out) override;
  int expr_index_of(const ir::ControlFlowRegion& region, const std::vector<int>& blocks) const override;
  bool can_apply(const Site& site, const std::vector<int>& blocks) override;
  Status apply_at(const Site& site, const std::vector<int>& blocks) override;
  size_t pattern_size() const override { return 3; }
};

}  // namespace dace::transform
