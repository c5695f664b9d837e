// Storages whose memory host code cannot address (a GPU's), as the GPU passes after
// GPUTransformSDFG tell host from device containers.
#pragma once
#include "ir/enums.h"

namespace dace::transform {

inline bool in_device_memory(ir::StorageType s) {
  return s == ir::StorageType::GPU_Global || s == ir::StorageType::GPU_Shared;
}

}  // namespace dace::transform
