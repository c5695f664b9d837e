#include "codegen/control_flow.h"

#include "codegen/instrument_emit.h"
#include "codegen/interstate.h"
#include "codegen/state_emit.h"
#include "ir/entry_block.h"
#include "ir/path.h"

namespace dace::codegen {

namespace {

Status emit_block(Frame& f, const ir::ControlFlowBlock& block, const FlowTargets& targets, llvm::BasicBlock* after);

std::string bb_name(const ir::ControlFlowBlock& b) {
  std::string n = b.label.empty() ? std::string(ir::to_string(b.kind)) : b.label;
  if (n.size() > 48) n.resize(48);
  return n;
}

Status emit_loop(Frame& f, const ir::LoopRegion& loop, const FlowTargets& outer, llvm::BasicBlock* after) {
  llvm::LLVMContext& ctx = f.mc.ctx;
  llvm::BasicBlock* cond = llvm::BasicBlock::Create(ctx, "loop.cond", f.fn);
  llvm::BasicBlock* body = llvm::BasicBlock::Create(ctx, "loop.body", f.fn);
  llvm::BasicBlock* update = llvm::BasicBlock::Create(ctx, "loop.update", f.fn);
  DACE_TRY(emit_statement(f, loop.init_statement.code, ir::path_of(f.sc.sdfg, loop) + " init statement"));
  FlowTargets inner = outer;
  inner.break_to = after;
  bool inverted_cond_first = loop.inverted && !loop.update_before_condition;
  inner.continue_to = inverted_cond_first ? cond : update;
  inner.exit = inner.continue_to;
  f.b.CreateBr(loop.inverted ? body : cond);

  f.b.SetInsertPoint(cond);
  Result<llvm::Value*> c = emit_condition(f, loop.loop_condition.code, ir::path_of(f.sc.sdfg, loop) + " loop");
  if (!c) return c.take_error();
  f.b.CreateCondBr(*c, inverted_cond_first ? update : body, after);

  f.b.SetInsertPoint(update);
  DACE_TRY(emit_statement(f, loop.update_statement.code, ir::path_of(f.sc.sdfg, loop) + " update statement"));
  f.b.CreateBr(inverted_cond_first ? body : cond);

  f.b.SetInsertPoint(body);
  f.push_scope();
  Status s = emit_region(f, loop, inner);
  f.pop_scope();
  return s;
}

Status emit_conditional(Frame& f, const ir::ConditionalBlock& cb, const FlowTargets& outer, llvm::BasicBlock* after) {
  llvm::LLVMContext& ctx = f.mc.ctx;
  FlowTargets inner = outer;
  inner.exit = after;
  for (size_t i = 0; i < cb.branches.size(); ++i) {
    const auto& [cond, region] = cb.branches[i];
    llvm::BasicBlock* branch = llvm::BasicBlock::Create(ctx, "cond.branch", f.fn);
    llvm::BasicBlock* next = llvm::BasicBlock::Create(ctx, "cond.next", f.fn);
    if (cond && !cond->code.empty()) {
      Result<llvm::Value*> c = emit_condition(f, cond->code, ir::path_of(f.sc.sdfg, cb) + " branch " + std::to_string(i));
      if (!c) return c.take_error();
      f.b.CreateCondBr(*c, branch, next);
    } else {
      f.b.CreateBr(branch);
    }
    f.b.SetInsertPoint(branch);
    if (region) {
      f.push_scope();
      Status s = emit_region(f, *region, inner);
      f.pop_scope();
      if (!s.ok()) return s;
    } else {
      f.b.CreateBr(after);
    }
    f.b.SetInsertPoint(next);
  }
  f.b.CreateBr(after);
  return Status::success();
}

Status emit_block(Frame& f, const ir::ControlFlowBlock& block, const FlowTargets& targets, llvm::BasicBlock* after) {
  switch (block.kind) {
    case ir::BlockKind::State: {
      const auto& state = static_cast<const ir::State&>(block);
      Result<std::optional<Timer>> timer = start_state_timer(f, state);
      if (!timer) return timer.take_error();
      DACE_TRY(emit_state(f, state));
      if (*timer) stop_timer(f, **timer);
      f.b.CreateBr(after);
      return Status::success();
    }
    case ir::BlockKind::Loop: return emit_loop(f, static_cast<const ir::LoopRegion&>(block), targets, after);
    case ir::BlockKind::Conditional:
      return emit_conditional(f, static_cast<const ir::ConditionalBlock&>(block), targets, after);
    case ir::BlockKind::Region: {
      FlowTargets inner = targets;
      inner.exit = after;
      f.push_scope();
      Status s = emit_region(f, static_cast<const ir::ControlFlowRegion&>(block), inner);
      f.pop_scope();
      return s;
    }
    case ir::BlockKind::Break:
    case ir::BlockKind::Continue: {
      llvm::BasicBlock* to = block.kind == ir::BlockKind::Break ? targets.break_to : targets.continue_to;
      if (!to)
        return make_error(Code::InvalidSdfg, ir::path_of(f.sc.sdfg, block) + ": break/continue outside a loop");
      f.b.CreateBr(to);
      return Status::success();
    }
    case ir::BlockKind::Return: f.b.CreateBr(targets.return_to); return Status::success();
    case ir::BlockKind::SDFG: break;
  }
  return make_error(Code::Unsupported, ir::path_of(f.sc.sdfg, block) + ": block kind cannot be compiled");
}

}  // namespace

Status emit_region(Frame& f, const ir::ControlFlowRegion& region, const FlowTargets& targets) {
  llvm::LLVMContext& ctx = f.mc.ctx;
  std::vector<int> slots = region.block_slots();
  if (slots.empty()) {
    f.b.CreateBr(targets.exit);
    f.b.SetInsertPoint(targets.exit);
    return Status::success();
  }
  std::map<int, llvm::BasicBlock*> entry_of;
  for (int s : slots) entry_of[s] = llvm::BasicBlock::Create(ctx, bb_name(*region.block(s)), f.fn);
  f.b.CreateBr(entry_of[ir::entry_block(region)]);
  for (int s : slots) {
    const ir::ControlFlowBlock* block = region.block(s);
    llvm::BasicBlock* after = llvm::BasicBlock::Create(ctx, "after." + bb_name(*block), f.fn);
    f.b.SetInsertPoint(entry_of[s]);
    DACE_TRY(emit_block(f, *block, targets, after));
    // Out-edges, tested in order; the first whose condition holds is taken.
    f.b.SetInsertPoint(after);
    for (int e : region.out_edges(s)) {
      const ir::InterstateEdge* edge = region.edge(e);
      const std::string where = ir::path_of_interstate_edge(f.sc.sdfg, region, e);
      Result<llvm::Value*> c = emit_condition(f, edge->condition.code, where);
      if (!c) return c.take_error();
      llvm::BasicBlock* take = llvm::BasicBlock::Create(ctx, "edge.take", f.fn);
      llvm::BasicBlock* next = llvm::BasicBlock::Create(ctx, "edge.next", f.fn);
      f.b.CreateCondBr(*c, take, next);
      f.b.SetInsertPoint(take);
      for (const auto& [target, value] : edge->assignments) DACE_TRY(emit_assignment(f, target, value, where));
      auto dst = entry_of.find(edge->dst);
      if (dst == entry_of.end())
        return make_error(Code::InvalidSdfg, ir::path_of_interstate_edge(f.sc.sdfg, region, e) + ": destination block missing");
      f.b.CreateBr(dst->second);
      f.b.SetInsertPoint(next);
    }
    f.b.CreateBr(targets.exit);
  }
  f.b.SetInsertPoint(targets.exit);
  return Status::success();
}

}  // namespace dace::codegen
