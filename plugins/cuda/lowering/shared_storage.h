// GPU_Shared storage: a transient that the threads of one block share (docs/cuda.md). On
// the device it is a static __shared__ array (an addrspace(3) global of the device module);
// emulated, the kernel runs once per block, so a stack array of the kernel function is that
// block's copy. Its size must be constant; it exists only in the kernel's own function (not
// in nested SDFGs inside it, whose device functions would need it passed along).
#pragma once
#include "codegen/target_lowering.h"
#include "plugin/interfaces.h"

namespace dace::cuda {

struct DeviceModule;

// Static shared memory per block that every CUDA GPU since sm_20 has.
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;

// Memory the threads of one block share, `array` (an LLVM array type, `bytes` in size), for
// the kernel being emitted into `f` (dm.kernel): a static addrspace(3) array of the device
// module, reached through a generic pointer; emulated, a stack array of the kernel function,
// which runs once per block. Used by GPU_Shared containers and by the plugin's own kernels'
// scratch space. Adds `bytes` to the kernel's total and refuses (Unsupported, naming the
// kernel's map and `what`) when the total passes kMaxStaticSharedBytes: checked while
// compiling, also when emulated, so a program that runs emulated also launches on a GPU.
Result<llvm::Value*> block_shared_array(codegen::Frame& f, DeviceModule& dm, llvm::Type* array, int64_t bytes,
                                        const std::string& name, const std::string& what);

class SharedStorage final : public plugin::StorageLowering {
 public:
  Status lower_allocation(codegen::AllocationContext& context) const override;
  Status lower_deallocation(codegen::AllocationContext& context) const override;
  // Bound inside the kernel whose scope allocates it, one instance per block.
  TransientPlacement transient_placement() const override { return TransientPlacement::Scope; }
  bool shared_by_threads() const override { return true; }
};

}  // namespace dace::cuda
