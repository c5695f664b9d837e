#include "codegen/loops.h"

#include "codegen/scalar_ops.h"

namespace dace::codegen {

CountedLoop begin_loop(llvm::IRBuilder<>& b, llvm::Value* begin, llvm::Value* end, const std::string& name,
                       llvm::Value* step) {
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  llvm::LLVMContext& ctx = b.getContext();
  CountedLoop loop;
  loop.step = step ? step : b.getInt64(1);
  llvm::BasicBlock* pre = b.GetInsertBlock();
  loop.header = llvm::BasicBlock::Create(ctx, name + ".header", fn);
  llvm::BasicBlock* body = llvm::BasicBlock::Create(ctx, name + ".body", fn);
  loop.exit = llvm::BasicBlock::Create(ctx, name + ".exit", fn);
  b.CreateBr(loop.header);
  b.SetInsertPoint(loop.header);
  loop.iv = b.CreatePHI(b.getInt64Ty(), 2, name);
  loop.iv->addIncoming(begin, pre);
  b.CreateCondBr(b.CreateICmpSLT(loop.iv, end), body, loop.exit);
  b.SetInsertPoint(body);
  return loop;
}

void end_loop(llvm::IRBuilder<>& b, CountedLoop& loop) {
  llvm::Value* next = b.CreateAdd(loop.iv, loop.step, "", /*HasNUW=*/false, /*HasNSW=*/true);
  loop.iv->addIncoming(next, b.GetInsertBlock());
  b.CreateBr(loop.header);
  b.SetInsertPoint(loop.exit);
}

llvm::Value* trip_count(llvm::IRBuilder<>& b, llvm::Value* start, llvm::Value* end, llvm::Value* step) {
  if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(step); c && c->isOne()) {
    llvm::Value* n = b.CreateAdd(b.CreateSub(end, start), b.getInt64(1));
    return b.CreateSelect(b.CreateICmpSGT(n, b.getInt64(0)), n, b.getInt64(0));
  }
  llvm::Value* n = floor_div(b, b.CreateAdd(b.CreateSub(end, start), step), step, ScalarType::Int64);
  return b.CreateSelect(b.CreateICmpSGT(n, b.getInt64(0)), n, b.getInt64(0));
}

}  // namespace dace::codegen
