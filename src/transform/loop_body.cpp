#include "transform/loop_body.h"

#include <functional>
#include <map>
#include <optional>

#include "analysis/memlet_propagation.h"
#include "transform/analysis_manager.h"
#include "transform/assigned_symbols.h"
#include "transform/block_order.h"
#include "transform/loop_privatization.h"
#include "transform/loop_variable_use.h"
#include "transform/symbol_use.h"

namespace dace::transform {
namespace {

struct InnerLoop {
  std::string var;
  std::optional<sym::Range> range;  // nullopt: unknown iterations
};
using StateVisit = std::function<bool(const ir::State&, const std::vector<InnerLoop>&)>;

// Visits every state below `r`, with the inner loops around it (outermost first); their
// headers are read from the cached symbol ranges of the SDFG holding `r`.
bool for_each_state(const ir::ControlFlowRegion& r, const SymbolRanges& ranges, std::vector<InnerLoop>& ctx,
                    const StateVisit& fn) {
  for (int slot : r.block_slots()) {
    const ir::ControlFlowBlock& b = *r.block(slot);
    if (b.kind == ir::BlockKind::State) {
      if (!fn(static_cast<const ir::State&>(b), ctx)) return false;
    } else if (b.kind == ir::BlockKind::Loop) {
      const auto& l = static_cast<const ir::LoopRegion&>(b);
      std::optional<LoopBounds> lb = ranges.loop(l);
      ctx.push_back({l.loop_variable, lb ? ascending_range(*lb) : std::nullopt});
      const bool ok = for_each_state(l, ranges, ctx, fn);
      ctx.pop_back();
      if (!ok) return false;
    } else if (b.kind == ir::BlockKind::Region) {
      if (!for_each_state(static_cast<const ir::ControlFlowRegion&>(b), ranges, ctx, fn)) return false;
    } else if (b.kind == ir::BlockKind::Conditional) {
      for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(b).branches)
        if (branch && !for_each_state(*branch, ranges, ctx, fn)) return false;
    }
  }
  return true;
}

// Every code text of control flow below `r`: edge conditions and right-hand sides, loop
// headers, branch conditions.
void control_code(const ir::ControlFlowRegion& r, std::vector<std::string>& out) {
  for (int es : r.edge_slots()) {
    const ir::InterstateEdge& e = *r.edge(es);
    out.push_back(e.condition.code);
    for (const auto& [lhs, rhs] : e.assignments) out.push_back(rhs);
  }
  for (int slot : r.block_slots()) {
    const ir::ControlFlowBlock& b = *r.block(slot);
    if (b.kind == ir::BlockKind::Loop) {
      const auto& l = static_cast<const ir::LoopRegion&>(b);
      for (const ir::CodeBlock* c : {&l.init_statement, &l.loop_condition, &l.update_statement}) out.push_back(c->code);
    }
    if (b.kind == ir::BlockKind::Loop || b.kind == ir::BlockKind::Region) {
      control_code(static_cast<const ir::ControlFlowRegion&>(b), out);
    } else if (b.kind == ir::BlockKind::Conditional) {
      for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(b).branches) {
        if (cond) out.push_back(cond->code);
        if (branch) control_code(*branch, out);
      }
    }
  }
}

// Break, continue and return leave or skip iterations of the loop: a map has no such thing.
bool plain_control_flow(const ir::ControlFlowRegion& r, bool in_inner_loop, std::string& why) {
  for (int slot : r.block_slots()) {
    const ir::ControlFlowBlock& b = *r.block(slot);
    if (b.kind == ir::BlockKind::Return || ((b.kind == ir::BlockKind::Break || b.kind == ir::BlockKind::Continue) &&
                                            !in_inner_loop))
      return why = "the body has a " + std::string(ir::to_string(b.kind)) + " '" + b.label + "'", false;
    if (b.kind == ir::BlockKind::Loop || b.kind == ir::BlockKind::Region) {
      if (!plain_control_flow(static_cast<const ir::ControlFlowRegion&>(b),
                              in_inner_loop || b.kind == ir::BlockKind::Loop, why))
        return false;
    } else if (b.kind == ir::BlockKind::Conditional) {
      for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(b).branches)
        if (branch && !plain_control_flow(*branch, in_inner_loop, why)) return false;
    }
  }
  return true;
}

// Every read of a symbol the body assigns comes after its assignment in the same iteration
// (else it would read the previous iteration's value), on every path.
struct SymbolOrder {
  const std::set<std::string>& assigned_in_body;
  std::string& why;

