#include "lowering/global_storage.h"

#include <llvm/IR/Module.h>

#include "codegen/allocation.h"
#include "codegen/frame.h"
#include "ir/path.h"
#include "lowering/device_module.h"
#include "runtime/dace_cuda_runtime.h"

namespace dace::cuda {

namespace {

llvm::FunctionCallee runtime_malloc(llvm::Module& m) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  return m.getOrInsertFunction("dace_cuda_malloc", llvm::FunctionType::get(ptr, {llvm::Type::getInt64Ty(ctx)}, false));
}

llvm::FunctionCallee runtime_free(llvm::Module& m) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  return m.getOrInsertFunction("dace_cuda_free", llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), {ptr}, false));
}

llvm::FunctionCallee runtime_memset(llvm::Module& m) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i32 = llvm::Type::getInt32Ty(ctx);
  return m.getOrInsertFunction("dace_cuda_memset",
                               llvm::FunctionType::get(i32, {ptr, i32, llvm::Type::getInt64Ty(ctx)}, false));
}

llvm::FunctionCallee runtime_argument_in(llvm::Module& m) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  return m.getOrInsertFunction("dace_cuda_argument_in", llvm::FunctionType::get(ptr, {ptr, llvm::Type::getInt64Ty(ctx)}, false));
}

llvm::FunctionCallee runtime_argument_discard(llvm::Module& m) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  return m.getOrInsertFunction("dace_cuda_argument_discard",
                               llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), {ptr, ptr}, false));
}

llvm::FunctionCallee runtime_argument_out(llvm::Module& m) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  return m.getOrInsertFunction("dace_cuda_argument_out",
                               llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), {ptr, ptr, llvm::Type::getInt64Ty(ctx)}, false));
}

}  // namespace

Status GlobalStorage::lower_allocation(codegen::AllocationContext& context) const {
  codegen::Frame& f = context.f;
  if (f.parallel_context)
    return make_error(Code::Unsupported, f.sc.path + ": GPU_Global container \"" + context.name +
                                             "\" would be allocated inside a kernel or parallel map");
  // The device module guards init and, emulated, redirects the runtime calls (a program
  // without kernels has none otherwise).
  if (Result<DeviceModule*> dm = device_module(f); !dm) return dm.take_error();
  Result<codegen::CheckedSize> checked = codegen::checked_allocation_size(f, context.name, context.desc);
  if (!checked) return checked.take_error();
  // An unusable size (negative extent, overflow) is recorded and returned by the call; the
  // device block is then empty.
  llvm::Value* const bytes = codegen::checked_bytes_or_zero(f, *checked);
  llvm::Module& m = f.mc.module;
  llvm::IRBuilder<>& b = f.b;
  codegen::Frame* frame = &f;
  const std::string where = ir::path_of_data(f.sc.sdfg, context.name);
  // A failure here is recorded without leaving: the allocations of a batch are all made before
  // the exit path that frees them is valid. The block, or null when it failed, joins the
  // batch's pending allocations, so the core leaves once the batch is requested, before any
  // state runs (not every runtime error is sticky: after running out of device memory the
  // runtime stays usable, and nothing may run on a null block); the status keeps this first
  // failure.
  if (!context.host) {  // a transient: device memory for the whole call
    llvm::Value* device = b.CreateCall(runtime_malloc(m), {bytes}, context.name + ".device");
    record_runtime_failure(f, b.CreateIsNull(device), /*leave=*/false,
                           where + ": device allocation of \"" + context.name + "\"");
    llvm::Value* usable = device;
    if (context.zero) {
      // Nothing to zero when the allocation failed; a block left unzeroed is unusable too.
      llvm::Value* zero_bytes = b.CreateSelect(b.CreateIsNull(device), b.getInt64(0), bytes);
      llvm::Value* zeroed = b.CreateCall(runtime_memset(m), {device, b.getInt32(0), zero_bytes});
      record_runtime_failure(f, zeroed, /*leave=*/false, where + ": zeroing \"" + context.name + "\" on the device");
      usable = b.CreateSelect(b.CreateICmpNE(zeroed, b.getInt32(0)),
                              llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(m.getContext())), device);
    }
    f.pending_allocations.push_back(usable);
    const std::string free_what = where + ": freeing \"" + context.name + "\" on the device";
    f.exit_actions.push_back([frame, device, free_what](llvm::IRBuilder<>& eb) {
      record_runtime_failure(*frame, eb.CreateCall(runtime_free(frame->mc.module), {device}), /*leave=*/false, free_what);
    });
    context.bound = device;
    return Status::success();
  }
  // The caller's pointer is used as it is when it is device memory (a __cuda_array_interface__
  // object, DaCe's convention); host memory is mirrored on the device for the call.
  llvm::Value* device = b.CreateCall(runtime_argument_in(m), {context.host, bytes}, context.name + ".device");
  record_runtime_failure(f, b.CreateIsNull(device), /*leave=*/false,
                         where + ": copy of the argument \"" + context.name + "\" to the device");
  f.pending_allocations.push_back(device);  // the core leaves before the body when it is null
  llvm::Value* host = context.host;
  llvm::Value* size = bytes;
  // Read-only arguments need no copy back; the lowering does not know which are, so all go back
  // — when the call succeeded. After a failure the mirror is freed without copying, so that the
  // caller's array keeps what it held even where the runtime stayed usable (a recoverable
  // error: what earlier kernels wrote into the mirror stays there).
  const std::string out_what = where + ": copy of the argument \"" + context.name + "\" back from the device";
  const std::string discard_what = where + ": freeing the device copy of the argument \"" + context.name + "\"";
  f.exit_actions.push_back([frame, host, device, size, out_what, discard_what](llvm::IRBuilder<>& eb) {
    llvm::Function* fn = eb.GetInsertBlock()->getParent();
    llvm::LLVMContext& ctx = eb.getContext();
    llvm::BasicBlock* back = llvm::BasicBlock::Create(ctx, "argument.back", fn);
    llvm::BasicBlock* discard = llvm::BasicBlock::Create(ctx, "argument.discard", fn);
    llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx, "argument.done", fn);
    eb.CreateCondBr(frame->status_failed(eb), discard, back);
    eb.SetInsertPoint(back);
    // A kernel that faulted surfaces here, at the first copy after it (eb is the frame's builder).
    record_runtime_failure(*frame, eb.CreateCall(runtime_argument_out(frame->mc.module), {host, device, size}),
                           /*leave=*/false, out_what);
    eb.CreateBr(done);
    eb.SetInsertPoint(discard);
    record_runtime_failure(*frame, eb.CreateCall(runtime_argument_discard(frame->mc.module), {host, device}),
                           /*leave=*/false, discard_what);
    eb.CreateBr(done);
    eb.SetInsertPoint(done);
  });
  context.bound = device;
  return Status::success();
}

