// The simplify pipeline: DaCe's SimplifyPass with the passes libdace has so far. FuseStates
// (StateFusion applied repeatedly), DeadDataflowElimination, DeadStateElimination,
// RemoveUnusedSymbols and ArrayElimination run to a fixed point; then LoopLifting raises
// for-loops into LoopRegions and StateFusion folds each former guard into its body. DaCe
// raises control flow first; here it comes last so that DaCe 1.0.2 can replay the history
// (simplify.cpp says why). TrivialMapElimination and MapCollapse are not part of DaCe's
// simplify, so not of ours; conditional raising (control_flow_raising.h) is not replayable by
// DaCe 1.0.2 and stays outside.
#pragma once
#include <memory>

#include "transform/pipeline.h"

namespace dace::transform {

std::unique_ptr<Pipeline> make_simplify_pipeline();

}  // namespace dace::transform
