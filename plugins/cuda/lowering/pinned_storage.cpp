#include "lowering/pinned_storage.h"

#include <llvm/IR/Module.h>

#include "codegen/allocation.h"
#include "codegen/frame.h"
#include "ir/path.h"

namespace dace::cuda {

Status PinnedStorage::lower_allocation(codegen::AllocationContext& context) const {
  if (context.host) {  // an argument: the caller's memory, pinned or not
    context.bound = context.host;
    return Status::success();
  }
  codegen::Frame& f = context.f;
  if (f.parallel_context)
    return make_error(Code::Internal, ir::path_of_data(f.sc.sdfg, context.name) +
                                          ": a CPU_Pinned container planned for the whole call is allocated inside a scope");
  Result<codegen::CheckedSize> checked = codegen::checked_allocation_size(f, context.name, context.desc);
  if (!checked) return checked.take_error();
  llvm::Module& m = f.mc.module;
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  // The emulated device has its own entry points (no driver); a kernel-less program has no
  // device module whose finishing would redirect the calls, so the name is chosen here.
  const bool emulated = f.mc.options.emulate_device;
  llvm::FunctionCallee allocate = m.getOrInsertFunction(
      emulated ? "dace_cuda_emu_malloc_host" : "dace_cuda_malloc_host", llvm::FunctionType::get(ptr, {llvm::Type::getInt64Ty(ctx)}, false));
  llvm::FunctionCallee release = m.getOrInsertFunction(
      emulated ? "dace_cuda_emu_free_host" : "dace_cuda_free_host", llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), {ptr}, false));
  llvm::IRBuilder<>& b = f.b;
  const std::string name = context.name;
  // A bad size or a null block is recorded as the call's status (the size check's message, or
  // "cannot allocate" naming the container); the core leaves once its batch is requested.
  llvm::Value* block = codegen::checked_allocate_with(f, *checked, context.zero, [&](llvm::Value* bytes) {
    return b.CreateCall(allocate, {bytes}, name + ".pinned");
  });
  f.exit_actions.push_back([block, release](llvm::IRBuilder<>& eb) { eb.CreateCall(release, {block}); });
  context.bound = block;
  return Status::success();
}

Status PinnedStorage::lower_deallocation(codegen::AllocationContext&) const { return Status::success(); }

}  // namespace dace::cuda
