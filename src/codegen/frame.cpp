#include "codegen/frame.h"

#include <algorithm>

#include "codegen/run_status.h"

namespace dace::codegen {

llvm::FunctionCallee ModuleContext::malloc_fn() {
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  return module.getOrInsertFunction("aligned_alloc", llvm::FunctionType::get(ptr, {i64, i64}, false));
}

llvm::FunctionCallee ModuleContext::free_fn() {
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  return module.getOrInsertFunction("free", llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr}, false));
}

llvm::GlobalVariable* ModuleContext::status_record() {
  if (llvm::GlobalVariable* g = module.getNamedGlobal(kStatusSymbol)) return g;
  llvm::StructType* ty = llvm::StructType::get(ctx, {llvm::Type::getInt32Ty(ctx), llvm::Type::getInt64Ty(ctx),
                                                     llvm::PointerType::getUnqual(ctx), llvm::Type::getInt64Ty(ctx)});
  return new llvm::GlobalVariable(module, ty, false, llvm::GlobalValue::ExternalLinkage,
                                  llvm::ConstantAggregateZero::get(ty), kStatusSymbol);
}

llvm::FunctionCallee ModuleContext::parallel_for_fn(const std::string& symbol) {
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Type* i32 = llvm::Type::getInt32Ty(ctx);
  return module.getOrInsertFunction(symbol,
                                    llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr, ptr, i64, i64, i64, i32, i32}, false));
}

Frame::Frame(ModuleContext& mc, SdfgContext& sc, llvm::Function* fn, Frame* parent, bool parallel_context)
    : mc(mc), sc(sc), fn(fn), b(mc.ctx), parent(parent), parallel_context(parallel_context) {
  entry_ = llvm::BasicBlock::Create(mc.ctx, "entry", fn);
  llvm::BasicBlock* body = llvm::BasicBlock::Create(mc.ctx, "body", fn);
  b.SetInsertPoint(entry_);
  b.CreateBr(body);
  b.SetInsertPoint(body);
  if (mc.options.fast_math) {
    llvm::FastMathFlags f;
    f.setFast();
    b.setFastMathFlags(f);
  }
  push_scope();
}

void Frame::push_scope() {
  symbol_scopes_.emplace_back();
  data_scopes_.emplace_back();
}

void Frame::pop_scope() {
  if (symbol_scopes_.size() > 1) symbol_scopes_.pop_back();
  if (data_scopes_.size() > 1) data_scopes_.pop_back();
}

void Frame::bind_symbol(const std::string& name, SymbolBinding binding) { symbol_scopes_.back()[name] = binding; }
void Frame::bind_data(const std::string& name, DataBinding binding) { data_scopes_.back()[name] = binding; }

const SymbolBinding* Frame::find_symbol(const std::string& name) const {
  for (auto it = symbol_scopes_.rbegin(); it != symbol_scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return &f->second;
  }
  return nullptr;
}

const DataBinding* Frame::find_data(const std::string& name) const {
  for (auto it = data_scopes_.rbegin(); it != data_scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return &f->second;
  }
  return nullptr;
}

llvm::Value* Frame::capture(llvm::Value* outer, const std::string& name, bool is_data) {
  auto it = captured_.find(outer);
  if (it != captured_.end()) {
    // One pointer reaching two containers (a view of its whole target): neither is private.
    for (Capture& c : captures)
      if (c.outer == outer && c.data != name) c.data.clear();
    return it->second;
  }
  // Values wider than a slot (complex symbols) take several, so the next capture cannot
  // overlap them.
  size_t slot = closure_slots();
  size_t slots = std::max<size_t>(1, (mc.module.getDataLayout().getTypeAllocSize(outer->getType()) + 7) / 8);
  llvm::IRBuilder<> eb(entry_->getTerminator());
  llvm::Value* addr = eb.CreateConstInBoundsGEP1_64(eb.getInt64Ty(), closure, slot, name + ".slot");
  llvm::LoadInst* v = eb.CreateLoad(outer->getType(), addr, name);
  captures.push_back(Capture{outer, v, is_data ? name : std::string(), slot, slots});
  captured_[outer] = v;
  return v;
}

Result<TypedValue> Frame::symbol(const std::string& name) {
  if (const SymbolBinding* s = find_symbol(name)) {
    if (!s->addressable) return TypedValue{s->value, s->type};
    return load_scalar(b, s->value, s->type, name.c_str());
  }
  if (parent) {
    Result<TypedValue> outer = parent->symbol(name);
    if (!outer) return outer;
    llvm::Value* v = capture(outer->value, name, false);
    // Bound at the outermost scope so later lookups anywhere in this frame reuse it.
    symbol_scopes_.front()[name] = SymbolBinding{v, outer->type, false};
    return TypedValue{v, outer->type};
  }
  return make_error(Code::InvalidSdfg, sc.path + ": symbol \"" + name + "\" is not defined here");
}

