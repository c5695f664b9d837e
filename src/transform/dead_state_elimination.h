// DeadStateElimination (DaCe's name): removes control flow that can never run. Interstate
// edges whose condition is a constant false are removed, then every block that the region's
// start block no longer reaches; conditional branches whose condition is constant false, or
// that follow a constant-true branch, are removed (the last branch always stays; a lone else
// branch becomes `if 1`). Only
// conditions without free symbols count as constant: a symbol's value is never assumed.
#pragma once
#include <optional>

#include "transform/pass.h"

namespace dace::transform {

class DeadStateElimination : public Pass {
 public:
  std::string_view name() const override { return "DeadStateElimination"; }
  Modifies modifies() const override { return Modifies::States | Modifies::InterstateEdges | Modifies::Nodes | Modifies::Memlets; }
  Modifies depends_on() const override { return Modifies::States | Modifies::InterstateEdges; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;
};

// The value of a condition without free symbols; nullopt when it has some or cannot be read.
std::optional<bool> constant_condition(const ir::CodeBlock& condition);

}  // namespace dace::transform
