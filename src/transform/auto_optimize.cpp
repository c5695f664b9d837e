#include "transform/auto_optimize.h"

#include "transform/apply.h"
#include "transform/gpu_loop_to_map.h"
#include "transform/registry.h"

namespace dace::transform {
namespace {

// A registered pass as it is, a pattern transformation applied until no match is left.
// Every name below is registered; a missing one would be a build-time mistake caught by the
// auto_optimize tests, so it is skipped rather than turned into a runtime failure.
void add_step(Pipeline& p, std::string_view name, std::string_view properties = {}) {
  if (is_pattern_transformation(name)) {
    auto t = make_transformation(name);
    if (t && !properties.empty() && !t->properties().set_from_json(properties).ok()) return;
    if (t) p.add(std::make_unique<PatternPass>(std::move(t)));
    return;
  }
  if (auto pass = make_pass(name)) p.add(std::move(pass));
}

// A pattern transformation applied once, at its first legal match (DaCe's
// apply_gpu_transformations: GPUTransformSDFG matches the SDFG itself and would apply again
// and again if repeated).
class ApplyOnce : public Pass {
 public:
  explicit ApplyOnce(std::unique_ptr<Transformation> t) : t_(std::move(t)) {}
  std::string_view name() const override { return t_->name(); }
  Modifies modifies() const override { return t_->modifies(); }
  bool records_itself() const override { return true; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override {
    Result<std::optional<Match>> m = apply_first(sdfg, *t_, am);
    if (!m) return m.take_error();
    return m->has_value();
  }

 private:
  std::unique_ptr<Transformation> t_;
};

}  // namespace

std::unique_ptr<Pipeline> make_auto_optimize_cpu_pipeline() {
  auto p = std::make_unique<Pipeline>("auto_optimize");
  // The order of DaCe's auto_optimize: simplify first (loops raised, so that LoopToMap sees
  // LoopRegions), loops to maps, simplify (the new maps' states fuse), then map-level
  // transformations on the result; last, as DaCe does, transients allocated once per program
  // instead of once per call.
  for (std::string_view step : {"LoopLifting", "simplify", "LoopToMap", "simplify", "MapCollapse"}) add_step(*p, step);
  // A scalar factor of a MatMul operand moves behind the product, where the fusion below
  // merges it into the map that consumes the product (see matmul_scaling_to_output.h).
  add_step(*p, "MatMulScalingToOutput");
  // Reductions over trailing axes go inside maps over the kept dimensions and their
  // neighbour maps are split the same way, so that the fusion below merges them per row
  // (softmax; see reductions_into_row_maps.h).
  add_step(*p, "ReductionsIntoRowMaps");
  // Greedy fusion, those that remove their intermediates first (see map_fusion.h).
  add_step(*p, "MapFusion", R"({"require_exclusive_intermediates": true})");
  add_step(*p, "MapFusion");
  // A MatMul whose product only feeds `alpha * P + beta * C` becomes one Gemm updating C in
  // place (see fold_scaling_into_gemm.h): after fusion, which gathers the scaling and the
  // update into that one map.
  add_step(*p, "FoldScalingIntoGemm");
  add_step(*p, "simplify");
  // `t = A @ x; y = t @ A` (two memory-bound products over one matrix) becomes one parallel
  // pass over the rows of A (see mat_vec_pair_fused_rows.h).
  add_step(*p, "MatVecPairFusedRows");
  // A time loop around one parallel map of several dimensions goes inside the map's first
  // dimension (see loop_into_row_maps.h); DaCe moves it into the whole map.
  for (std::string_view step : {"MoveLoopIntoOuterMapDimension", "MakeTransientsPersistent"}) add_step(*p, step);
  return p;
}

std::unique_ptr<Pipeline> make_auto_optimize_gpu_pipeline() {
  auto p = std::make_unique<Pipeline>("auto_optimize_gpu");
  // DaCe's auto_optimize(device=GPU): the CPU-independent steps up to map collapse, then
  // GPUTransformSDFG (data to GPU_Global, top-level maps to GPU_Device kernels, copies in
  // and out; it simplifies itself), then map fusion among the kernels and simplify. Not
  // MakeTransientsPersistent: GPU_Global transients are allocated once per call anyway.
  // LoopToMap leaves loops around large matrix products on the host, where each product is
  // one parallel device call, instead of a whole product per kernel thread (gpu_loop_to_map.h).
  for (std::string_view step : {"LoopLifting", "simplify"}) add_step(*p, step);
  p->add(make_gpu_loop_to_map_pass());
  for (std::string_view step : {"simplify", "MapCollapse"}) add_step(*p, step);
  // As on the CPU: a MatMul operand's scaling moves behind the product, where fusion joins it
  // to the update of C and the whole update folds into one Gemm (a cuBLAS call in place).
  add_step(*p, "MatMulScalingToOutput");
  // Transposes as maps, which become kernels: their lowering's loops are host code.
  add_step(*p, "ExpandTransposesToMaps");
  if (auto t = make_transformation("GPUTransformSDFG")) p->add(std::make_unique<ApplyOnce>(std::move(t)));
  // LAPACK's nodes run on the host, on host copies of their GPU data.
  add_step(*p, "StageHostLibraryNodes");
  add_step(*p, "MapFusion", R"({"require_exclusive_intermediates": true})");
  for (std::string_view step : {"MapFusion", "FoldScalingIntoGemm", "simplify"}) add_step(*p, step);
  // Last: simplify may fuse states into new host/device copies. The runtime copies bytes; an
  // element conversion happens on the host, through a staging transient.
  add_step(*p, "SplitConvertingCopies");
  return p;
}

}  // namespace dace::transform
