#include "transform/array_elimination.h"

#include <map>
#include <string>
#include <vector>

#include "transform/redundant_array.h"
#include "transform/redundant_second_array.h"
#include "transform/view_elimination.h"

namespace dace::transform {
namespace {

// Access nodes of one container that are all sources (no in-edges) or all sinks (no
// out-edges) of a state are unordered with respect to each other and to every other access
// of the container in the state; one node can carry all their edges. Views, references and
// streams (whose nodes mean more than "the container"), nodes with connectors or `setzero`,
// and isolated nodes are left alone.
bool merge_access_nodes(const ir::SDFG& sdfg, ir::State& s, bool sources) {
  std::map<std::string, std::vector<int>> groups;
  for (int id : s.node_ids()) {
    const ir::Node& n = *s.node(id);
    if (n.kind != ir::NodeKind::Access || !n.in_connectors.empty() || !n.out_connectors.empty()) continue;
    const auto& an = static_cast<const ir::AccessNode&>(n);
    if (an.setzero) continue;
    auto d = sdfg.arrays.find(an.data);
    if (d == sdfg.arrays.end() || (d->second.kind != ir::DataKind::Array && d->second.kind != ir::DataKind::Scalar)) continue;
    const bool no_in = s.in_edges(id).empty(), no_out = s.out_edges(id).empty();
    if (no_in && no_out) continue;
    if (sources ? no_in : no_out) groups[an.data].push_back(id);
  }
  bool changed = false;
  for (const auto& [data, ids] : groups) {
    // node_ids() is ascending, so the kept node is the group's lowest id: deterministic.
    for (size_t k = 1; k < ids.size(); ++k) {
      for (int e : sources ? s.out_edges(ids[k]) : s.in_edges(ids[k])) {
        const ir::DataflowEdge& edge = *s.edge(e);
        if (sources) s.set_edge_ends(e, ids[0], edge.dst);
        else s.set_edge_ends(e, edge.src, ids[0]);
      }
      s.remove_node(ids[k]);
      changed = true;
    }
  }
  return changed;
}

bool merge_all(ir::SDFG& sdfg) {
  bool changed = false;
  for (ir::State* s : sdfg.all_states()) {
    for (int id : s->node_ids())
      if (s->node(id)->kind == ir::NodeKind::NestedSDFG)
        if (auto& inner = static_cast<ir::NestedSDFGNode*>(s->node(id))->sdfg) changed |= merge_all(*inner);
    changed |= merge_access_nodes(sdfg, *s, true);
    changed |= merge_access_nodes(sdfg, *s, false);
  }
  return changed;
}

bool remove_views(ir::SDFG& sdfg) {
  bool changed = false;
  for (ir::State* s : sdfg.all_states())
    for (int id : s->node_ids())
      if (s->node(id)->kind == ir::NodeKind::NestedSDFG)
        if (auto& inner = static_cast<ir::NestedSDFGNode*>(s->node(id))->sdfg) changed |= remove_views(*inner);
  changed |= remove_redundant_read_views(sdfg);
  return remove_redundant_write_views(sdfg) || changed;
}

}  // namespace

Result<bool> ArrayElimination::apply(ir::SDFG& sdfg, AnalysisManager& am) {
  // Views first: the array's nodes they hung on are then duplicates that the merge joins.
  bool changed = remove_views(sdfg);
  changed |= merge_all(sdfg);
  if (changed) am.invalidate(modifies());
  // Both transformations match the same `in_array -> out_array` copies. At each copy, in
  // canonical order, removing the first array is tried before removing the second, as DaCe's
  // pass tries its "first" transformations before its "second" ones on a node. After an
  // application enumerate again: nodes went, so the remaining matches' ids are stale.
  RedundantArray first;
  RedundantSecondArray second;
  for (bool again = true; again;) {
    again = false;
    for (const Match& m : first.enumerate(sdfg, am)) {
      SingleStateTransformation* t = first.can_be_applied(sdfg, m, am)    ? static_cast<SingleStateTransformation*>(&first)
                                     : second.can_be_applied(sdfg, m, am) ? &second
                                                                          : nullptr;
      if (!t) continue;
      DACE_TRY(t->apply(sdfg, m, am));
      again = changed = true;
      break;
    }
  }
  return changed;
}

}  // namespace dace::transform
