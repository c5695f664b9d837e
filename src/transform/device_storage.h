// Storages whose memory host code cannot address (a GPU's), as the GPU passes after
// GPUTransformSDFG tell host from device containers.
#pragma once
#include <string>

#include "ir/enums.h"
#include "ir/sdfg.h"

namespace dace::transform {

inline bool in_device_memory(ir::StorageType s) {
  return s == ir::StorageType::GPU_Global || s == ir::StorageType::GPU_Shared;
}

// Adds a host transient of `device`'s type, shape and strides (a fresh name from `device` +
// `suffix`) that a pass stages its data through; returns its name.
std::string add_host_mirror(ir::SDFG& sdfg, const std::string& device, const std::string& suffix);

}  // namespace dace::transform
