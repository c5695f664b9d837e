// If/else written as a state machine: a block with two or more conditional out-edges whose
// branches join again (or all end the region). The join is the branch block's immediate
// post-dominator in its region, with one virtual exit behind every block without out-edges;
// each branch is what its out-edge reaches before the join. A branch structure is raised
// only when it is single-entry single-exit: branches disjoint, each entered only through its
// out-edge of the branch block, left only towards the join, and nothing reaching the branch
// block again (a loop guard the loop lifting did not take). The conditions of the branch
// block, and of every block inside a branch, must leave no case open (an unconditional edge,
// or two edges that negate each other): in a state machine no applicable out-edge ends the
// region there, while a branch region would continue after the conditional.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ir/control_flow.h"

namespace dace::transform {

struct Branching {
  int block = -1;                       // the branching block (slot)
  int join = -1;                        // the block where the branches meet; -1: the region's end
  std::vector<int> out_edges;           // the branch block's out-edges, in edge order
  std::vector<std::vector<int>> arms;   // per out-edge, the blocks of its branch (ascending)
};

// The branching at `block`, or nullopt with the reason (naming the block) in `why`.
std::optional<Branching> detect_branching(const ir::ControlFlowRegion& region, int block, std::string* why = nullptr);

}  // namespace dace::transform
