#include "transform/loop_variable_use.h"

#include <set>
#include <utility>
#include <vector>

#include "ir/entry_block.h"
#include "ir/state.h"
#include "transform/symbol_use.h"

namespace dace::transform {
namespace {

bool expr_mentions(const sym::Expr& e, const std::string& name) { return e && sym::free_symbols(e).count(name) > 0; }

bool state_mentions(const ir::State& s, const std::string& name) {
  for (int e : s.edge_ids())
    if (free_symbols(s.edge(e)->memlet).count(name)) return true;
  for (int id : s.node_ids()) {
    const ir::Node& n = *s.node(id);
    if (node_code_mentions(n, name)) return true;
    switch (n.kind) {
      case ir::NodeKind::MapEntry:
        if (free_symbols(static_cast<const ir::MapEntry&>(n).map.range).count(name)) return true;
        break;
      case ir::NodeKind::ConsumeEntry: {
        const ir::ConsumeScope& c = static_cast<const ir::ConsumeEntry&>(n).consume;
        if (expr_mentions(c.num_pes, name) || expr_mentions(c.chunksize, name)) return true;
        break;
      }
      case ir::NodeKind::NestedSDFG:
        for (const auto& [inner, outer] : static_cast<const ir::NestedSDFGNode&>(n).symbol_mapping)
          if (expr_mentions(outer, name)) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

bool edge_reads(const ir::InterstateEdge& e, const std::string& name) {
  if (mentions(e.condition.code, name)) return true;
  for (const auto& [lhs, rhs] : e.assignments)
    if (mentions(rhs, name)) return true;
  return false;
}

bool edge_assigns(const ir::InterstateEdge& e, const std::string& name) {
  for (const auto& [lhs, rhs] : e.assignments)
    if (lhs == name) return true;
  return false;
}

using Seen = std::set<std::pair<const ir::ControlFlowRegion*, int>>;

bool after_region(const ir::ControlFlowRegion& region, const std::string& name, Seen& seen);

// Follows `edges` of `region` (and the blocks they reach) until each path assigns `name`.
bool walk(const ir::ControlFlowRegion& region, std::vector<int> edges, const std::string& name, Seen& seen) {
  bool reaches_end = false;
  while (!edges.empty()) {
    const ir::InterstateEdge& e = *region.edge(edges.back());
    edges.pop_back();
    if (edge_reads(e, name)) return true;
    if (edge_assigns(e, name) || !seen.insert({&region, e.dst}).second) continue;
    if (block_mentions(*region.block(e.dst), name)) return true;
    const std::vector<int> outs = region.out_edges(e.dst);
    reaches_end |= outs.empty();
    edges.insert(edges.end(), outs.begin(), outs.end());
  }
  return reaches_end && after_region(region, name, seen);
}

// What runs once `region` ends.
bool after_region(const ir::ControlFlowRegion& region, const std::string& name, Seen& seen) {
  if (region.kind == ir::BlockKind::SDFG) return false;  // nested SDFGs return no symbols
  const ir::ControlFlowRegion* parent = region.parent;
  if (region.kind != ir::BlockKind::Loop || !parent) return true;  // conservative
  const auto& loop = static_cast<const ir::LoopRegion&>(region);
  if (mentions(loop.update_statement.code, name) || mentions(loop.loop_condition.code, name)) return true;
  // The next iteration, from the body's entry block.
  const int entry = ir::entry_block(loop);
  if (entry >= 0 && seen.insert({&loop, entry}).second) {
    if (block_mentions(*loop.block(entry), name)) return true;
    if (walk(loop, loop.out_edges(entry), name, seen)) return true;
  }
  // After the loop, in the enclosing region.
  const int slot = parent->slot_of(&region);
  if (slot < 0) return true;
  const std::vector<int> outs = parent->out_edges(slot);
  if (outs.empty()) return after_region(*parent, name, seen);
  return walk(*parent, outs, name, seen);
}

bool region_mentions(const ir::ControlFlowRegion& r, const std::string& name) {
  for (int es : r.edge_slots())
    if (edge_reads(*r.edge(es), name) || edge_assigns(*r.edge(es), name)) return true;
  for (int s : r.block_slots())
    if (block_mentions(*r.block(s), name)) return true;
  return false;
}

}  // namespace

bool block_mentions(const ir::ControlFlowBlock& b, const std::string& name) {
  switch (b.kind) {
    case ir::BlockKind::State:
      return state_mentions(static_cast<const ir::State&>(b), name);
    case ir::BlockKind::Loop: {
      const auto& l = static_cast<const ir::LoopRegion&>(b);
      if (l.loop_variable == name) return true;
      for (const ir::CodeBlock* c : {&l.init_statement, &l.loop_condition, &l.update_statement})
        if (mentions(c->code, name)) return true;
      return region_mentions(l, name);
    }
    case ir::BlockKind::Region:
    case ir::BlockKind::SDFG:
      return region_mentions(static_cast<const ir::ControlFlowRegion&>(b), name);
    case ir::BlockKind::Conditional:
      for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(b).branches)
        if ((cond && mentions(cond->code, name)) || (branch && region_mentions(*branch, name))) return true;
      return false;
    case ir::BlockKind::Break:
    case ir::BlockKind::Continue:
    case ir::BlockKind::Return:
      return false;
  }
  return true;
}

bool read_after_exit(const ir::ControlFlowRegion& region, int exit_edge, const std::string& name) {
  // The exit edge's condition is the loop's own test, replaced by the LoopRegion; its
  // assignments run after the loop.
  const ir::InterstateEdge& e = *region.edge(exit_edge);
  for (const auto& [lhs, rhs] : e.assignments)
    if (mentions(rhs, name)) return true;
  if (edge_assigns(e, name)) return false;
  Seen seen{{&region, e.dst}};
  if (block_mentions(*region.block(e.dst), name)) return true;
  const std::vector<int> outs = region.out_edges(e.dst);
  return outs.empty() ? after_region(region, name, seen) : walk(region, outs, name, seen);
}

}  // namespace dace::transform
