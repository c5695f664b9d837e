#include "transform/inline_sdfgs.h"

#include <vector>

#include "transform/inline_multistate_sdfg.h"
#include "transform/inline_sdfg.h"

namespace dace::transform {
namespace {

struct Candidate {
  ir::SDFG* owner;
  ir::State* state;
  const ir::Node* node;
};

// Nested SDFG nodes in pre-order (a node, then what it nests, then the next node).
void collect(ir::SDFG& sdfg, std::vector<Candidate>& out) {
  std::vector<ir::State*> states = sdfg.all_states();
  for (ir::State* s : states)
    for (int id : s->node_ids())
      if (ir::Node* n = s->node(id); n->kind == ir::NodeKind::NestedSDFG) {
        out.push_back({&sdfg, s, n});
        if (auto& inner = static_cast<ir::NestedSDFGNode*>(n)->sdfg) collect(*inner, out);
      }
}

// Whether the hierarchy's control flow is states only (no loop regions, conditional blocks or
// other regions at any depth): DaCe 1.0.2 skips multi-state inlining otherwise (its
// InlineMultistateSDFG is single_level_sdfg_only, keyed on the root's experimental blocks).
bool states_only_everywhere(const ir::SDFG& sdfg) {
  bool only = true;
  sdfg.for_each_block([&](const ir::ControlFlowBlock& b) {
    if (b.kind != ir::BlockKind::State) only = false;
  });
  if (!only) return false;
  for (const ir::State* s : sdfg.all_states())
    for (int id : s->node_ids())
      if (const ir::Node* n = s->node(id); n->kind == ir::NodeKind::NestedSDFG) {
        const auto& inner = static_cast<const ir::NestedSDFGNode*>(n)->sdfg;
        if (inner && !states_only_everywhere(*inner)) return false;
      }
  return true;
}

int slot_of(const ir::State& s, const ir::Node* n) {
  for (int id : s.node_ids())
    if (s.node(id) == n) return id;
  return -1;
}

}  // namespace

Result<bool> InlineSDFGs::apply(ir::SDFG& sdfg, AnalysisManager& am) {
  std::vector<Candidate> candidates;
  collect(sdfg, candidates);
  bool changed = false;
  const bool multistate = multistate_ && states_only_everywhere(sdfg);
  // Inlining a node moves only what it nests (already visited) into its own state or, with the
  // multi-state inliner, into its state's region, so the owners recorded for the nodes still to
  // visit stay valid. Their states may not: the multi-state inliner moves what depends on the
  // call into a new state, so a node not in its recorded state is looked up again (DaCe
  // re-reads each node's parent state for the same reason).
  for (auto it = candidates.rbegin(); it != candidates.rend(); ++it) {
    int id = slot_of(*it->state, it->node);
    for (ir::State* s : id < 0 ? it->owner->all_states() : std::vector<ir::State*>{})
      if (id = slot_of(*s, it->node); id >= 0) {
        it->state = s;
        break;
      }
    if (id < 0) continue;
    // As DaCe's inline_sdfgs: the multi-state inliner first, then the single-state one.
    if (multistate) {
      InlineMultistateSDFG m;
      if (m.can_inline(*it->owner, *it->state, id)) {
        Status s = m.inline_node(*it->owner, *it->state, id);
        if (!s.ok()) return s.error();
        changed = true;
        continue;
      }
    }
    InlineSDFG t;
    if (!t.can_inline(*it->owner, *it->state, id)) continue;
    Status s = t.inline_node(*it->owner, *it->state, id);
    if (!s.ok()) return s.error();
    changed = true;
  }
  if (changed) am.invalidate(modifies());
  return changed;
}

}  // namespace dace::transform