Result<llvm::Value*> Frame::symbol_i64(const std::string& name) {
  Result<TypedValue> v = symbol(name);
  if (!v) return v.take_error();
  return as_i64(b, *v);
}

Result<DataBinding> Frame::data(const std::string& name) {
  if (const DataBinding* d = find_data(name)) return *d;
  if (parent) {
    Result<DataBinding> outer = parent->data(name);
    if (!outer) return outer;
    DataBinding inner = *outer;
    inner.base = capture(outer->base, name, true);
    inner.thread_local_storage = false;
    data_scopes_.front()[name] = inner;
    return inner;
  }
  return make_error(Code::InvalidSdfg, sc.path + ": data container \"" + name + "\" is not available here");
}

SymbolLookup Frame::lookup() {
  return [this](const std::string& name) { return symbol_i64(name); };
}

Result<llvm::Value*> Frame::sym(sym::Expr e) { return emit_sym(b, e, lookup()); }

Result<llvm::Value*> Frame::sym_checked(sym::Expr e, llvm::Value*& overflow) {
  return emit_sym_checked(b, e, lookup(), overflow);
}

llvm::BasicBlock* Frame::fail_target() {
  if (!fail_block) {
    fail_block = llvm::BasicBlock::Create(mc.ctx, "fail", fn);
    llvm::IRBuilder<> fb(fail_block);
    fb.CreateRetVoid();
  }
  return fail_block;
}

void Frame::record_failure(llvm::Value* code, llvm::Value* what, llvm::Value* value, llvm::Value* bound) {
  may_fail = true;
  llvm::GlobalVariable* rec = mc.status_record();
  llvm::Type* ty = rec->getValueType();
  // First failure wins: parallel bodies may fail at once.
  llvm::Value* old = b.CreateAtomicCmpXchg(b.CreateStructGEP(ty, rec, 0), b.getInt32(0), code, llvm::MaybeAlign(4),
                                           llvm::AtomicOrdering::SequentiallyConsistent,
                                           llvm::AtomicOrdering::SequentiallyConsistent);
  llvm::BasicBlock* fill = llvm::BasicBlock::Create(mc.ctx, "status.fill", fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(mc.ctx, "status.done", fn);
  b.CreateCondBr(b.CreateExtractValue(old, 1), fill, done);
  b.SetInsertPoint(fill);
  b.CreateStore(value, b.CreateStructGEP(ty, rec, 1));
  b.CreateStore(what, b.CreateStructGEP(ty, rec, 2));
  if (bound) b.CreateStore(bound, b.CreateStructGEP(ty, rec, 3));
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

void Frame::leave_if(llvm::Value* failed) {
  llvm::BasicBlock* out = llvm::BasicBlock::Create(mc.ctx, "failed", fn);
  llvm::BasicBlock* cont = llvm::BasicBlock::Create(mc.ctx, "ok", fn);
  b.CreateCondBr(failed, out, cont);
  b.SetInsertPoint(out);
  leave();
  b.SetInsertPoint(cont);
}

void Frame::leave() {
  // Blocks of the batch being checked may be null: free(NULL) does nothing.
  for (auto it = pending_allocations.rbegin(); it != pending_allocations.rend(); ++it) b.CreateCall(mc.free_fn(), {*it});
  for (auto it = failure_frees.rbegin(); it != failure_frees.rend(); ++it) b.CreateCall(mc.free_fn(), {*it});
  // Reused scope blocks: the one a slot holds now (null when none was needed yet).
  for (const auto& [name, r] : reused_blocks)
    if (r.active) b.CreateCall(mc.free_fn(), {b.CreateLoad(b.getPtrTy(), r.ptr)});
  b.CreateBr(fail_target());
}

llvm::Value* Frame::status_failed(llvm::IRBuilder<>& at) {
  llvm::GlobalVariable* rec = mc.status_record();
  llvm::Value* code = at.CreateLoad(at.getInt32Ty(), at.CreateStructGEP(rec->getValueType(), rec, 0), "status");
  return at.CreateICmpNE(code, at.getInt32(0));
}

void Frame::leave_if_status_failed() {
  may_fail = true;
  leave_if(status_failed(b));
}

llvm::AllocaInst* Frame::entry_alloca(llvm::Type* type, const std::string& name) {
  llvm::IRBuilder<> eb(entry_, entry_->begin());
  return eb.CreateAlloca(type, nullptr, name);
}

}  // namespace dace::codegen
