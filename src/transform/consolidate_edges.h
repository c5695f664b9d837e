// ConsolidateEdges (DaCe's simplify pass of that name, dace/transformation/passes/
// consolidate_edges.py): where a map scope reads (or writes) one container through several
// connectors, the connectors are merged into one whose outer memlet is the union of theirs
// (the bounding box; volumes add up), and the inner edges use the kept connector. Fewer
// connectors let later transformations match (MapFusion, for one).
//
// Stricter than DaCe, which merges whatever edges of a scope name the same container: two
// connectors are merged only when their outer edges join the same node at the same connector
// (the same access node, or the same connector of the enclosing scope), so no access node or
// enclosing path is dropped; both memlets have unit steps and bounds whose differences are
// integers (so the union is exact to write); neither side has a WCR. Scopes are processed
// innermost first, as in DaCe, so merges inside can enable merges outside.
#pragma once

#include "transform/pass.h"

namespace dace::transform {

class ConsolidateEdges : public Pass {
 public:
  std::string_view name() const override { return "ConsolidateEdges"; }
  Modifies modifies() const override { return Modifies::Memlets; }
  Modifies depends_on() const override { return Modifies::AccessNodes | Modifies::Memlets; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;
};

}  // namespace dace::transform
