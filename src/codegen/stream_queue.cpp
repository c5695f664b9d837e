#include "codegen/stream_queue.h"

#include "codegen/allocation.h"
#include "codegen/types.h"

namespace dace::codegen {

namespace {

enum Field : unsigned { kData = 0, kHead = 1, kTail = 2, kCap = 3, kLock = 4 };

llvm::StructType* header_type(llvm::LLVMContext& ctx) {
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  return llvm::StructType::get(ctx, {llvm::PointerType::getUnqual(ctx), i64, i64, i64, i64});
}

llvm::Value* field(llvm::IRBuilder<>& b, llvm::Value* q, Field k) {
  return b.CreateStructGEP(header_type(b.getContext()), q, k);
}

llvm::Value* load_i64(llvm::IRBuilder<>& b, llvm::Value* q, Field k) { return b.CreateLoad(b.getInt64Ty(), field(b, q, k)); }

llvm::FunctionCallee realloc_fn(ModuleContext& mc) {
  llvm::Type* ptr = llvm::PointerType::getUnqual(mc.ctx);
  return mc.module.getOrInsertFunction("realloc",
                                       llvm::FunctionType::get(ptr, {ptr, llvm::Type::getInt64Ty(mc.ctx)}, false));
}

// Spin until the header's lock word goes from 0 to 1 (acquire); unlock stores 0 (release).
void lock(llvm::IRBuilder<>& b, llvm::Function* fn, llvm::Value* q) {
  llvm::BasicBlock* spin = llvm::BasicBlock::Create(b.getContext(), "lock.spin", fn);
  llvm::BasicBlock* held = llvm::BasicBlock::Create(b.getContext(), "lock.held", fn);
  b.CreateBr(spin);
  b.SetInsertPoint(spin);
  llvm::Value* old = b.CreateAtomicRMW(llvm::AtomicRMWInst::Xchg, field(b, q, kLock), b.getInt64(1), llvm::MaybeAlign(8),
                                       llvm::AtomicOrdering::Acquire);
  b.CreateCondBr(b.CreateICmpEQ(old, b.getInt64(0)), held, spin);
  b.SetInsertPoint(held);
}

void unlock(llvm::IRBuilder<>& b, llvm::Value* q) {
  llvm::StoreInst* s = b.CreateStore(b.getInt64(0), field(b, q, kLock));
  s->setAlignment(llvm::Align(8));
  s->setAtomic(llvm::AtomicOrdering::Release);
}

llvm::Function* new_helper(ModuleContext& mc, const char* name, llvm::Type* ret, std::vector<llvm::Type*> params) {
  auto* fn = llvm::Function::Create(llvm::FunctionType::get(ret, params, false), llvm::GlobalValue::InternalLinkage,
                                    name, mc.module);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  return fn;
}

// void push(ptr q, ptr elem, i64 size)
llvm::Function* push_helper(ModuleContext& mc) {
  const char* name = "__dace_stream_push";
  if (llvm::Function* fn = mc.module.getFunction(name)) return fn;
  llvm::LLVMContext& ctx = mc.ctx;
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Function* fn = new_helper(mc, name, llvm::Type::getVoidTy(ctx), {ptr, ptr, i64});
  llvm::Value* q = fn->getArg(0);
  llvm::Value* elem = fn->getArg(1);
  llvm::Value* size = fn->getArg(2);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", fn));
  lock(b, fn, q);
  llvm::BasicBlock* full = llvm::BasicBlock::Create(ctx, "full", fn);
  llvm::BasicBlock* compact = llvm::BasicBlock::Create(ctx, "compact", fn);
  llvm::BasicBlock* check = llvm::BasicBlock::Create(ctx, "check", fn);
  llvm::BasicBlock* grow = llvm::BasicBlock::Create(ctx, "grow", fn);
  llvm::BasicBlock* append = llvm::BasicBlock::Create(ctx, "append", fn);
  b.CreateCondBr(b.CreateICmpSGT(b.CreateAdd(load_i64(b, q, kTail), size), load_i64(b, q, kCap)), full, append);

  // Full: when at least half the buffer is already popped, slide the live part down
  // (amortized O(1) per element); otherwise, or if still full, double the buffer.
  b.SetInsertPoint(full);
  llvm::Value* head = load_i64(b, q, kHead);
  llvm::Value* half_popped = b.CreateAnd(b.CreateICmpSGT(head, b.getInt64(0)),
                                         b.CreateICmpSGE(b.CreateMul(head, b.getInt64(2)), load_i64(b, q, kCap)));
  b.CreateCondBr(half_popped, compact, check);
  b.SetInsertPoint(compact);
  llvm::Value* data = b.CreateLoad(ptr, field(b, q, kData));
  llvm::Value* live = b.CreateSub(load_i64(b, q, kTail), head);
  b.CreateMemMove(data, llvm::MaybeAlign(1), b.CreateGEP(b.getInt8Ty(), data, head), llvm::MaybeAlign(1), live);
  b.CreateStore(b.getInt64(0), field(b, q, kHead));
  b.CreateStore(live, field(b, q, kTail));
  b.CreateBr(check);
  b.SetInsertPoint(check);
  llvm::Value* cap = load_i64(b, q, kCap);
  b.CreateCondBr(b.CreateICmpSGT(b.CreateAdd(load_i64(b, q, kTail), size), cap), grow, append);
  b.SetInsertPoint(grow);
  llvm::Value* doubled = b.CreateMul(cap, b.getInt64(2));
  llvm::Value* minimum = b.CreateMul(size, b.getInt64(16));
  llvm::Value* new_cap = b.CreateSelect(b.CreateICmpSGT(doubled, minimum), doubled, minimum);
  llvm::Value* grown = b.CreateCall(realloc_fn(mc), {b.CreateLoad(ptr, field(b, q, kData)), new_cap});
  b.CreateStore(grown, field(b, q, kData));
  b.CreateStore(new_cap, field(b, q, kCap));
  b.CreateBr(append);

  b.SetInsertPoint(append);
  llvm::Value* tail = load_i64(b, q, kTail);
  llvm::Value* slot = b.CreateGEP(b.getInt8Ty(), b.CreateLoad(ptr, field(b, q, kData)), tail);
  b.CreateMemCpy(slot, llvm::MaybeAlign(1), elem, llvm::MaybeAlign(1), size);
  b.CreateStore(b.CreateAdd(tail, size), field(b, q, kTail));
  unlock(b, q);
  b.CreateRetVoid();
  return fn;
}

// i1 pop(ptr q, ptr out, i64 size)
llvm::Function* pop_helper(ModuleContext& mc) {
  const char* name = "__dace_stream_pop";
  if (llvm::Function* fn = mc.module.getFunction(name)) return fn;
  llvm::LLVMContext& ctx = mc.ctx;
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Function* fn = new_helper(mc, name, llvm::Type::getInt1Ty(ctx), {ptr, ptr, i64});
  llvm::Value* q = fn->getArg(0);
  llvm::Value* out = fn->getArg(1);
  llvm::Value* size = fn->getArg(2);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", fn));
  lock(b, fn, q);
  llvm::BasicBlock* empty = llvm::BasicBlock::Create(ctx, "empty", fn);
  llvm::BasicBlock* take = llvm::BasicBlock::Create(ctx, "take", fn);
  llvm::Value* head = load_i64(b, q, kHead);
  llvm::Value* tail = load_i64(b, q, kTail);
  b.CreateCondBr(b.CreateICmpSGE(head, tail), empty, take);
  b.SetInsertPoint(empty);
  unlock(b, q);
  b.CreateRet(b.getInt1(false));
  b.SetInsertPoint(take);
  llvm::Value* from = b.CreateGEP(b.getInt8Ty(), b.CreateLoad(ptr, field(b, q, kData)), head);
  b.CreateMemCpy(out, llvm::MaybeAlign(1), from, llvm::MaybeAlign(1), size);
  llvm::Value* next = b.CreateAdd(head, size);
  // An emptied queue rewinds, so a steady push/pop rhythm never grows the buffer.
  llvm::Value* drained = b.CreateICmpSGE(next, tail);
  b.CreateStore(b.CreateSelect(drained, b.getInt64(0), next), field(b, q, kHead));
  b.CreateStore(b.CreateSelect(drained, b.getInt64(0), tail), field(b, q, kTail));
  unlock(b, q);
  b.CreateRet(b.getInt1(true));
  return fn;
}

// void release(ptr headers, i64 count)
llvm::Function* release_helper(ModuleContext& mc) {
  const char* name = "__dace_stream_release";
  if (llvm::Function* fn = mc.module.getFunction(name)) return fn;
  llvm::LLVMContext& ctx = mc.ctx;
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Function* fn = new_helper(mc, name, llvm::Type::getVoidTy(ctx), {ptr, i64});
  llvm::Value* headers = fn->getArg(0);
  llvm::Value* count = fn->getArg(1);
  llvm::BasicBlock* entry = llvm::BasicBlock::Create(ctx, "entry", fn);
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(ctx, "loop", fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx, "done", fn);
  llvm::IRBuilder<> b(entry);
  b.CreateCondBr(b.CreateICmpSGT(count, b.getInt64(0)), loop, done);
  b.SetInsertPoint(loop);
  llvm::PHINode* i = b.CreatePHI(i64, 2, "i");
  i->addIncoming(b.getInt64(0), entry);
  llvm::Value* q = b.CreateGEP(header_type(ctx), headers, i);
  b.CreateCall(mc.free_fn(), {b.CreateLoad(ptr, field(b, q, kData))});
  llvm::Value* next = b.CreateAdd(i, b.getInt64(1));
  i->addIncoming(next, loop);
  b.CreateCondBr(b.CreateICmpSLT(next, count), loop, done);
  b.SetInsertPoint(done);
  b.CreateCall(mc.free_fn(), {headers});
  b.CreateRetVoid();
  return fn;
}

int64_t element_bytes(ScalarType t) { return std::max(1, ir::scalar_type_size(t)); }

}  // namespace

Result<llvm::Value*> stream_count(Frame& f, const ir::DataDescriptor& desc) {
  sym::Expr n = sym::integer(1);
  for (sym::Expr e : desc.shape) n = sym::mul(n, e);
  return f.sym(n);
}

Result<llvm::Value*> allocate_stream(Frame& f, const ir::DataDescriptor& desc) {
  Result<llvm::Value*> n = stream_count(f, desc);
  if (!n) return n;
  return heap_allocate(f, f.b.CreateMul(*n, f.b.getInt64(kStreamHeaderBytes)), true);
}

void release_stream(llvm::IRBuilder<>& b, ModuleContext& mc, llvm::Value* headers, llvm::Value* count) {
  b.CreateCall(release_helper(mc), {headers, count});
}

Result<llvm::Value*> stream_queue(Frame& f, const DataBinding& data, const sym::Subset& subset) {
  const ir::DataDescriptor& d = *data.desc;
  if (subset.rank() != 0 && subset.rank() != d.shape.size())
    return make_error(Code::InvalidSdfg, "a memlet of stream container with " + std::to_string(d.shape.size()) +
                                             " dimensions has a subset with " + std::to_string(subset.rank()));
  // Row-major index over the array of streams; DaCe's offsets shift indices like arrays'.
  sym::Expr index = sym::integer(0);
  for (size_t i = 0; i < subset.rank(); ++i) {
    sym::Expr at = subset.dims[i].start;
    if (i < d.offset.size() && d.offset[i]) at = sym::add(at, d.offset[i]);
    index = sym::add(sym::mul(index, d.shape[i]), at);
  }
  Result<llvm::Value*> k = f.sym(index);
  if (!k) return k;
  return f.b.CreateGEP(header_type(f.mc.ctx), data.base, *k, "queue");
}

void emit_stream_push(Frame& f, llvm::Value* queue, TypedValue v, ScalarType elem) {
  llvm::AllocaInst* tmp = f.entry_alloca(storage_type(f.mc.ctx, elem), "push.elem");
  store_scalar(f.b, convert_typed(f.b, v, elem), tmp);
  f.b.CreateCall(push_helper(f.mc), {queue, tmp, f.b.getInt64(element_bytes(elem))});
}

llvm::Value* emit_stream_pop(Frame& f, llvm::Value* queue, llvm::Value* out, ScalarType elem) {
  return f.b.CreateCall(pop_helper(f.mc), {queue, out, f.b.getInt64(element_bytes(elem))}, "popped");
}

}  // namespace dace::codegen