Status GlobalStorage::lower_deallocation(codegen::AllocationContext&) const { return Status::success(); }

Status GlobalStorage::lower_block_allocate(codegen::AllocationContext& context) const {
  codegen::Frame& f = context.f;
  if (f.parallel_context)
    return make_error(Code::Unsupported, f.sc.path + ": GPU_Global container \"" + context.name +
                                             "\" would be allocated inside a kernel or parallel map");
  if (Result<DeviceModule*> dm = device_module(f); !dm) return dm.take_error();
  llvm::Module& m = f.mc.module;
  llvm::IRBuilder<>& b = f.b;
  const std::string where = ir::path_of_data(f.sc.sdfg, context.name);
  llvm::Value* device = b.CreateCall(runtime_malloc(m), {context.bytes}, context.name + ".device");
  record_runtime_failure(f, b.CreateIsNull(device), /*leave=*/false, where + ": device allocation of \"" + context.name + "\"");
  context.bound = device;
  if (!context.zero) return Status::success();
  // A block that could not be zeroed is released and unusable (null), as a failed allocation.
  llvm::Value* zero_bytes = b.CreateSelect(b.CreateIsNull(device), b.getInt64(0), context.bytes);
  llvm::Value* zeroed = b.CreateCall(runtime_memset(m), {device, b.getInt32(0), zero_bytes});
  record_runtime_failure(f, zeroed, /*leave=*/false, where + ": zeroing \"" + context.name + "\" on the device");
  llvm::Value* failed = b.CreateICmpNE(zeroed, b.getInt32(0));
  llvm::Value* null = llvm::ConstantPointerNull::get(b.getPtrTy());
  b.CreateCall(runtime_free(m), {b.CreateSelect(failed, device, null)});
  context.bound = b.CreateSelect(failed, null, device);
  return Status::success();
}

void GlobalStorage::lower_block_release(codegen::AllocationContext& context) const {
  codegen::Frame& f = context.f;
  const std::string what = ir::path_of_data(f.sc.sdfg, context.name) + ": freeing \"" + context.name + "\" on the device";
  record_runtime_failure(f, f.b.CreateCall(runtime_free(f.mc.module), {context.held}), /*leave=*/false, what);
}

}  // namespace dace::cuda
