// ExpandTransposesToMaps (pass; auto_optimize_gpu's, not replayable by DaCe 1.0.2): the standard
// library's Transpose (2-D) and TensorTranspose (a permutation `axes`; out = alpha *
// permute(in) with beta 0) become a map over the input whose tasklet copies (and scales) each
// element to its permuted place — DaCe's pure expansion, but as a map in the SDFG instead of
// loops that code generation emits for the node, so that GPUTransformSDFG turns it into a
// kernel (code generation's loops are host code, which cannot touch GPU_Global data).
//
// Expanded: nodes outside any scope whose input and output edges come from and go to access
// nodes, without write-conflict resolution, whose permutation fits the input's rank and whose
// output has the permuted input's sizes (unit dimensions squeezed, as the lowering does). Left
// as they are: beta != 0 (the output is read too), properties that are not plain numbers or
// integer lists, other shapes, nodes inside nested SDFGs. Deterministic: states and nodes in
// id order, parameter names from the node's id.
#pragma once
#include "transform/pass.h"

namespace dace::transform {

class ExpandTransposesToMaps : public Pass {
 public:
  std::string_view name() const override { return "ExpandTransposesToMaps"; }
  Modifies modifies() const override { return Modifies::Nodes | Modifies::Memlets; }
  Modifies depends_on() const override { return Modifies::Nodes | Modifies::Memlets; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;
};

}  // namespace dace::transform
