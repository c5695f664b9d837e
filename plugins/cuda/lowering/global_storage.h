// GPU_Global storage. Program arguments in GPU_Global arrive as host pointers (the C ABI
// and `dace run` pass host arrays): the program allocates a device mirror on entry, copies
// the data in, and on exit copies it back and frees the mirror. Transient GPU_Global
// containers get device memory for the whole call (zeroed when the SDFG asks), freed on exit.
#pragma once
#include "codegen/target_lowering.h"
#include "plugin/interfaces.h"

namespace dace::cuda {

class GlobalStorage final : public plugin::StorageLowering {
 public:
  Status lower_allocation(codegen::AllocationContext& context) const override;
  Status lower_deallocation(codegen::AllocationContext& context) const override;
};

}  // namespace dace::cuda
