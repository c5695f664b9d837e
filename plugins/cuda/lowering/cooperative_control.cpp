#include "lowering/cooperative_control.h"

#include <set>
#include <string>
#include <utility>

#include "analysis/code_reads.h"
#include "ir/path.h"

namespace dace::cuda {

namespace {

using Names = std::set<std::string>;

// Containers some state of `g` writes (access nodes with a non-empty memlet in), and
// containers its interstate assignments set.
Result<Names> written_inside(const ir::SDFG& g) {
  Names out;
  for (const ir::State* st : g.all_states())
    for (int e : st->edge_ids()) {
      const ir::DataflowEdge* edge = st->edge(e);
      const ir::Node* dst = st->node(edge->dst);
      if (dst && dst->kind == ir::NodeKind::Access && !edge->memlet.is_empty())
        out.insert(static_cast<const ir::AccessNode&>(*dst).data);
    }
  DACE_TRY(analysis::for_each_region_whole(g, [&](const ir::ControlFlowRegion& r) {
    for (int slot : r.edge_slots())
      for (const auto& [target, value] : r.edge(slot)->assignments)
        if (g.arrays.count(target)) out.insert(target);
  }));
  return out;
}

// Containers of the state that the GPU_Persistent map at `entry` writes: access nodes inside
// its scope and after its exit that a non-empty memlet enters.
Names written_by_scope(const codegen::StateEmitter& se, int entry) {
  const int exit = se.state.exit_of(entry);
  auto inside = [&](int id) {
    if (id == exit) return true;
    for (int p = se.parents[static_cast<size_t>(id)]; p >= 0; p = se.parents[static_cast<size_t>(p)])
      if (p == entry) return true;
    return false;
  };
  Names out;
  for (int e : se.state.edge_ids()) {
    const ir::DataflowEdge* edge = se.state.edge(e);
    const ir::Node* dst = se.state.node(edge->dst);
    if (dst && dst->kind == ir::NodeKind::Access && !edge->memlet.is_empty() && inside(edge->src))
      out.insert(static_cast<const ir::AccessNode&>(*dst).data);
  }
  return out;
}

// The containers of the SDFG nested at `node` that the kernel writes: its own writes, and its
// connectors bound to containers of the outer state that the kernel writes.
Result<Names> written_for(const codegen::StateEmitter& se, int node, const ir::SDFG& g, const Names& outer_written) {
  Result<Names> inside = written_inside(g);
  if (!inside) return inside.take_error();
  Names out = std::move(*inside);
  for (int e : se.state.in_edges(node)) {
    const ir::DataflowEdge* edge = se.state.edge(e);
    if (!edge->memlet.is_empty() && outer_written.count(edge->memlet.data)) out.insert(edge->dst_conn);
  }
  for (int e : se.state.out_edges(node)) out.insert(se.state.edge(e)->src_conn);
  return out;
}

}  // namespace

Status check_uniform_control_flow(const codegen::StateEmitter& se, int entry) {
  const Names outer_written = written_by_scope(se, entry);
  const std::string kernel = "GPU_Persistent map " + ir::quoted(se.state.node(entry)->label);
  for (int id : se.state.node_ids()) {
    if (se.parents[static_cast<size_t>(id)] != entry || se.state.node(id)->kind != ir::NodeKind::NestedSDFG) continue;
    const auto& nested = static_cast<const ir::NestedSDFGNode&>(*se.state.node(id));
    if (!nested.sdfg) continue;
    const ir::SDFG& g = *nested.sdfg;
    Result<Names> written_or = written_for(se, id, g, outer_written);
    if (!written_or) return written_or.take_error();
    const Names& written = *written_or;
    auto check = [&](const Names& reads, const std::string& what, const std::string& code) -> Status {
      for (const std::string& name : reads) {
        if (!g.arrays.count(name) || !written.count(name)) continue;
        return make_error(Code::Unsupported,
                          what + " " + ir::quoted(code) + " reads container " + ir::quoted(name) +
                              ", which the cooperative kernel of " + kernel +
                              " writes: every thread evaluates this code, with no grid barrier between a "
                              "block's read and another block's write, so blocks could take different "
                              "branches and reach different numbers of grid barriers (a hang). Only "
                              "symbols and containers the kernel does not write may steer its control flow");
      }
      return Status::success();
    };
    Status s = Status::success();
    DACE_TRY(analysis::for_each_region_whole(g, [&](const ir::ControlFlowRegion& r) {
      if (!s.ok()) return;
      for (int slot : r.edge_slots()) {
        const ir::InterstateEdge& e = *r.edge(slot);
        const std::string where = ir::path_of_interstate_edge(g, r, slot);
        if (s.ok()) s = check(analysis::names_read_by_expression(e.condition.code), where + " condition", e.condition.code);
        for (const auto& [target, value] : e.assignments)
          if (s.ok()) s = check(analysis::names_read_by_expression(value), where + " assignment to " + ir::quoted(target), value);
      }
      if (r.kind == ir::BlockKind::Loop && s.ok()) {
        const auto& loop = static_cast<const ir::LoopRegion&>(r);
        const std::string where = ir::path_of(g, loop);
        if (!loop.init_statement.code.empty())
          s = check(analysis::names_read_by_statement(loop.init_statement.code), where + " init statement", loop.init_statement.code);
        if (s.ok()) s = check(analysis::names_read_by_expression(loop.loop_condition.code), where + " condition", loop.loop_condition.code);
        if (s.ok() && !loop.update_statement.code.empty())
          s = check(analysis::names_read_by_statement(loop.update_statement.code), where + " update statement", loop.update_statement.code);
      }
      for (int slot : r.block_slots()) {
        const ir::ControlFlowBlock* b = r.block(slot);
        if (b->kind != ir::BlockKind::Conditional) continue;
        for (const auto& [cond, body] : static_cast<const ir::ConditionalBlock&>(*b).branches)
          if (cond && s.ok()) s = check(analysis::names_read_by_expression(cond->code), ir::path_of(g, *b) + " branch condition", cond->code);
      }
    }));
    DACE_TRY(s);
  }
  return Status::success();
}

}  // namespace dace::cuda
