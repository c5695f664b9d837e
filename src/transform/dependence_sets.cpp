#include "transform/dependence_sets.h"

namespace dace::transform {
namespace {

// See AccessNodeMemlets::crosses_scope. Memlet paths through scope nodes name one container,
// so a node fed only from entries, or draining only into exits, is seen through them.
bool crosses_its_scope(const ir::State& s, int n, const std::string& data) {
  const std::vector<int> ins = s.in_edges(n);
  if (ins.empty()) return false;
  bool from_entry = true;
  for (int e : ins) {
    const ir::DataflowEdge& de = *s.edge(e);
    if (de.memlet.is_empty() || de.memlet.data != data) return false;
    from_entry = from_entry && s.node(de.src)->is_scope_entry();
  }
  if (from_entry) return true;
  for (int e : s.out_edges(n)) {
    const ir::DataflowEdge& de = *s.edge(e);
    if (!s.node(de.dst)->is_scope_exit() || de.memlet.is_empty() || de.memlet.data != data) return false;
  }
  return true;
}

std::optional<sym::Subset> subset_at(const ir::Memlet& m, const std::string& data) {
  if (m.data == data) return m.subset;
  if (m.other_subset) return *m.other_subset;
  return std::nullopt;
}

}  // namespace

DependenceSets DependenceSets::compute(const ir::State& s, const ScopeTree& scopes) {
  DependenceSets out;
  for (int n : s.node_ids()) {
    if (s.node(n)->kind != ir::NodeKind::Access) continue;
    AccessNodeMemlets a;
    a.node = n;
    a.data = static_cast<const ir::AccessNode&>(*s.node(n)).data;
    a.top_level = scopes.parent[static_cast<size_t>(n)] == -1;
    if (!a.top_level) {
      a.crosses_scope = crosses_its_scope(s, n, a.data);
      out.access_nodes.push_back(std::move(a));
      continue;
    }
    const std::vector<int> ins = s.in_edges(n), outs = s.out_edges(n);
    a.isolated = ins.empty() && outs.empty();
    for (bool write : {true, false})
      for (int e : write ? ins : outs) {
        const ir::Memlet& m = s.edge(e)->memlet;
        if (m.is_empty()) continue;
        a.memlets.push_back({subset_at(m, a.data), write, write ? m.wcr.get() : std::string()});
      }
    out.access_nodes.push_back(std::move(a));
  }
  return out;
}

}  // namespace dace::transform