  bool unassigned_read(const std::string& code, const std::set<std::string>& known, const std::string& where) {
    for (const std::string& s : assigned_in_body)
      if (!known.count(s) && mentions(code, s)) {
        why = "symbol '" + s + "' is read in " + where + " before the body assigns it";
        return true;
      }
    return false;
  }

  bool region(const ir::ControlFlowRegion& r, const std::set<std::string>& entry) {
    std::optional<std::vector<int>> order = topological_blocks(r);
    if (!order) return why = "the blocks of '" + r.label + "' form a cycle", false;
    std::map<int, std::set<std::string>> out;
    for (int b : *order) {
      std::optional<std::set<std::string>> known;
      for (int es : r.in_edges(b)) {
        const ir::InterstateEdge& e = *r.edge(es);
        const std::set<std::string>& before = out[e.src];
        if (unassigned_read(e.condition.code, before, "an interstate edge")) return false;
        std::set<std::string> after = before;
        for (const auto& [lhs, rhs] : e.assignments) {
          if (unassigned_read(rhs, before, "an interstate edge")) return false;
          after.insert(lhs);
        }
        if (!known) {
          known = std::move(after);
        } else {
          std::set<std::string> both;
          for (const std::string& s : *known)
            if (after.count(s)) both.insert(s);
          known = std::move(both);
        }
      }
      if (!known) known = entry;
      const ir::ControlFlowBlock& blk = *r.block(b);
      if (!block(blk, *known)) return false;
      out[b] = *known;
    }
    return true;
  }

  bool block(const ir::ControlFlowBlock& blk, const std::set<std::string>& known) {
    switch (blk.kind) {
      case ir::BlockKind::State:
        for (const std::string& s : assigned_in_body)
          if (!known.count(s) && block_mentions(blk, s))
            return why = "symbol '" + s + "' is read in state '" + blk.label + "' before the body assigns it", false;
        return true;
      case ir::BlockKind::Loop: {
        const auto& l = static_cast<const ir::LoopRegion&>(blk);
        for (const ir::CodeBlock* c : {&l.init_statement, &l.loop_condition, &l.update_statement}) {
          std::set<std::string> k = known;
          k.insert(l.loop_variable);
          if (unassigned_read(c->code, k, "the header of '" + l.label + "'")) return false;
        }
        std::set<std::string> k = known;
        k.insert(l.loop_variable);
        return region(l, k);
      }
      case ir::BlockKind::Region:
        return region(static_cast<const ir::ControlFlowRegion&>(blk), known);
      case ir::BlockKind::Conditional:
        for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(blk).branches) {
          if (cond && unassigned_read(cond->code, known, "a condition of '" + blk.label + "'")) return false;
          if (branch && !region(*branch, known)) return false;
        }
        return true;
      default:
        return true;
    }
  }
};

// Whether `name` is used anywhere in `r` outside `loop` (a nested SDFG does not hand the
// symbols it assigns back). Other loops that define `name` as their variable only read their own.
bool used_outside(const ir::ControlFlowRegion& r, const ir::LoopRegion& loop, const std::string& name) {
  for (int es : r.edge_slots()) {
    const ir::InterstateEdge& e = *r.edge(es);
    if (mentions(e.condition.code, name)) return true;
    for (const auto& [lhs, rhs] : e.assignments)
      if (mentions(rhs, name)) return true;
  }
  for (int slot : r.block_slots()) {
    const ir::ControlFlowBlock& b = *r.block(slot);
    if (&b == &loop) continue;
    switch (b.kind) {
      case ir::BlockKind::State:
        if (block_mentions(b, name)) return true;
        break;
      case ir::BlockKind::Loop: {
        const auto& l = static_cast<const ir::LoopRegion&>(b);
        if (l.loop_variable == name && !inside(loop, l)) break;
        for (const ir::CodeBlock* c : {&l.init_statement, &l.loop_condition, &l.update_statement})
          if (mentions(c->code, name)) return true;
        if (used_outside(l, loop, name)) return true;
        break;
      }
      case ir::BlockKind::Region:
        if (used_outside(static_cast<const ir::ControlFlowRegion&>(b), loop, name)) return true;
        break;
      case ir::BlockKind::Conditional:
        for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(b).branches) {
          if (cond && mentions(cond->code, name)) return true;
          if (branch && used_outside(*branch, loop, name)) return true;
        }
        break;
      default:
        break;
    }
  }
  return false;
}

bool used_outside_loop(const ir::SDFG& sdfg, const ir::LoopRegion& loop, const std::string& data, AnalysisManager& am) {
  for (const ir::State* s : sdfg.all_states())
    if (!inside(*s, loop) && am.access_sets(*s).present.count(data)) return true;
  return false;
}

}  // namespace

