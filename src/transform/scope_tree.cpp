#include "transform/scope_tree.h"

#include <algorithm>

namespace dace::transform {

ScopeTree ScopeTree::compute(const ir::State& state) {
  ScopeTree t;
  t.parent = state.scope_parents();
  const size_t n = static_cast<size_t>(state.node_slots());
  t.parent.resize(n, -1);
  t.partner.assign(n, -1);
  t.children.assign(n + 1, {});
  t.is_entry.assign(n, 0);
  for (int id : state.node_ids()) {
    const ir::Node* node = state.node(id);
    t.is_entry[static_cast<size_t>(id)] = node->is_scope_entry() ? 1 : 0;
    int entry = -1;
    if (node->kind == ir::NodeKind::MapExit) entry = static_cast<const ir::MapExit*>(node)->entry;
    if (node->kind == ir::NodeKind::ConsumeExit) entry = static_cast<const ir::ConsumeExit*>(node)->entry;
    if (entry >= 0 && entry < static_cast<int>(n)) {
      t.partner[static_cast<size_t>(id)] = entry;
      t.partner[static_cast<size_t>(entry)] = id;
    }
    const int p = t.parent[static_cast<size_t>(id)];
    if (p >= -1 && p < static_cast<int>(n)) t.children[static_cast<size_t>(p + 1)].push_back(id);
  }
  return t;
}

std::vector<int> ScopeTree::scope_nodes(int entry) const {
  std::vector<int> out, stack{entry};
  while (!stack.empty()) {
    const int e = stack.back();
    stack.pop_back();
    for (int c : children_of(e)) {
      out.push_back(c);
      if (is_entry[static_cast<size_t>(c)]) stack.push_back(c);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool ScopeTree::is_inside(int node, int entry) const {
  for (int p = node >= 0 && node < static_cast<int>(parent.size()) ? parent[static_cast<size_t>(node)] : -1; p >= 0;
       p = parent[static_cast<size_t>(p)])
    if (p == entry) return true;
  return false;
}

}  // namespace dace::transform
