#include "transform/dead_dataflow_elimination.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "transform/access_sets.h"

namespace dace::transform {
namespace {

const std::string* data_of(const ir::Node& n) {
  return n.kind == ir::NodeKind::Access ? &static_cast<const ir::AccessNode&>(n).data : nullptr;
}

// Containers whose written value may be observed outside `state`: read by another state (its
// cached access sets, rescanned only for states this pass edited) or named by control flow.
struct Observed {
  const std::vector<ir::State*>& states;
  AnalysisManager& am;
  std::set<std::string> by_control_flow;
  bool elsewhere(const ir::State* state, const std::string& d) const {
    if (by_control_flow.count(d)) return true;
    for (const ir::State* s : states)
      if (s != state && am.access_sets(*s).read.count(d)) return true;
    return false;
  }
};

// Whether the value an access node holds could only be observed through this state's edges.
bool removable_container(const ir::SDFG& sdfg, const std::string& d) {
  auto it = sdfg.arrays.find(d);
  if (it == sdfg.arrays.end()) return false;
  const ir::DataDescriptor& desc = it->second;
  if (!desc.transient) return false;
  if (desc.kind == ir::DataKind::View || desc.kind == ir::DataKind::Reference || desc.kind == ir::DataKind::Stream)
    return false;
  return desc.lifetime == ir::Lifetime::Scope || desc.lifetime == ir::Lifetime::State || desc.lifetime == ir::Lifetime::SDFG;
}

// The dead nodes of one state: the largest set closed under the rules in the header.
std::set<int> dead_nodes(const ir::SDFG& sdfg, const ir::State& s, const Observed& obs) {
  std::set<int> dead;
  std::map<std::string, std::vector<int>> by_data;
  for (int id : s.node_ids()) {
    const ir::Node& n = *s.node(id);
    bool candidate = false;
    switch (n.kind) {
      case ir::NodeKind::Access: {
        const std::string& d = *data_of(n);
        by_data[d].push_back(id);
        const bool read_only = s.in_edges(id).empty();
        // An isolated node was put there by someone; only nodes that lose their readers go.
        if (read_only) candidate = !s.out_edges(id).empty();
        else candidate = removable_container(sdfg, d) && !obs.elsewhere(&s, d);
        break;
      }
      case ir::NodeKind::Tasklet:
        candidate = !static_cast<const ir::Tasklet&>(n).side_effects && !s.out_edges(id).empty();
        break;
      case ir::NodeKind::MapEntry: candidate = true; break;
      case ir::NodeKind::MapExit: candidate = !s.out_edges(id).empty(); break;
      default: break;  // consume scopes, nested SDFGs, library nodes stay
    }
    if (candidate) dead.insert(id);
  }
  // Shrink to the greatest fixed point: a node stays dead only while everything it feeds is
  // dead, nothing live writes into it except access nodes and map entries (whose edges can go
  // without touching a computation), every other node of a written container is dead too, and
  // its scope partner is dead.
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = dead.begin(); it != dead.end();) {
      const int id = *it;
      const ir::Node& n = *s.node(id);
      bool live = false;
      for (int e : s.out_edges(id)) live |= !dead.count(s.edge(e)->dst);
      for (int e : s.in_edges(id)) {
        const int src = s.edge(e)->src;
        const ir::NodeKind k = s.node(src)->kind;
        live |= !dead.count(src) && k != ir::NodeKind::Access && k != ir::NodeKind::MapEntry;
      }
      if (const std::string* d = data_of(n); d && !s.in_edges(id).empty())
        for (int other : by_data[*d]) live |= !dead.count(other);
      if (n.kind == ir::NodeKind::MapEntry) live |= !dead.count(s.exit_of(id));
      if (n.kind == ir::NodeKind::MapExit) live |= !dead.count(static_cast<const ir::MapExit&>(n).entry);
      if (live) {
        it = dead.erase(it);
        changed = true;
      } else {
        ++it;
      }
    }
  }
  return dead;
}

// After dead nodes went, a live map entry may keep an out connector nothing reads: remove it,
// its in connector and the edge that fed it, repeatedly (the feeder may be another entry).
// Access nodes left without any edge were only there for the removed readers.
void tidy(ir::State& s, const std::set<int>& touched) {
  std::set<int> work(touched.begin(), touched.end());
  while (!work.empty()) {
    const int id = *work.begin();
    work.erase(work.begin());
    ir::Node* n = s.node(id);
    if (!n) continue;
    if (n->kind == ir::NodeKind::Access && s.in_edges(id).empty() && s.out_edges(id).empty()) {
      s.remove_node(id);
      continue;
    }
    if (n->kind != ir::NodeKind::MapEntry) continue;
    std::set<std::string> used;
    for (int e : s.out_edges(id)) used.insert(s.edge(e)->src_conn);
    for (auto c = n->out_connectors.begin(); c != n->out_connectors.end();) {
      if (used.count(c->first) || !c->first.starts_with("OUT_")) {
        ++c;
        continue;
      }
      const std::string in = "IN_" + c->first.substr(4);
      for (int e : s.in_edges(id))
        if (s.edge(e)->dst_conn == in) {
          work.insert(s.edge(e)->src);
          s.remove_edge(e);
        }
      n->in_connectors.erase(in);
      c = n->out_connectors.erase(c);
    }
  }
}

bool eliminate(ir::SDFG& sdfg, AnalysisManager& am) {
  bool changed = false;
  const std::vector<ir::State*> states = sdfg.all_states();
  // Nested SDFGs first: their transients are private to them.
  for (ir::State* s : states)
    for (int id : s->node_ids())
      if (s->node(id)->kind == ir::NodeKind::NestedSDFG)
        if (auto& inner = static_cast<ir::NestedSDFGNode*>(s->node(id))->sdfg) changed |= eliminate(*inner, am);
  const Observed obs{states, am, control_flow_names(sdfg)};
  std::set<std::string> removed_data;
  constexpr Modifies modifies_of_one_state = Modifies::Nodes | Modifies::Memlets;
  for (ir::State* s : states) {
    const std::set<int> dead = dead_nodes(sdfg, *s, obs);
    if (dead.empty()) continue;
    std::set<int> touched;
    for (int id : dead)
      for (int e : s->in_edges(id))
        if (!dead.count(s->edge(e)->src)) touched.insert(s->edge(e)->src);
    for (int id : dead) {
      if (const std::string* d = data_of(*s->node(id))) removed_data.insert(*d);
      s->remove_node(id);
    }
    tidy(*s, touched);
    changed = true;
    // The state's reads changed: later states see the new picture.
    am.invalidate(*s, modifies_of_one_state);
  }
  // Drop the descriptors of removed transients that no access node names any more.
  std::set<std::string> still;
  for (const ir::State* s : states)
    for (int id : s->node_ids())
      if (const std::string* d = data_of(*s->node(id))) still.insert(*d);
  for (const std::string& d : removed_data) {
    auto it = sdfg.arrays.find(d);
    if (it != sdfg.arrays.end() && it->second.transient && !still.count(d) && !obs.by_control_flow.count(d))
      sdfg.arrays.erase(it);
  }
  return changed;
}

}  // namespace

std::set<std::string> control_flow_names(const ir::SDFG& sdfg) {
  std::set<std::string> out;
  collect_region_code_names(sdfg, out);
  return out;
}

Result<bool> DeadDataflowElimination::apply(ir::SDFG& sdfg, AnalysisManager& am) { return eliminate(sdfg, am); }

}  // namespace dace::transform
