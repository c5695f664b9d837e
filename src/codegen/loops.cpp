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

bool is_constant(llvm::Value* v, int64_t value) {
  auto* c = llvm::dyn_cast<llvm::ConstantInt>(v);
  return c && c->getSExtValue() == value;
}

// Without `or false, c`: the first tier compiles what it gets.
llvm::Value* or_flag(llvm::IRBuilder<>& b, llvm::Value* a, llvm::Value* c) {
  if (!a || is_constant(a, 0)) return c;
  if (is_constant(c, 0)) return a;
  return b.CreateOr(a, c);
}

llvm::Value* checked_index(llvm::IRBuilder<>& b, llvm::Intrinsic::ID id, llvm::Value* x, llvm::Value* y,
                           llvm::Value*& overflow) {
  // Products of extents start at 1, sums at 0: those steps need no intrinsic.
  const int64_t identity = id == llvm::Intrinsic::smul_with_overflow ? 1 : 0;
  if (is_constant(y, identity)) return x;
  if (is_constant(x, identity)) return y;
  llvm::Value* r = b.CreateBinaryIntrinsic(id, x, y);
  overflow = or_flag(b, overflow, b.CreateExtractValue(r, 1));
  return b.CreateExtractValue(r, 0);
}

llvm::Value* add_index(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* y, const llvm::Twine& name) {
  if (is_constant(y, 0)) return x;
  if (is_constant(x, 0)) return y;
  return b.CreateAdd(x, y, name);
}

llvm::Value* sub_index(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* y, const llvm::Twine& name) {
  if (is_constant(y, 0)) return x;
  return b.CreateSub(x, y, name);
}

llvm::Value* mul_index(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* y, const llvm::Twine& name) {
  if (is_constant(y, 1)) return x;
  if (is_constant(x, 1)) return y;
  return b.CreateMul(x, y, name);
}

llvm::Value* clamp_count(llvm::IRBuilder<>& b, llvm::Value* n) {
  return b.CreateSelect(b.CreateICmpSGT(n, b.getInt64(0)), n, b.getInt64(0));
}

llvm::Value* trip_count(llvm::IRBuilder<>& b, llvm::Value* start, llvm::Value* end, llvm::Value* step) {
  if (is_constant(step, 1)) return clamp_count(b, b.CreateAdd(sub_index(b, end, start), b.getInt64(1)));
  llvm::Value* n = floor_div(b, b.CreateAdd(sub_index(b, end, start), step), step, ScalarType::Int64);
  return clamp_count(b, n);
}

}  // namespace dace::codegen
