// CPU_Pinned storage: host memory that the device's copy engines read and write directly, so
// copies to and from GPU_Global need no staging and stream copies are truly asynchronous.
// The core plans which CPU_Pinned transients this lowering allocates (whole-call arrays of the
// outermost SDFG, codegen::AllocationPlan::plugin_allocated); it asks the runtime for
// page-locked memory on entry (dace_cuda_malloc_host: cuMemAllocHost, or ordinary memory where
// no device is usable) and frees it on exit. Arguments are used as the caller passed them.
#pragma once
#include "codegen/target_lowering.h"
#include "plugin/interfaces.h"

namespace dace::cuda {

class PinnedStorage final : public plugin::StorageLowering {
 public:
  Status lower_allocation(codegen::AllocationContext& context) const override;
  Status lower_deallocation(codegen::AllocationContext& context) const override;
};

}  // namespace dace::cuda
