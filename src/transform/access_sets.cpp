#include "transform/access_sets.h"

#include "ir/sdfg.h"
#include "transform/analysis_manager.h"
#include "transform/symbol_use.h"

namespace dace::transform {

AccessSets AccessSets::compute(const ir::State& state) {
  AccessSets a;
  for (int id : state.node_ids()) {
    const ir::Node* n = state.node(id);
    if (n->kind != ir::NodeKind::Access) continue;
    const std::string& d = static_cast<const ir::AccessNode*>(n)->data;
    a.present.insert(d);
    for (int e : state.out_edges(id))
      if (!state.edge(e)->memlet.is_empty()) {
        a.read.insert(d);
        break;
      }
    for (int e : state.in_edges(id))
      if (!state.edge(e)->memlet.is_empty()) {
        a.written.insert(d);
        break;
      }
  }
  return a;
}

ScopeAccessSets ScopeAccessSets::compute(const ir::State& state, const ScopeTree& scopes) {
  ScopeAccessSets out;
  for (int id : state.node_ids()) {
    if (!scopes.is_entry[static_cast<size_t>(id)]) continue;
    AccessSets& a = out.by_entry[id];
    for (int e : state.in_edges(id))
      if (const ir::Memlet& m = state.edge(e)->memlet; !m.is_empty()) a.read.insert(m.data);
    if (const int exit = scopes.exit_of(id); exit >= 0)
      for (int e : state.out_edges(exit))
        if (const ir::Memlet& m = state.edge(e)->memlet; !m.is_empty()) a.written.insert(m.data);
  }
  // An access node counts for every scope around it.
  for (int id : state.node_ids()) {
    const ir::Node* n = state.node(id);
    if (n->kind != ir::NodeKind::Access) continue;
    const std::string& d = static_cast<const ir::AccessNode*>(n)->data;
    bool read = false, written = false;
    for (int e : state.out_edges(id)) read = read || !state.edge(e)->memlet.is_empty();
    for (int e : state.in_edges(id)) written = written || !state.edge(e)->memlet.is_empty();
    for (int p = scopes.parent[static_cast<size_t>(id)]; p >= 0; p = scopes.parent[static_cast<size_t>(p)]) {
      AccessSets& a = out.by_entry[p];
      a.present.insert(d);
      if (read) a.read.insert(d);
      if (written) a.written.insert(d);
    }
  }
  return out;
}

const AccessSets& ScopeAccessSets::of(int entry) const {
  static const AccessSets kNone;
  auto it = by_entry.find(entry);
  return it == by_entry.end() ? kNone : it->second;
}

void collect_region_code_names(const ir::ControlFlowRegion& region, std::set<std::string>& out) {
  for (int es : region.edge_slots()) {
    const ir::InterstateEdge& e = *region.edge(es);
    out.merge(identifiers_in(e.condition.code));
    for (const auto& [lhs, rhs] : e.assignments) out.merge(identifiers_in(rhs));
  }
  for (int slot : region.block_slots()) collect_code_names(*region.block(slot), out);
}

void collect_code_names(const ir::ControlFlowBlock& b, std::set<std::string>& out) {
  switch (b.kind) {
    case ir::BlockKind::Loop: {
      const auto& l = static_cast<const ir::LoopRegion&>(b);
      for (const ir::CodeBlock* c : {&l.init_statement, &l.loop_condition, &l.update_statement})
        out.merge(identifiers_in(c->code));
      collect_region_code_names(l, out);
      break;
    }
    case ir::BlockKind::Region: collect_region_code_names(static_cast<const ir::ControlFlowRegion&>(b), out); break;
    case ir::BlockKind::Conditional:
      for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(b).branches) {
        if (cond) out.merge(identifiers_in(cond->code));
        if (branch) collect_region_code_names(*branch, out);
      }
      break;
    default: break;
  }
}

namespace {

void add_states(const ir::ControlFlowBlock& b, AnalysisManager& am, AccessSets& out) {
  auto add_region = [&](const ir::ControlFlowRegion& r) {
    for (int slot : r.block_slots()) add_states(*r.block(slot), am, out);
  };
  switch (b.kind) {
    case ir::BlockKind::State: {
      const AccessSets& s = am.access_sets(static_cast<const ir::State&>(b));
      out.read.insert(s.read.begin(), s.read.end());
      out.written.insert(s.written.begin(), s.written.end());
      break;
    }
    case ir::BlockKind::Loop: add_region(static_cast<const ir::LoopRegion&>(b)); break;
    case ir::BlockKind::Region: add_region(static_cast<const ir::ControlFlowRegion&>(b)); break;
    case ir::BlockKind::Conditional:
      for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(b).branches)
        if (branch) add_region(*branch);
      break;
    default: break;
  }
}

}  // namespace

AccessSets block_access_sets(const ir::SDFG& sdfg, const ir::ControlFlowBlock& block, AnalysisManager& am) {
  AccessSets out;
  add_states(block, am, out);
  std::set<std::string> names;
  collect_code_names(block, names);
  for (const std::string& n : names)
    if (sdfg.arrays.count(n)) out.read.insert(n);
  return out;
}

}  // namespace dace::transform