bool analyze_loop_body(const ir::SDFG& sdfg, const ir::LoopRegion& loop, const LoopBounds& bounds, AnalysisManager& am,
                       LoopBody& out, std::string& why) {
  const std::string& var = loop.loop_variable;
  if (!plain_control_flow(loop, false, why)) return false;
  for (int es : loop.edge_slots())
    for (const auto& [lhs, rhs] : loop.edge(es)->assignments) out.assigned.insert(lhs);
  for (int slot : loop.block_slots()) out.assigned.merge(assigned_symbols(*loop.block(slot)));
  if (out.assigned.count(var)) return why = "the body assigns the loop variable '" + var + "'", false;
  for (sym::Expr e : {bounds.start, bounds.end})
    for (const std::string& s : sym::free_symbols(e))
      if (out.assigned.count(s)) return why = "the body assigns '" + s + "', which the loop range uses", false;
  SymbolOrder order{out.assigned, why};
  if (!order.region(loop, {})) return false;
  for (const std::string& s : out.assigned)
    if (used_outside(sdfg, loop, s))
      return why = "symbol '" + s + "' assigned in the body is used outside the loop", false;

  // Containers: local (privatized transients, views only the body uses) or shared.
  std::set<std::string> used;
  std::vector<InnerLoop> ctx;
  const SymbolRanges& ranges = am.symbol_ranges(sdfg);
  for_each_state(loop, ranges, ctx, [&](const ir::State& s, const std::vector<InnerLoop>&) {
    const std::set<std::string>& present = am.access_sets(s).present;
    used.insert(present.begin(), present.end());
    return true;
  });
  for (const std::string& d : used) {
    auto it = sdfg.arrays.find(d);
    if (it == sdfg.arrays.end()) return why = "undeclared container '" + d + "'", false;
    const ir::DataDescriptor& desc = it->second;
    if (desc.kind == ir::DataKind::View && desc.transient && !used_outside_loop(sdfg, loop, d, am) &&
        !named_by_control_flow(sdfg, d)) {
      out.local.insert(d);
      continue;
    }
    // Views and references alias other containers: comparing accesses by name would miss
    // conflicts through the alias.
    if (desc.kind == ir::DataKind::View || desc.kind == ir::DataKind::Reference)
      return why = "'" + d + "' is a view or reference used outside the body", false;
    std::string ignored;
    if (desc.transient && privatizable(sdfg, loop, d, am, ignored)) out.local.insert(d);
  }

  bool ok = true;
  for_each_state(loop, ranges, ctx, [&](const ir::State& s, const std::vector<InnerLoop>& inner) {
    for (const AccessNodeMemlets& a : am.dependence_sets(s).access_nodes) {
      const std::string& d = a.data;
      if (out.local.count(d)) continue;
      const ir::DataDescriptor& desc = sdfg.arrays.at(d);
      // Inside an inner scope, memlets are in the inner parameters; the dependence test sees
      // such a node only through the propagated memlets of the top level.
      if (!a.top_level) {
        if (a.crosses_scope) continue;
        why = "an access node of '" + d + "' inside a nested scope whose data does not cross the scope";
        return ok = false;
      }
      if (a.isolated) out.reads.insert(d);  // keeps it declared
      for (const AccessMemlet& m : a.memlets) {
        sym::Subset sub = m.subset ? *m.subset : analysis::whole_subset(desc);
        for (auto it = inner.rbegin(); it != inner.rend(); ++it)
          sub = it->range ? analysis::propagate_over_map(sub, desc, {it->var}, sym::Subset{{*it->range}})
                          : analysis::whole_subset(desc);
        for (const std::string& f : free_symbols(sub))
          if (out.assigned.count(f)) {
            why = "the subset of '" + d + "' in state '" + s.label + "' uses '" + f + "', which the body assigns";
            return ok = false;
          }
        (m.write ? out.writes : out.reads).insert(d);
        out.accesses.push_back({d, sub, m.write, m.wcr});
      }
    }
    return true;
  });
  if (!ok) return false;

  // Containers that control-flow code of the body reads (e.g. `A[i] > 0` in a condition).
  std::vector<std::string> code;
  control_code(loop, code);
  for (const auto& [name, desc] : sdfg.arrays) {
    if (out.local.count(name)) continue;
    bool named = false;
    for (const std::string& c : code) named = named || mentions(c, name);
    if (!named) continue;
    if (desc.kind == ir::DataKind::View || desc.kind == ir::DataKind::Reference)
      return why = "control flow of the body reads view or reference '" + name + "'", false;
    out.reads.insert(name);
    out.accesses.push_back({name, analysis::whole_subset(desc), false, ""});
  }
  return true;
}

}  // namespace dace::transform
