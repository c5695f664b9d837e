// Which transients of a LoopToMap body can get one copy per iteration. Once the body is in
// a map, a transient whose access nodes are all inside the map is allocated inside its scope
// (codegen's scope-local allocation), so each iteration has its own; that is only right
// when no iteration reads a value another one (or code after the loop) wrote.
#pragma once
#include <string>

#include "ir/sdfg.h"
#include "ir/state.h"

namespace dace::transform {

// True when `data` is a Scope-lifetime transient Array/Scalar used only by `body` (no other
// state, no control-flow code names it) and every read in the body reads what a tasklet of
// the same access node wrote in the same iteration: each node of it has in-edges, all from
// tasklets with plain, non-dynamic, non-WCR memlets, and ISL proves every out-edge's subset
// lies in one in-edge's subset. Reads go to computations only (no copies out of it).
// Otherwise false, with the reason in `why`.
bool privatizable(const ir::SDFG& sdfg, const ir::State& body, const std::string& data, std::string& why);

}  // namespace dace::transform
