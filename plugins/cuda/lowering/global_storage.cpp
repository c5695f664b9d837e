#include "lowering/global_storage.h"

#include <llvm/IR/Module.h>

#include "codegen/allocation.h"
#include "codegen/frame.h"
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
  Result<codegen::CheckedSize> checked = codegen::checked_allocation_size(f, context.name, context.desc);
  if (!checked) return checked.take_error();
  // An unusable size (negative extent, overflow) is recorded and returned by the call; the
  // device block is then empty.
  llvm::Value* const bytes = codegen::checked_bytes_or_zero(f, *checked);
  llvm::Module& m = f.mc.module;
  llvm::IRBuilder<>& b = f.b;
  codegen::ModuleContext* mc = &f.mc;
  if (!context.host) {  // a transient: device memory for the whole call
    llvm::Value* device = b.CreateCall(runtime_malloc(m), {bytes}, context.name + ".device");
    if (context.zero) b.CreateCall(runtime_memset(m), {device, b.getInt32(0), bytes});
    f.exit_actions.push_back([mc, device](llvm::IRBuilder<>& eb) { eb.CreateCall(runtime_free(mc->module), {device}); });
    context.bound = device;
    return Status::success();
  }
  // The caller's pointer is used as it is when it is device memory (a __cuda_array_interface__
  // object, DaCe's convention); host memory is mirrored on the device for the call.
  llvm::Value* device = b.CreateCall(runtime_argument_in(m), {context.host, bytes}, context.name + ".device");
  llvm::Value* host = context.host;
  llvm::Value* size = bytes;
  // Read-only arguments need no copy back; the lowering does not know which are, so all go back.
  codegen::Frame* frame = &f;
  f.exit_actions.push_back([mc, frame, host, device, size](llvm::IRBuilder<>& eb) {
    // A kernel that faulted surfaces here, at the first copy after it (eb is the frame's builder).
    record_runtime_failure(*frame, eb.CreateCall(runtime_argument_out(mc->module), {host, device, size}),
                           /*leave=*/false);
  });
  context.bound = device;
  return Status::success();
}

Status GlobalStorage::lower_deallocation(codegen::AllocationContext&) const { return Status::success(); }

}  // namespace dace::cuda
