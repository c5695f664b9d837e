// InlineMultistateSDFG (DaCe's name and meaning, dace/transformation/interstate/
// multistate_inline.py): a nested SDFG call is replaced, in the control flow, by the nested
// SDFG's own blocks (several states, loop regions, conditional blocks). The calling state is
// split first as DaCe's two state fissions split it (call_isolation.h): it keeps what the call
// does not depend on or feed, leads to the nested start block, and every nested sink block
// leads to a new state `block` that takes over the state's out-edges and holds what depends on
// the call (so that DaCe replays the history into the same blocks). Inside, connector
// containers become the outer containers they were attached to, transients become outer
// transients (name kept, else `label_name`, then `_0`, `_1`...), the symbol mapping is
// substituted everywhere (in two steps, so `N -> M, M -> N` swaps), symbols the nested control
// flow assigns that clash with outer names are renamed (`name_0`, ...), and nested block labels
// that clash get `_0`, `_1`...
//
// Legal only when (DaCe's conditions, narrowed where DaCe fissions the state or rewrites what
// we do not): the node is not `no_inline`, is outside any scope (a schedule other than
// Default re-defaults the nested SDFG first, as DaCe does: default_schedules.h; GPU and FPGA
// schedules are refused), and
// its state can be split without losing an edge (call_isolation.h); each connector has one
// non-empty edge to or from an access node, reading or writing the whole outer container,
// which is not a view or reference, and whose shape and strides equal the inner ones after
// the symbol mapping; inner non-transient containers all have a connector; the nested SDFG has
// no global/init/exit code and no constant clashing with an outer one; every mapped or renamed
// symbol can be rewritten wherever it occurs (Python code, memlets, ranges, control flow; not
// C++ tasklets, library-node properties, loop variables). Refusals name the element.
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class InlineMultistateSDFG : public SingleStateTransformation {
 public:
  std::string_view name() const override { return "InlineMultistateSDFG"; }
  Modifies modifies() const override { return Modifies::Everything; }
  // For the InlineSDFGs pass, which visits nested SDFGs directly rather than by match.
  bool can_inline(ir::SDFG& sdfg, ir::State& state, int node);
  Status inline_node(ir::SDFG& sdfg, ir::State& state, int node);

 protected:
  size_t pattern_size() const override { return 1; }
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;
};

}  // namespace dace::transform
