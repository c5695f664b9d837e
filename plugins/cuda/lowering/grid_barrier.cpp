#include "lowering/grid_barrier.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

namespace dace::cuda {

namespace {

// The two words sit a 128-byte line apart, so that the blocks polling the generation do not
// contend with the atomic arrivals on the counter.
constexpr unsigned kWords = 64;
constexpr unsigned kCounterWord = 0;
constexpr unsigned kGenerationWord = 32;

// One PTX instruction as a call of inline assembly with side effects and a memory clobber
// (so that LLVM neither reorders memory accesses across it nor removes it).
llvm::Value* ptx(llvm::IRBuilder<>& b, llvm::Type* result, const std::string& text, const std::string& constraints,
                 llvm::ArrayRef<llvm::Value*> args) {
  std::vector<llvm::Type*> types;
  for (llvm::Value* a : args) types.push_back(a->getType());
  auto* fty = llvm::FunctionType::get(result, types, false);
  const std::string all = constraints.empty() ? "~{memory}" : constraints + ",~{memory}";
  return b.CreateCall(llvm::InlineAsm::get(fty, text, all, /*hasSideEffects=*/true), args);
}

// The kernel's barrier words: a zero-initialized global of the device module, one per
// cooperative kernel (named by the kernel's number in the module).
llvm::GlobalVariable* barrier_words(DeviceModule& dm) {
  KernelState& ks = *dm.kernel;
  if (ks.grid_barrier) return ks.grid_barrier;
  llvm::Module& m = *dm.module;
  auto* type = llvm::ArrayType::get(llvm::Type::getInt32Ty(m.getContext()), kWords);
  auto* g = new llvm::GlobalVariable(m, type, false, llvm::GlobalValue::InternalLinkage, llvm::Constant::getNullValue(type),
                                     "__dace_grid_barrier_" + std::to_string(dm.kernels.size()), nullptr,
                                     llvm::GlobalValue::NotThreadLocal, /*AddressSpace=*/1);
  g->setAlignment(llvm::Align(128));
  ks.grid_barrier = g;
  return g;
}

void block_barrier(codegen::Frame& f) {
  f.b.CreateCall(llvm::Intrinsic::getDeclaration(&f.mc.module, llvm::Intrinsic::nvvm_barrier0));
}

}  // namespace

llvm::Value* grid_blocks(codegen::Frame& f, DeviceModule& dm) {
  llvm::IRBuilder<>& b = f.b;
  if (!dm.emulate)
    return b.CreateZExt(b.CreateCall(llvm::Intrinsic::getDeclaration(&f.mc.module, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x)),
                        b.getInt64Ty(), "nctaid.x");
  llvm::FunctionCallee get = f.mc.module.getOrInsertFunction("dace_cuda_emu_grid_dim", llvm::FunctionType::get(b.getPtrTy(), false));
  return b.CreateLoad(b.getInt64Ty(), b.CreateCall(get, {}, "emu.grid"), "nctaid.x");
}

void emit_grid_barrier(codegen::Frame& f, DeviceModule& dm) {
  llvm::IRBuilder<>& b = f.b;
  if (dm.emulate) {
    // The runtime runs the blocks one at a time and switches at each barrier: all blocks
    // finish the phase before any starts the next (runtime/emulation.cpp).
    b.CreateCall(f.mc.module.getOrInsertFunction("dace_cuda_emu_grid_sync", llvm::FunctionType::get(b.getVoidTy(), false)));
    return;
  }
  llvm::LLVMContext& ctx = f.mc.ctx;
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  llvm::Type* i32 = b.getInt32Ty();
  llvm::GlobalVariable* words = barrier_words(dm);
  llvm::Value* base = b.CreateAddrSpaceCast(words, b.getPtrTy());
  llvm::Value* counter = b.CreateConstInBoundsGEP1_64(i32, base, kCounterWord, "gbar.count");
  llvm::Value* generation = b.CreateConstInBoundsGEP1_64(i32, base, kGenerationWord, "gbar.gen");

  // Every thread of the block is done with the phase (and, by the block barrier's CTA-scope
  // ordering, thread 0 is ordered after all their writes, which its release below covers).
  block_barrier(f);
  llvm::Value* tid = b.CreateCall(llvm::Intrinsic::getDeclaration(&f.mc.module, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x));
  llvm::BasicBlock* arrive = llvm::BasicBlock::Create(ctx, "gbar.arrive", fn);
  llvm::BasicBlock* release = llvm::BasicBlock::Create(ctx, "gbar.release", fn);
  llvm::BasicBlock* wait = llvm::BasicBlock::Create(ctx, "gbar.wait", fn);
  llvm::BasicBlock* sleep = llvm::BasicBlock::Create(ctx, "gbar.sleep", fn);
  llvm::BasicBlock* passed = llvm::BasicBlock::Create(ctx, "gbar.passed", fn);
  llvm::BasicBlock* after = llvm::BasicBlock::Create(ctx, "gbar.after", fn);
  b.CreateCondBr(b.CreateICmpEQ(tid, b.getInt32(0)), arrive, after);

  b.SetInsertPoint(arrive);
  llvm::Value* blocks = b.CreateTrunc(grid_blocks(f, dm), i32);
  // The generation is read before arriving (the fence orders the read before the arrival):
  // read after, it could already be the next one, and the block would wait for ever.
  llvm::Value* seen = ptx(b, i32, "ld.relaxed.gpu.u32 $0, [$1];", "=r,l", {generation});
  // Release: the block's writes (and that read) happen before the arrival that others observe.
  ptx(b, b.getVoidTy(), "fence.acq_rel.gpu;", "", {});
  // Wrapping increment: the last of `blocks` arrivals leaves the counter at 0 for the next barrier.
  llvm::Value* before = ptx(b, i32, "atom.relaxed.gpu.inc.u32 $0, [$1], $2;", "=r,l,r",
                            {counter, b.CreateSub(blocks, b.getInt32(1))});
  b.CreateCondBr(b.CreateICmpEQ(before, b.CreateSub(blocks, b.getInt32(1))), release, wait);

  // The last block: the fence acquires every arrival (the counter's atomic chain) and releases
  // the new generation, which carries all blocks' writes to the blocks that see it.
  b.SetInsertPoint(release);
  ptx(b, b.getVoidTy(), "fence.acq_rel.gpu;", "", {});
  ptx(b, b.getVoidTy(), "red.relaxed.gpu.add.u32 [$0], 1;", "l", {generation});
  b.CreateBr(passed);

  b.SetInsertPoint(wait);
  llvm::Value* now = ptx(b, i32, "ld.relaxed.gpu.u32 $0, [$1];", "=r,l", {generation});
  b.CreateCondBr(b.CreateICmpNE(now, seen), passed, sleep);
  b.SetInsertPoint(sleep);
  ptx(b, b.getVoidTy(), "nanosleep.u32 32;", "", {});
  b.CreateBr(wait);

  // Acquire: the generation's change, then this fence, orders the other blocks' writes before
  // what the block does next; the block barrier hands that on to its other threads.
  b.SetInsertPoint(passed);
  ptx(b, b.getVoidTy(), "fence.acq_rel.gpu;", "", {});
  b.CreateBr(after);
  b.SetInsertPoint(after);
  block_barrier(f);
}

}  // namespace dace::cuda
