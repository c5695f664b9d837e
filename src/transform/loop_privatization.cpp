#include "transform/loop_privatization.h"

#include <set>

#include "analysis/sets.h"
#include "transform/symbol_use.h"

namespace dace::transform {
namespace {

// Whether control-flow code anywhere in `region` (edges, loop headers, branch conditions)
// mentions `name`: such a container is read outside the dataflow.
bool named_by_control_flow(const ir::ControlFlowRegion& region, const std::string& name) {
  for (int es : region.edge_slots()) {
    const ir::InterstateEdge& e = *region.edge(es);
    if (mentions(e.condition.code, name)) return true;
    for (const auto& [lhs, rhs] : e.assignments)
      if (lhs == name || mentions(rhs, name)) return true;
  }
  for (int slot : region.block_slots()) {
    const ir::ControlFlowBlock& b = *region.block(slot);
    if (b.kind == ir::BlockKind::Loop) {
      const auto& l = static_cast<const ir::LoopRegion&>(b);
      for (const ir::CodeBlock* c : {&l.init_statement, &l.loop_condition, &l.update_statement})
        if (mentions(c->code, name)) return true;
    }
    if (b.kind == ir::BlockKind::Loop || b.kind == ir::BlockKind::Region) {
      if (named_by_control_flow(static_cast<const ir::ControlFlowRegion&>(b), name)) return true;
    } else if (b.kind == ir::BlockKind::Conditional) {
      for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(b).branches) {
        if (cond && mentions(cond->code, name)) return true;
        if (branch && named_by_control_flow(*branch, name)) return true;
      }
    }
  }
  return false;
}

bool plain(const ir::Memlet& m, const std::string& data) {
  return !m.is_empty() && m.data == data && !m.other_subset && m.wcr.empty();
}

}  // namespace

bool privatizable(const ir::SDFG& sdfg, const ir::State& body, const std::string& data, std::string& why) {
  why = "'" + data + "' is written and read in the body and cannot be privatized: ";
  auto it = sdfg.arrays.find(data);
  if (it == sdfg.arrays.end()) return why += "undeclared", false;
  const ir::DataDescriptor& d = it->second;
  if (!d.transient || (d.kind != ir::DataKind::Array && d.kind != ir::DataKind::Scalar) ||
      d.lifetime != ir::Lifetime::Scope)
    return why += "not a scope-lifetime transient array or scalar", false;
  for (const ir::State* s : sdfg.all_states()) {
    if (s == &body) continue;
    for (int n : s->node_ids())
      if (s->node(n)->kind == ir::NodeKind::Access && static_cast<const ir::AccessNode&>(*s->node(n)).data == data)
        return why += "another state uses it", false;
  }
  if (named_by_control_flow(sdfg, data)) return why += "control flow names it", false;
  for (int n : body.node_ids()) {
    if (body.node(n)->kind != ir::NodeKind::Access || static_cast<const ir::AccessNode&>(*body.node(n)).data != data)
      continue;
    const std::vector<int> ins = body.in_edges(n);
    if (ins.empty()) return why += "read before it is written", false;
    for (int e : ins) {
      const ir::DataflowEdge& de = *body.edge(e);
      if (body.node(de.src)->kind != ir::NodeKind::Tasklet || !plain(de.memlet, data) || de.memlet.dynamic)
        return why += "a write that is not a plain tasklet write", false;
    }
    for (int e : body.out_edges(n)) {
      const ir::DataflowEdge& de = *body.edge(e);
      if (body.node(de.dst)->kind == ir::NodeKind::Access || !plain(de.memlet, data))
        return why += "a read that is not a plain memlet into a computation", false;
      bool covered = false;
      for (int w : ins) {
        // Within one iteration every symbol has one value, but which one is unknown: any sign.
        const sym::Subset& ws = body.edge(w)->memlet.subset;
        sym::Assumptions as;
        for (const sym::Subset* sub : {&ws, &de.memlet.subset}) as.unrestricted.merge(free_symbols(*sub));
        if (analysis::subset_covers(ws, de.memlet.subset, as) == true) covered = true;
      }
      if (!covered) return why += "a read not covered by a write of the same iteration", false;
    }
  }
  return true;
}

}  // namespace dace::transform
