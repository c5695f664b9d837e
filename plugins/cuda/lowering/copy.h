// Copies between host memory and GPU_Global (and between GPU_Global containers) in host code:
// the copy edges of an SDFG whose ends live in different memories. The memlet's subsets are
// reduced to rows of contiguous bytes: one contiguous block is dace_cuda_copy, rows at a
// pitch are dace_cuda_copy_2d (cuMemcpy2D), and higher ranks loop over 2-D copies.
#pragma once
#include "codegen/target_lowering.h"
#include "plugin/interfaces.h"

namespace dace::cuda {

class DeviceCopy final : public plugin::CopyLowering {
 public:
  Status lower_copy(codegen::CopyContext& context) const override;
};

// The storages host code addresses directly, by their names (copies to and from GPU_Global
// are registered for each).
const char* const* host_storage_names();

}  // namespace dace::cuda
