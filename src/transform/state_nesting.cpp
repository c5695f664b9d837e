#include "transform/state_nesting.h"

#include <algorithm>
#include <functional>

#include "ir/sdfg.h"

namespace dace::transform {
namespace {

// Whether `state` belongs to a nested SDFG (its outermost region has a parent node).
bool is_nested(const ir::State& state) {
  const ir::ControlFlowRegion* top = state.parent;
  while (top && top->parent) top = top->parent;
  return top && top->kind == ir::BlockKind::SDFG && static_cast<const ir::SDFG*>(top)->parent_node;
}

}  // namespace

bool StateNesting::walked(const ir::State* state) const {
  return std::binary_search(walked_.begin(), walked_.end(), state, std::less<const ir::State*>());
}

void StateNesting::note(const ir::State& state) {
  if (walked(&state)) return;
  walk(state);
  if (!is_nested(state)) return;
  for (const auto& [inner, holder] : holders_)
    if (inner == &state) return;
  unplaced_.push_back(&state);
}

void StateNesting::walk(const ir::State& state) {
  auto at = std::lower_bound(walked_.begin(), walked_.end(), &state, std::less<const ir::State*>());
  if (at != walked_.end() && *at == &state) return;
  walked_.insert(at, &state);
  for (int n = 0; n < state.node_slots(); ++n) {  // slots, not node_ids(): no list to allocate
    const ir::Node* node = state.node(n);
    if (!node || node->kind != ir::NodeKind::NestedSDFG) continue;
    const auto& nested = static_cast<const ir::NestedSDFGNode&>(*node);
    if (!nested.sdfg) continue;
    for (const ir::State* inner : std::as_const(*nested.sdfg).all_states()) {
      holders_.emplace_back(inner, &state);
      std::erase(unplaced_, inner);
      walk(*inner);
    }
  }
}

void StateNesting::forget(const ir::State* state, std::vector<const ir::State*>& nested) {
  auto at = std::lower_bound(walked_.begin(), walked_.end(), state, std::less<const ir::State*>());
  if (at != walked_.end() && *at == state) walked_.erase(at);
  std::vector<const ir::State*> inner;
  std::erase_if(holders_, [&](const auto& h) {
    if (h.second != state) return false;
    inner.push_back(h.first);
    return true;
  });
  for (const ir::State* s : inner) {
    std::erase_if(holders_, [&](const auto& h) { return h.first == s; });
    nested.push_back(s);
    forget(s, nested);
  }
}

std::vector<const ir::State*> StateNesting::take_nested_in(const ir::State* state) {
  std::vector<const ir::State*> nested;
  forget(state, nested);
  return nested;
}

std::vector<const ir::State*> StateNesting::take_unplaced() {
  std::vector<const ir::State*> out;
  for (const ir::State* s : unplaced_) {
    out.push_back(s);
    forget(s, out);
  }
  unplaced_.clear();
  return out;
}

}  // namespace dace::transform
