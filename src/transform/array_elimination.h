// ArrayElimination (DaCe's pass name): removes containers that only carry a value from one
// place to another. Today it applies RedundantArray until no match is left (redundant_array.h
// has the legality); DaCe's pass also removes redundant views and merges duplicate access
// nodes, which this one does not do yet.
//
// It is recorded as one pass entry, not one entry per RedundantArray application, as DaCe's
// simplify records it: node ids inside fused states differ between our StateFusion and
// DaCe's (DaCe merges more duplicate source nodes), so a node-level location in a simplify
// history would not resolve in DaCe, while DaCe's own ArrayElimination replays fine.
#pragma once

#include "transform/pass.h"

namespace dace::transform {

class ArrayElimination : public Pass {
 public:
  std::string_view name() const override { return "ArrayElimination"; }
  Modifies modifies() const override { return Modifies::AccessNodes | Modifies::Memlets | Modifies::Descriptors; }
  Modifies depends_on() const override { return Modifies::States | Modifies::Nodes | Modifies::Memlets | Modifies::Descriptors; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;
};

}  // namespace dace::transform
