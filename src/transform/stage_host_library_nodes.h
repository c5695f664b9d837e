// StageHostLibraryNodes (pass; auto_optimize_gpu's, after GPUTransformSDFG; not replayable by
// DaCe 1.0.2): a library node that only the host can run — LAPACK's and the linear-algebra
// library's (Cholesky, Solve, Inv, ...: DaCe runs them on the GPU through cuSOLVER, which
// libdace does not call) — reads and writes host copies of the GPU_Global containers it
// touches. Each such container gets a host transient of its shape; the node's inputs are copied
// to it before the node (device to host), its outputs written there and copied back after it
// (host to device), all in the node's state, so dataflow orders the copies, the node and the
// kernels around it. The node's schedule returns to the host (Default). Only nodes outside
// scopes whose edges connect to access nodes are staged; others stay as they were (their
// lowering then names the GPU_Global container host code cannot read).
#pragma once
#include "transform/pass.h"

namespace dace::transform {

class StageHostLibraryNodes : public Pass {
 public:
  std::string_view name() const override { return "StageHostLibraryNodes"; }
  Modifies modifies() const override { return Modifies::Descriptors | Modifies::Nodes | Modifies::Memlets; }
  Modifies depends_on() const override { return Modifies::Descriptors | Modifies::Nodes | Modifies::Memlets; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;
};

// Library classes that only the host runs (their packages: dace.libraries.lapack, linalg).
bool host_only_library(const std::string& classpath);

}  // namespace dace::transform
