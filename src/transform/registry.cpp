#include "transform/registry.h"

#include <algorithm>
#include <iterator>
#include <functional>

#include "transform/accumulate_transient.h"
#include "transform/array_elimination.h"
#include "transform/aug_assign_to_wcr.h"
#include "transform/auto_optimize.h"
#include "transform/consolidate_edges.h"
#include "transform/constant_propagation.h"
#include "transform/control_flow_raising.h"
#include "transform/dead_dataflow_elimination.h"
#include "transform/dead_state_elimination.h"
#include "transform/expand_gemm_pblas.h"
#include "transform/fold_scaling_into_gemm.h"
#include "transform/gpu_transform_sdfg.h"
#include "transform/in_local_storage.h"
#include "transform/inline_multistate_sdfg.h"
#include "transform/inline_sdfg.h"
#include "transform/inline_sdfgs.h"
#include "transform/expand_transposes_to_maps.h"
#include "transform/library_expansion.h"
#include "transform/loop_into_row_maps.h"
#include "transform/loop_lifting.h"
#include "transform/loop_to_map.h"
#include "transform/loop_unroll.h"
#include "transform/make_transients_persistent.h"
#include "transform/map_collapse.h"
#include "transform/map_expansion.h"
#include "transform/map_fusion.h"
#include "transform/map_fusion_horizontal.h"
#include "transform/map_interchange.h"
#include "transform/map_tiling.h"
#include "transform/mat_vec_pair_fused_rows.h"
#include "transform/mat_vec_pair_row_blocking.h"
#include "transform/matmul_scaling_to_output.h"
#include "transform/move_loop_into_map.h"
#include "transform/mpi_transform_map.h"
#include "transform/redundant_array.h"
#include "transform/redundant_second_array.h"
#include "transform/reduce_to_outer_map.h"
#include "transform/reductions_into_row_maps.h"
#include "transform/refine_nested_access.h"
#include "transform/remove_unused_symbols.h"
#include "transform/scalar_to_symbol.h"
#include "transform/simplify.h"
#include "transform/split_converting_copies.h"
#include "transform/stage_host_library_nodes.h"
#include "transform/state_fusion.h"
#include "transform/strip_mining.h"
#include "transform/symbol_propagation.h"
#include "transform/trivial_map_elimination.h"

