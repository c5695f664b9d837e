// SplitConvertingCopies (pass; auto_optimize_gpu's, after GPUTransformSDFG; not replayable by
// DaCe 1.0.2): a copy between host and GPU memory that also converts the element type (NumPy's
// `O[:] = x` of a float64 temporary into an int64 output, which GPUTransformSDFG makes a copy
// from host memory to the output's device clone) becomes two copies through a host transient:
// host to device, the conversion happens on the host first (into a transient of the device
// container's type and shape), then a plain copy; device to host, a plain copy into a host
// transient of the device container's type and shape, then the converting copy on the host.
// A device runtime copies bytes; the host converts elements. A copy between host and device
// memory whose host array runs backwards (a negative stride) is staged the same way, without
// conversion: the host rearranges, the runtime copies forwards. Between two device containers the
// copy becomes a GPU_Device map whose tasklet converts each element (DaCe's CopyToMap).
#pragma once
#include "transform/pass.h"

namespace dace::transform {

class SplitConvertingCopies : public Pass {
 public:
  std::string_view name() const override { return "SplitConvertingCopies"; }
  Modifies modifies() const override { return Modifies::Descriptors | Modifies::Nodes | Modifies::Memlets; }
  Modifies depends_on() const override { return Modifies::Descriptors | Modifies::Nodes | Modifies::Memlets; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;
};

}  // namespace dace::transform
