// auto_optimize for CPU (DaCe's dace.transformation.auto.auto_optimize with device CPU), as a
// pipeline of registered passes and pattern transformations: raise loops, simplify, turn
// independent loops into maps, simplify again, collapse nested maps, fuse producer/consumer
// maps, simplify. Built from the registry by name, so a step that is a pass today and a
// pattern transformation tomorrow (LoopLifting) needs no change here.
#pragma once
#include <memory>

#include "transform/pipeline.h"

namespace dace::transform {

std::unique_ptr<Pipeline> make_auto_optimize_cpu_pipeline();
// auto_optimize for the GPU (device GPU): the same loop and map steps, then GPUTransformSDFG
// and fusion of the resulting kernels (docs/optimizer.md).
std::unique_ptr<Pipeline> make_auto_optimize_gpu_pipeline();

}  // namespace dace::transform
