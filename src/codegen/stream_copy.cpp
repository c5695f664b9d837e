#include "codegen/addressing.h"
#include "codegen/loops.h"
#include "codegen/stream_queue.h"

namespace dace::codegen {

namespace {

// Element `flat` (row-major over the subset's extents) of an array subset.
Result<llvm::Value*> subset_element(Frame& f, const DataBinding& d, const sym::Subset& subset, llvm::Value* flat) {
  Result<std::vector<llvm::Value*>> start = subset_start(f, subset);
  if (!start) return start.take_error();
  std::vector<sym::Expr> sizes = sym::size(subset);
  std::vector<llvm::Value*> idx = *start;
  llvm::Value* rest = flat;
  for (size_t i = subset.rank(); i-- > 0;) {
    Result<llvm::Value*> n = f.sym(sizes[i]);
    if (!n) return n.take_error();
    Result<llvm::Value*> step = f.sym(subset.dims[i].step);
    if (!step) return step.take_error();
    llvm::Value* k = i > 0 ? f.b.CreateSRem(rest, *n) : rest;
    if (i > 0) rest = f.b.CreateSDiv(rest, *n);
    idx[i] = f.b.CreateAdd((*start)[i], f.b.CreateMul(k, *step));
  }
  return element_pointer(f, d, idx);
}

// while (pop(from) into slot) { each(); }  -- leaves the builder after the loop.
Status drain(Frame& f, llvm::Value* from, llvm::Value* slot, ScalarType elem, const std::function<Status()>& each) {
  llvm::BasicBlock* head = llvm::BasicBlock::Create(f.mc.ctx, "drain.head", f.fn);
  llvm::BasicBlock* body = llvm::BasicBlock::Create(f.mc.ctx, "drain.body", f.fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(f.mc.ctx, "drain.done", f.fn);
  f.b.CreateBr(head);
  f.b.SetInsertPoint(head);
  f.b.CreateCondBr(emit_stream_pop(f, from, slot, elem), body, done);
  f.b.SetInsertPoint(body);
  DACE_TRY(each());
  f.b.CreateBr(head);
  f.b.SetInsertPoint(done);
  return Status::success();
}

}  // namespace

Status emit_stream_copy(Frame& f, const DataBinding& src, const sym::Subset& src_subset, const DataBinding& dst,
                        const sym::Subset& dst_subset) {
  bool from_stream = src.desc->kind == ir::DataKind::Stream;
  bool to_stream = dst.desc->kind == ir::DataKind::Stream;
  ScalarType se = src.desc->dtype.scalar, de = dst.desc->dtype.scalar;
  if (from_stream) {
    Result<llvm::Value*> q = stream_queue(f, src, src_subset);
    if (!q) return q.take_error();
    llvm::AllocaInst* slot = f.entry_alloca(storage_type(f.mc.ctx, se), "copy.popped");
    if (to_stream) {
      Result<llvm::Value*> to = stream_queue(f, dst, dst_subset);
      if (!to) return to.take_error();
      return drain(f, *q, slot, se, [&]() -> Status {
        emit_stream_push(f, *to, load_scalar(f.b, slot, se), de);
        return Status::success();
      });
    }
    // for (k = 0; k < volume && pop(q, slot); ++k) dst[k] = slot
    Result<llvm::Value*> total = f.sym(sym::volume(dst_subset));
    if (!total) return total.take_error();
    llvm::BasicBlock* pre = f.b.GetInsertBlock();
    llvm::BasicBlock* head = llvm::BasicBlock::Create(f.mc.ctx, "unqueue.head", f.fn);
    llvm::BasicBlock* take = llvm::BasicBlock::Create(f.mc.ctx, "unqueue.pop", f.fn);
    llvm::BasicBlock* body = llvm::BasicBlock::Create(f.mc.ctx, "unqueue.body", f.fn);
    llvm::BasicBlock* done = llvm::BasicBlock::Create(f.mc.ctx, "unqueue.done", f.fn);
    f.b.CreateBr(head);
    f.b.SetInsertPoint(head);
    llvm::PHINode* k = f.b.CreatePHI(f.b.getInt64Ty(), 2, "k");
    k->addIncoming(f.b.getInt64(0), pre);
    f.b.CreateCondBr(f.b.CreateICmpSLT(k, *total), take, done);
    f.b.SetInsertPoint(take);
    f.b.CreateCondBr(emit_stream_pop(f, *q, slot, se), body, done);
    f.b.SetInsertPoint(body);
    Result<llvm::Value*> to = subset_element(f, dst, dst_subset, k);
    if (!to) return to.take_error();
    store_scalar(f.b, convert_typed(f.b, load_scalar(f.b, slot, se), de), *to);
    k->addIncoming(f.b.CreateAdd(k, f.b.getInt64(1)), f.b.GetInsertBlock());
    f.b.CreateBr(head);
    f.b.SetInsertPoint(done);
    return Status::success();
  }
  Result<llvm::Value*> q = stream_queue(f, dst, dst_subset);
  if (!q) return q.take_error();
  Result<llvm::Value*> total = f.sym(sym::volume(src_subset));
  if (!total) return total.take_error();
  CountedLoop loop = begin_loop(f.b, f.b.getInt64(0), *total, "enqueue");
  Result<llvm::Value*> from = subset_element(f, src, src_subset, loop.iv);
  if (!from) return from.take_error();
  emit_stream_push(f, *q, load_scalar(f.b, *from, se), de);
  end_loop(f.b, loop);
  return Status::success();
}

}  // namespace dace::codegen
