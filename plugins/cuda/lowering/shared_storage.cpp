#include "lowering/shared_storage.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>

#include "codegen/types.h"
#include "ir/path.h"
#include "lowering/device_module.h"

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

}  // namespace

llvm::Value* block_shared_array(codegen::Frame& f, const DeviceModule& dm, llvm::Type* array, const std::string& name) {
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
  if (context.zero)
    return make_error(Code::Unsupported, where + ": a zero-initialized GPU_Shared container cannot be compiled yet");
  std::optional<int64_t> n = constant_elements(context.desc);
  const int64_t elem_bytes = std::max(1, ir::element_size(context.desc.dtype));
  if (!n) return make_error(Code::Unsupported, where + ": a GPU_Shared container needs a constant size");
  if (*n * elem_bytes > kMaxStaticSharedBytes)
    return make_error(Code::Unsupported, where + ": " + std::to_string(*n * elem_bytes) + " bytes of GPU_Shared memory exceed " +
                                             std::to_string(kMaxStaticSharedBytes) + " per block");
  llvm::Type* et = codegen::element_storage_type(f.mc.ctx, context.desc.dtype);
  auto* array = llvm::ArrayType::get(et, static_cast<uint64_t>(std::max<int64_t>(1, *n)));
  context.bound = block_shared_array(f, *dm, array, context.name);
  return Status::success();
}

Status SharedStorage::lower_deallocation(codegen::AllocationContext&) const { return Status::success(); }

}  // namespace dace::cuda
