#include "transform/simplify.h"

#include "transform/apply.h"
#include "transform/array_elimination.h"
#include "transform/consolidate_edges.h"
#include "transform/constant_propagation.h"
#include "transform/dead_dataflow_elimination.h"
#include "transform/dead_state_elimination.h"
#include "transform/inline_sdfgs.h"
#include "transform/remove_unused_symbols.h"
#include "transform/scalar_to_symbol.h"
#include "transform/state_fusion.h"

namespace dace::transform {

std::unique_ptr<Pipeline> make_simplify_pipeline() {
  // DaCe 1.0.2's SimplifyPass order. Control-flow raising (LoopLifting, ControlFlowRaising) is
  // not part of it: DaCe 1.0.2 fails to compile or run some SDFGs whose loops are lifted
  // (interop.dace_runs_transformed: crc16, doitgen), and what simplify writes must run there.
  auto p = std::make_unique<Pipeline>("simplify");
  p->add(std::make_unique<InlineSDFGs>());
  p->add(std::make_unique<ScalarToSymbolPromotion>());
  p->add(std::make_unique<PatternPass>(std::make_unique<StateFusion>()));
  p->add(std::make_unique<ConstantPropagation>());
  p->add(std::make_unique<DeadDataflowElimination>());
  p->add(std::make_unique<DeadStateElimination>());
  p->add(std::make_unique<RemoveUnusedSymbols>());
  p->add(std::make_unique<ArrayElimination>());
  p->add(std::make_unique<ConsolidateEdges>());
  p->fixed_point();
  return p;
}

}  // namespace dace::transform