namespace dace::transform {
namespace {

template <class T>
std::unique_ptr<Transformation> make_t() {
  return std::make_unique<T>();
}

struct PatternEntry {
  const char* name;
  std::unique_ptr<Transformation> (*make)();
};
// One line per transformation, sorted by name (the count follows from the list).
constexpr PatternEntry kPatterns[] = {
    {"AccumulateTransient", &make_t<AccumulateTransient>},
    {"AugAssignToWCR", &make_t<AugAssignToWCR>},
    {"ExpandGemmPBLAS", &make_t<ExpandGemmPBLAS>},
    {"FoldScalingIntoGemm", &make_t<FoldScalingIntoGemm>},
    {"GPUTransformSDFG", &make_t<GPUTransformSDFG>},
    {"InLocalStorage", &make_t<InLocalStorage>},
    {"InlineMultistateSDFG", &make_t<InlineMultistateSDFG>},
    {"InlineSDFG", &make_t<InlineSDFG>},
    {"LoopLifting", &make_t<LoopLifting>},
    {"LoopToMap", &make_t<LoopToMap>},
    {"LoopUnroll", &make_t<LoopUnroll>},
    {"MPITransformMap", &make_t<MPITransformMap>},
    {"MapCollapse", &make_t<MapCollapse>},
    {"MapExpansion", &make_t<MapExpansion>},
    {"MapFusion", &make_t<MapFusion>},
    {"MapFusionHorizontal", &make_t<MapFusionHorizontal>},
    {"MapInterchange", &make_t<MapInterchange>},
    {"MapTiling", &make_t<MapTiling>},
    {"MatMulScalingToOutput", &make_t<MatMulScalingToOutput>},
    {"MatVecPairFusedRows", &make_t<MatVecPairFusedRows>},
    {"MatVecPairRowBlocking", &make_t<MatVecPairRowBlocking>},
    {"MoveLoopIntoMap", &make_t<MoveLoopIntoMap>},
    {"OutLocalStorage", &make_t<OutLocalStorage>},
    {"RedundantArray", &make_t<RedundantArray>},
    {"RedundantSecondArray", &make_t<RedundantSecondArray>},
    {"ReduceToOuterMap", &make_t<ReduceToOuterMap>},
    {"RefineNestedAccess", &make_t<RefineNestedAccess>},
    {"SpecializeMatMul", &make_t<SpecializeMatMul>},
    {"StateFusion", &make_t<StateFusion>},
    {"StripMining", &make_t<StripMining>},
    {"TrivialMapElimination", &make_t<TrivialMapElimination>},
};

struct PassEntry {
  const char* name;
  std::unique_ptr<Pass> (*make)();
};
// One line per pass, sorted by name.
const PassEntry kPasses[] = {
    {"ArrayElimination", [] { return std::unique_ptr<Pass>(std::make_unique<ArrayElimination>()); }},
    {"auto_optimize", [] { return std::unique_ptr<Pass>(make_auto_optimize_cpu_pipeline()); }},
    {"auto_optimize_gpu", [] { return std::unique_ptr<Pass>(make_auto_optimize_gpu_pipeline()); }},
    {"ConsolidateEdges", [] { return std::unique_ptr<Pass>(std::make_unique<ConsolidateEdges>()); }},
    {"ConstantPropagation", [] { return std::unique_ptr<Pass>(std::make_unique<ConstantPropagation>()); }},
    {"ControlFlowRaising", [] { return std::unique_ptr<Pass>(std::make_unique<ControlFlowRaising>()); }},
    {"DeadDataflowElimination", [] { return std::unique_ptr<Pass>(std::make_unique<DeadDataflowElimination>()); }},
    {"DeadStateElimination", [] { return std::unique_ptr<Pass>(std::make_unique<DeadStateElimination>()); }},
    {"ExpandLibraryNodes", [] { return std::unique_ptr<Pass>(std::make_unique<ExpandLibraryNodes>()); }},
    {"ExpandTransposesToMaps", [] { return std::unique_ptr<Pass>(std::make_unique<ExpandTransposesToMaps>()); }},
    {"StageHostLibraryNodes", [] { return std::unique_ptr<Pass>(std::make_unique<StageHostLibraryNodes>()); }},
    {"SplitConvertingCopies", [] { return std::unique_ptr<Pass>(std::make_unique<SplitConvertingCopies>()); }},
    {"InlineSDFGs", [] { return std::unique_ptr<Pass>(std::make_unique<InlineSDFGs>()); }},
    {"MakeTransientsPersistent", [] { return std::unique_ptr<Pass>(std::make_unique<MakeTransientsPersistent>()); }},
    {"MoveLoopIntoOuterMapDimension",
     [] { return std::unique_ptr<Pass>(std::make_unique<MoveLoopIntoOuterMapDimension>()); }},
    {"ReductionsIntoRowMaps", [] { return std::unique_ptr<Pass>(std::make_unique<ReductionsIntoRowMaps>()); }},
    {"RemoveUnusedSymbols", [] { return std::unique_ptr<Pass>(std::make_unique<RemoveUnusedSymbols>()); }},
    {"ScalarToSymbolPromotion", [] { return std::unique_ptr<Pass>(std::make_unique<ScalarToSymbolPromotion>()); }},
    {"simplify", [] { return std::unique_ptr<Pass>(make_simplify_pipeline()); }},
    {"SymbolPropagation", [] { return std::unique_ptr<Pass>(std::make_unique<SymbolPropagation>()); }},
};

}  // namespace

std::vector<std::string> registered_names() {
  std::vector<std::string> out;
  for (const auto& p : kPatterns) out.emplace_back(p.name);
  for (const auto& p : kPasses) out.emplace_back(p.name);
  std::sort(out.begin(), out.end());
  return out;
}

bool is_pattern_transformation(std::string_view name) {
  return std::any_of(std::begin(kPatterns), std::end(kPatterns), [&](const PatternEntry& p) { return name == p.name; });
}

std::unique_ptr<Transformation> make_transformation(std::string_view name) {
  for (const auto& p : kPatterns)
    if (name == p.name) return p.make();
  return nullptr;
}

std::unique_ptr<Pass> make_pass(std::string_view name) {
  for (const auto& p : kPasses)
    if (name == p.name) return p.make();
  return nullptr;
}

}  // namespace dace::transform
