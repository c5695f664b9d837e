#include "transform/simplify.h"

#include "transform/apply.h"
#include "transform/array_elimination.h"
#include "transform/consolidate_edges.h"
#include "transform/constant_propagation.h"
#include "transform/dead_dataflow_elimination.h"
#include "transform/dead_state_elimination.h"
#include "transform/inline_sdfgs.h"
#include "transform/loop_lifting.h"
#include "transform/remove_unused_symbols.h"
#include "transform/scalar_to_symbol.h"
#include "transform/state_fusion.h"

namespace dace::transform {

std::unique_ptr<Pipeline> make_simplify_pipeline() {
  // DaCe's order would raise control flow first. DaCe 1.0.2, which must replay our history,
  // skips ConstantPropagation, DeadDataflowElimination, DeadStateElimination,
  // RemoveUnusedSymbols and ArrayElimination once an SDFG holds a LoopRegion (they are
  // `single_level_sdfg_only`), so those run to their fixed point on the state machine first
  // and loops are lifted after.
  auto dataflow = std::make_unique<Pipeline>("simplify (fixed point)");
  dataflow->add(std::make_unique<InlineSDFGs>());
  dataflow->add(std::make_unique<ScalarToSymbolPromotion>());
  dataflow->add(std::make_unique<PatternPass>(std::make_unique<StateFusion>()));
  dataflow->add(std::make_unique<ConstantPropagation>());
  dataflow->add(std::make_unique<DeadDataflowElimination>());
  dataflow->add(std::make_unique<DeadStateElimination>());
  dataflow->add(std::make_unique<RemoveUnusedSymbols>());
  dataflow->add(std::make_unique<ArrayElimination>());
  dataflow->add(std::make_unique<ConsolidateEdges>());
  dataflow->fixed_point();

  auto p = std::make_unique<Pipeline>("simplify");
  p->add(std::move(dataflow));
  p->add(std::make_unique<PatternPass>(std::make_unique<LoopLifting>()));
  // Each lifted loop starts with its former guard, an empty state: fused into the body's
  // first state where that is a state (DaCe's StateFusion replays these, loops and all).
  p->add(std::make_unique<PatternPass>(std::make_unique<StateFusion>()));
  return p;
}

}  // namespace dace::transform
