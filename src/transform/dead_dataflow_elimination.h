// DeadDataflowElimination (DaCe's name): removes computations whose results nobody reads.
// In each state, an access node of a transient that no other state reads (and that no
// interstate code, loop or branch condition names) is dead when everything it feeds is dead;
// deadness then spreads backwards to the tasklets, map scopes and copies that only feed dead
// nodes. Kept always: non-transient data, views, references, streams, persistent or
// externally allocated transients, side-effect tasklets, tasklets without outputs, library
// nodes and nested SDFGs (their effects are not all on their edges), consume scopes, and
// any node that a live tasklet, library node, nested SDFG or scope exit writes into (the
// pass never removes part of a live node's outputs). A read-only access node whose readers
// all die goes too. Descriptors whose last access node was removed are dropped. Nested SDFGs
// are processed as SDFGs of their own.
//
// "Read elsewhere" is decided over the whole SDFG, not along paths of the state machine:
// a transient read by any other state is live. This is more conservative than DaCe's
// reachability, and right for loops without reasoning about them.
#pragma once
#include <set>
#include <string>

#include "transform/pass.h"

namespace dace::transform {

class DeadDataflowElimination : public Pass {
 public:
  std::string_view name() const override { return "DeadDataflowElimination"; }
  Modifies modifies() const override { return Modifies::Nodes | Modifies::Memlets | Modifies::Descriptors; }
  Modifies depends_on() const override { return Modifies::States | Modifies::Edges | Modifies::Nodes | Modifies::Descriptors; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;
};

// Every identifier that interstate code of `sdfg` (not of nested SDFGs) mentions: edge
// conditions and assignments, loop statements, branch conditions. A superset of the
// containers control flow reads.
std::set<std::string> control_flow_names(const ir::SDFG& sdfg);

}  // namespace dace::transform
