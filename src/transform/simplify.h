// The simplify pipeline: DaCe's SimplifyPass order with the passes libdace has so far (FuseStates
// = StateFusion applied repeatedly, DeadStateElimination, RemoveUnusedSymbols), run to a fixed
// point. TrivialMapElimination and MapCollapse are not part of DaCe's simplify, so not of ours.
#pragma once
#include <memory>

#include "transform/pipeline.h"

namespace dace::transform {

std::unique_ptr<Pipeline> make_simplify_pipeline();

}  // namespace dace::transform
