#include "transform/inline_sdfgs.h"

#include <vector>

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
  // Inlining a node moves only what it nests (already visited) into its own state, so the
  // owners and states recorded for the nodes still to visit stay valid.
  for (auto it = candidates.rbegin(); it != candidates.rend(); ++it) {
    const int id = slot_of(*it->state, it->node);
    if (id < 0) continue;
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
