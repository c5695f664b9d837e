#include "transform/remove_unused_symbols.h"

#include <set>
#include <string>

#include "transform/history.h"
#include "transform/symbol_use.h"

namespace dace::transform {
namespace {

void add(std::set<std::string>& out, sym::Expr e) {
  if (e) out.merge(sym::free_symbols(e));
}
void add(std::set<std::string>& out, const std::vector<sym::Expr>& es) {
  for (sym::Expr e : es) add(out, e);
}
void add_code(std::set<std::string>& out, const std::string& code) { out.merge(identifiers_in(code)); }

void state_uses(const ir::State& state, std::set<std::string>& out) {
  for (int e : state.edge_ids()) out.merge(free_symbols(state.edge(e)->memlet));
  for (int id : state.node_ids()) {
    const ir::Node& n = *state.node(id);
    for (const auto& [key, text] : n.extra) add_code(out, text);
    switch (n.kind) {
      case ir::NodeKind::MapEntry: {
        const ir::MapScope& m = static_cast<const ir::MapEntry&>(n).map;
        out.merge(free_symbols(m.range));
        add(out, m.gpu_block_size);
        break;
      }
      case ir::NodeKind::ConsumeEntry: {
        const ir::ConsumeScope& c = static_cast<const ir::ConsumeEntry&>(n).consume;
        add(out, c.num_pes);
        add(out, c.chunksize);
        add_code(out, c.condition.code);
        break;
      }
      case ir::NodeKind::Tasklet: {
        const auto& t = static_cast<const ir::Tasklet&>(n);
        for (const ir::CodeBlock* c : {&t.code, &t.code_global.get(), &t.code_init.get(), &t.code_exit.get()}) add_code(out, c->code);
        break;
      }
      case ir::NodeKind::Library:
        for (const auto& [key, text] : static_cast<const ir::LibraryNode&>(n).properties) add_code(out, text);
        break;
      case ir::NodeKind::NestedSDFG:
        for (const auto& [inner, outer] : static_cast<const ir::NestedSDFGNode&>(n).symbol_mapping) add(out, outer);
        break;
      default: break;
    }
  }
}

void region_uses(const ir::ControlFlowRegion& region, std::set<std::string>& out) {
  for (int es : region.edge_slots()) {
    const ir::InterstateEdge& e = *region.edge(es);
    add_code(out, e.condition.code);
    for (const auto& [lhs, rhs] : e.assignments) {
      out.insert(lhs);
      add_code(out, rhs);
    }
  }
  for (int slot : region.block_slots()) {
    const ir::ControlFlowBlock& b = *region.block(slot);
    for (const auto& [key, text] : b.extra) add_code(out, text);
    switch (b.kind) {
      case ir::BlockKind::State: state_uses(static_cast<const ir::State&>(b), out); break;
      case ir::BlockKind::Loop: {
        const auto& l = static_cast<const ir::LoopRegion&>(b);
        out.insert(l.loop_variable);
        for (const ir::CodeBlock* c : {&l.init_statement, &l.loop_condition, &l.update_statement}) add_code(out, c->code);
        region_uses(l, out);
        break;
      }
      case ir::BlockKind::Region: region_uses(static_cast<const ir::ControlFlowRegion&>(b), out); break;
      case ir::BlockKind::Conditional:
        for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(b).branches) {
          if (cond) add_code(out, cond->code);
          if (branch) region_uses(*branch, out);
        }
        break;
      default: break;
    }
  }
}

bool prune(ir::SDFG& sdfg, bool recursive) {
  bool changed = false;
  const std::set<std::string> used = used_symbols(sdfg);
  for (auto it = sdfg.symbols.begin(); it != sdfg.symbols.end();) {
    if (used.count(it->first)) {
      ++it;
    } else {
      it = sdfg.symbols.erase(it);
      changed = true;
    }
  }
  if (!recursive) return changed;
  for (ir::State* state : sdfg.all_states())
    for (int id : state->node_ids())
      if (state->node(id)->kind == ir::NodeKind::NestedSDFG) {
        auto* nested = static_cast<ir::NestedSDFGNode*>(state->node(id));
        if (nested->sdfg) changed |= prune(*nested->sdfg, true);
      }
  return changed;
}

}  // namespace

std::set<std::string> used_symbols(const ir::SDFG& sdfg, bool with_parent_mapping) {
  std::set<std::string> out;
  for (const auto& [name, desc] : sdfg.arrays) {
    add(out, desc.shape);
    add(out, desc.strides);
    add(out, desc.offset);
    add(out, desc.total_size);
    add(out, desc.start_offset);
    add(out, desc.buffer_size);
  }
  for (const auto* codes : {&sdfg.global_code, &sdfg.init_code, &sdfg.exit_code})
    for (const auto& [where, code] : *codes) add_code(out, code.code);
  for (const std::string& a : sdfg.arg_names) out.insert(a);
  // The history and the original (the SDFG before the first step) describe the past; their
  // symbols are not uses.
  for (const auto& [key, text] : sdfg.extra)
    if (key != "transformation_hist" && key != kOriginalKey) add_code(out, text);
  // The parent passes these in: the nested SDFG's interface, not ours to change.
  if (sdfg.parent_node && with_parent_mapping)
    for (const auto& [inner, outer] : sdfg.parent_node->symbol_mapping) out.insert(inner);
  region_uses(sdfg, out);
  return out;
}

Result<bool> RemoveUnusedSymbols::apply(ir::SDFG& sdfg, AnalysisManager&) { return prune(sdfg, recursive_); }

}  // namespace dace::transform
