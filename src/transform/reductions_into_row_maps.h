// auto_optimize's preparation for fusing reductions with the maps around them (issue 11):
// every top-level Reduce over the trailing axes of its input that is next to a map over the
// same space (the map writes the Reduce's input, or reads its output) moves inside a map
// over the kept dimensions (ReduceToOuterMap), and each such neighbour map is split into a
// map over the same kept dimensions around a map over the reduced ones (MapExpansion with
// `expansion_limit` = the number of kept dimensions, then MapCollapse of the single-parameter
// outer maps). MapFusion, which runs next in auto_optimize with its full legality check,
// then fuses the maps over the kept dimensions: softmax's `max`, `exp(x - max)`, `sum` and
// `/ sum` become one map over rows whose per-row temporaries stay in the L1 cache (four
// passes over N*H*SM*SM elements become one). Every step is recorded under its own name;
// MapExpansion and MapCollapse are replayable by DaCe 1.0.2, ReduceToOuterMap is not.
#pragma once
#include "transform/pass.h"

namespace dace::transform {

class ReductionsIntoRowMaps : public Pass {
 public:
  std::string_view name() const override { return "ReductionsIntoRowMaps"; }
  Modifies modifies() const override { return Modifies::Scopes | Modifies::Memlets | Modifies::Nodes; }
  bool records_itself() const override { return true; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;
};

}  // namespace dace::transform
