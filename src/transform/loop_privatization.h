// Which transients of a LoopToMap body can get one copy per iteration. Once the body is in a
// map (directly, or inside a nested SDFG in the map), a transient whose access nodes are all
// in the body is allocated per iteration; that is only right when no iteration reads a value
// that another iteration (or code outside the loop) wrote.
#pragma once
#include <string>

#include "ir/sdfg.h"

namespace dace::transform {

class AnalysisManager;

// True when `data` is a Scope-lifetime transient Array/Scalar used only inside `loop` (no
// access node elsewhere in `sdfg`, no control-flow code names it) and every read of it in
// the body reads what the same iteration wrote before: walking the body's blocks in
// topological order, each read subset lies (by ISL) in a definite write of the same access
// node or of an earlier state on the one path to it. Definite writes are plain (not dynamic,
// no WCR) memlets from tasklets, library nodes, copies from access nodes (not view links),
// map exits whose inner tasklet writes `p + c` per dimension with a distinct unit-step
// parameter each (so the image is exactly the box), and nested SDFGs passed the whole
// container for an inner one of the same shape (what the inner walk finds written at its
// single sink block, through the symbol mapping). Writes inside inner loops and branches
// do not count after them; an interstate assignment forgets the writes whose subsets use the
// symbol it assigns. Otherwise false, with the reason in `why`. Whether other states use
// `data` comes from `am`'s cached access sets.
bool privatizable(const ir::SDFG& sdfg, const ir::LoopRegion& loop, const std::string& data, AnalysisManager& am,
                  std::string& why);

// Whether code of control flow anywhere in `region` (interstate edges, loop headers, branch
// conditions) mentions `name`.
bool named_by_control_flow(const ir::ControlFlowRegion& region, const std::string& name);

// Whether `block` is `region` or lies inside it.
bool inside(const ir::ControlFlowBlock& block, const ir::ControlFlowRegion& region);

}  // namespace dace::transform
