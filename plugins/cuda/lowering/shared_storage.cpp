#include "lowering/shared_storage.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include "codegen/loops.h"
#include "codegen/types.h"
#include "ir/path.h"
#include "lowering/device_module.h"
#include "lowering/thread_index.h"

namespace dace::cuda {

namespace {

constexpr unsigned kSharedAddressSpace = 3;  // NVPTX's shared state space

std::optional<int64_t> constant_elements(const ir::DataDescriptor& d) {
  if (d.total_size) return sym::as_integer(sym::simplify(d.total_size));
  int64_t n = 1;
  for (sym::Expr e : d.shape) {
    std::optional<int64_t> v = sym::as_integer(sym::simplify(e));
    if (!v || *v < 0) return std::nullopt;
    n *= *v;
  }
  return n;
}

// Zeroes a block's shared `array` of `bytes` where it is allocated: in a kernel whose block
// comes from GPU_ThreadBlock maps, code outside those maps runs in every thread of the block
// on the device, so the threads clear it together (thread k the 8-byte words k, k + threads,
// ...) and meet at a barrier before any reads it; emulated, that code runs once per block
// (the thread loops are inside the block maps), so one memset.
Status zero_shared_array(codegen::Frame& f, DeviceModule& dm, llvm::Value* array, int64_t bytes) {
  llvm::IRBuilder<>& b = f.b;
  if (dm.emulate) {
    b.CreateMemSet(array, b.getInt8(0), b.getInt64(bytes), llvm::MaybeAlign(16));
    return Status::success();
  }
  const KernelState& ks = *dm.kernel;
  Result<ThreadPosition> thread = thread_position(f, dm);
  if (!thread) return thread.take_error();
  llvm::Value* linear = thread->linear;
  const int64_t threads = ks.block[0] * ks.block[1] * ks.block[2];
  // Whole words where the size allows (the array is 16-byte aligned), else bytes.
  const bool words = bytes % 8 == 0;
  llvm::Type* unit = words ? b.getInt64Ty() : b.getInt8Ty();
  codegen::CountedLoop loop =
      codegen::begin_loop(b, linear, b.getInt64(words ? bytes / 8 : bytes), "shared.zero", b.getInt64(threads));
  b.CreateStore(llvm::ConstantInt::get(unit, 0), b.CreateGEP(unit, array, loop.iv));
  codegen::end_loop(b, loop);
  b.CreateCall(llvm::Intrinsic::getDeclaration(&f.mc.module, llvm::Intrinsic::nvvm_barrier0));
  return Status::success();
}

}  // namespace

Result<llvm::Value*> block_shared_array(codegen::Frame& f, DeviceModule& dm, llvm::Type* array, int64_t bytes,
                                        const std::string& name, const std::string& what) {
  if (!dm.kernel) return make_error(Code::Internal, what + ": shared memory outside a kernel");
  KernelState& ks = *dm.kernel;
  if (bytes > kMaxStaticSharedBytes - ks.shared_bytes)
    return make_error(Code::Unsupported, ks.where + ": " + what + " needs " + std::to_string(bytes) +
                                             " bytes of shared memory per block, after " + std::to_string(ks.shared_bytes) +
                                             " bytes this kernel already uses: more than the " +
                                             std::to_string(kMaxStaticSharedBytes) + " bytes of static shared memory per block");
  ks.shared_bytes += bytes;
  if (dm.emulate) {
    llvm::AllocaInst* slot = f.entry_alloca(array, name + ".shared");
    slot->setAlignment(llvm::Align(16));
    return slot;
  }
  auto* g = new llvm::GlobalVariable(f.mc.module, array, false, llvm::GlobalValue::InternalLinkage,
                                     llvm::UndefValue::get(array), f.mc.unique_name(name + "_shared"), nullptr,
                                     llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
  g->setAlignment(llvm::Align(16));
  return llvm::ConstantExpr::getAddrSpaceCast(g, llvm::PointerType::getUnqual(f.mc.ctx));
}

Status SharedStorage::lower_allocation(codegen::AllocationContext& context) const {
  codegen::Frame& f = context.f;
  const std::string where = ir::path_of_data(f.sc.sdfg, context.name);
  if (context.host) return make_error(Code::Unsupported, where + ": a GPU_Shared container cannot be a program argument");
  DeviceModule* dm = device_module_of(f.mc);
  if (!dm || !dm->kernel)
    return make_error(Code::Unsupported, where + ": a GPU_Shared container must be used inside a GPU_Device map only");
  if (f.fn != dm->kernel->fn)
    return make_error(Code::Unsupported, where + ": a GPU_Shared container of a nested SDFG inside a kernel cannot be compiled yet");
  // Zeroing needs every thread of the block at one point, past which all may read: the kernel
  // level of a kernel whose block comes from GPU_ThreadBlock maps. Elsewhere a thread past
  // the map's range, or one inside a block-level scope, would miss the barrier.
  if (context.zero && (!dm->kernel->thread_blocks || dm->kernel->in_thread_block))
    return make_error(Code::Unsupported, where + ": a zero-initialized GPU_Shared container is compiled only at the "
                                                 "top of a GPU_Device map that holds GPU_ThreadBlock maps");
  std::optional<int64_t> n = constant_elements(context.desc);
  const int64_t elem_bytes = std::max(1, ir::element_size(context.desc.dtype));
  if (!n) return make_error(Code::Unsupported, where + ": a GPU_Shared container needs a constant size");
  // Checked before the product, which a huge constant shape would overflow.
  if (*n > kMaxStaticSharedBytes / elem_bytes)
    return make_error(Code::Unsupported, dm->kernel->where + ": the GPU_Shared container " + where + " needs " +
                                             std::to_string(*n) + " elements of " + std::to_string(elem_bytes) +
                                             " bytes: more than the " + std::to_string(kMaxStaticSharedBytes) +
                                             " bytes of static shared memory per block");
  llvm::Type* et = codegen::element_storage_type(f.mc.ctx, context.desc.dtype);
  auto* array = llvm::ArrayType::get(et, static_cast<uint64_t>(std::max<int64_t>(1, *n)));
  Result<llvm::Value*> bound =
      block_shared_array(f, *dm, array, std::max<int64_t>(1, *n) * elem_bytes, context.name, "the GPU_Shared container " + where);
  if (!bound) return bound.take_error();
  if (context.zero) DACE_TRY(zero_shared_array(f, *dm, *bound, std::max<int64_t>(1, *n) * elem_bytes));
  context.bound = *bound;
  return Status::success();
}

Status SharedStorage::lower_deallocation(codegen::AllocationContext&) const { return Status::success(); }

}  // namespace dace::cuda
