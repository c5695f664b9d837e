// GPU_Global storage. Program arguments in GPU_Global arrive as host pointers (the C ABI
// and `dace run` pass host arrays): the program allocates a device mirror on entry, copies
// the data in, and on exit copies it back and frees the mirror. Transient GPU_Global
// containers get device memory for the whole call (zeroed when the SDFG asks), freed on exit;
// those sized by symbols set inside the SDFG get it from the states that use them (the core
// holds the block and asks for a larger one when a state needs more: renews_blocks).
#pragma once
#include "codegen/target_lowering.h"
#include "plugin/interfaces.h"

namespace dace::cuda {

class GlobalStorage final : public plugin::StorageLowering {
 public:
  Status lower_allocation(codegen::AllocationContext& context) const override;
  Status lower_deallocation(codegen::AllocationContext& context) const override;
  bool renews_blocks() const override { return true; }
  Status lower_block_allocate(codegen::AllocationContext& context) const override;
  void lower_block_release(codegen::AllocationContext& context) const override;
};

}  // namespace dace::cuda
