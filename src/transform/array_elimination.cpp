#include "transform/array_elimination.h"

#include "transform/redundant_array.h"

namespace dace::transform {

Result<bool> ArrayElimination::apply(ir::SDFG& sdfg, AnalysisManager& am) {
  RedundantArray t;
  bool changed = false;
  // First legal match in canonical order, then enumerate again: an application removes nodes,
  // so the remaining matches' ids are stale.
  for (bool again = true; again;) {
    again = false;
    for (const Match& m : t.enumerate(sdfg, am)) {
      if (!t.can_be_applied(sdfg, m, am)) continue;
      DACE_TRY(t.apply(sdfg, m, am));
      again = changed = true;
      break;
    }
  }
  return changed;
}

}  // namespace dace::transform
