// What LoopToMap needs to know about a loop body of any shape (one state, several states,
// inner loops and branches): every access of a container shared between iterations, in
// terms of the loop variable; the containers each iteration can have for itself; and whether
// the body's symbols and control flow allow running its iterations as independent map
// iterations.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "ir/sdfg.h"
#include "transform/loop_bounds.h"
#include "transform/loop_dependence.h"

namespace dace::transform {

class AnalysisManager;

struct LoopBody {
  // Accesses of shared containers, at the top level of each state; subsets inside inner loops
  // are propagated over those loops' ranges (whole extent when a range is unknown). Containers
  // named by control-flow code in the body are read whole.
  std::vector<BodyAccess> accesses;
  std::set<std::string> reads, writes;  // shared containers read / written in the body
  // Privatized transients (loop_privatization.h) and views used only in the body: one per
  // iteration. A local view's accesses are seen at the container it views, through the link.
  std::set<std::string> local;
  std::set<std::string> assigned;  // symbols the body assigns (interstate edges, inner loops)
};

// Fills `out`; false with the reason (naming the element) when the body cannot become map
// iterations: it assigns the loop variable or a symbol of the range, reads a symbol it assigns
// before assigning it in the same iteration, a symbol it assigns is used outside the loop, it
// has break/continue/return of this loop, a cycle of blocks, a view or reference that is not
// local, an inner-scope access node whose data does not cross its scope, or an access whose
// subset depends on a symbol it assigns. Which containers states use comes from `am`'s cached
// access sets.
bool analyze_loop_body(const ir::SDFG& sdfg, const ir::LoopRegion& loop, const LoopBounds& bounds, AnalysisManager& am,
                       LoopBody& out, std::string& why);

}  // namespace dace::transform
