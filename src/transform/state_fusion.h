// StateFusion (DaCe's name; a strict subset of its legality): fuses state B into state A when
// A -> B is the only edge out of A and into B, unconditional and without assignments, and the
// fused dataflow keeps every order that the state boundary imposed:
//  - no container is written in both states (write after write);
//  - a container read in A and written in B (write after read) is fused only when a merged
//    container orders the two: every path out of A's reads runs into A's node of a container
//    that B reads, and everything writing the container in B hangs below that read;
//  - a container written in A and read in B is accessed in A by exactly one top-level access
//    node and in B only by top-level, read-only access nodes, which are merged into A's node so
//    that B's reads hang below A's writes (read after write);
//  - no Reference containers (their aliasing is unknown); no effects outside the dataflow
//    (side-effect tasklets, also in nested SDFGs, or MPI Wait/Waitall) unless the other
//    state is empty.
//  - the second state has at most one source access node per container (as DaCe).
// An empty first state is removed and the second takes its place (DaCe does the same, so
// the ids of later history entries agree with DaCe's); otherwise the second state's nodes
// move into the first. Anything else is refused: fusion is an optimization, a wrong one is a miscompile.
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class StateFusion : public ControlFlowTransformation {
 public:
  std::string_view name() const override { return "StateFusion"; }
  // Nodes of every kind move to the first state (and merged access nodes go).
  Modifies modifies() const override { return Modifies::States | Modifies::InterstateEdges | Modifies::Nodes | Modifies::Memlets; }

 protected:
  size_t pattern_size() const override { return 2; }  // first_state, second_state
  void region_matches(const ir::ControlFlowRegion& region, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& blocks) override;
  Status apply_at(const Site& site, const std::vector<int>& blocks) override;
};

}  // namespace dace::transform
