#include "pipeline/library_expansion_step.h"

#include "analysis/validate.h"
#include "transform/analysis_manager.h"
#include "transform/apply.h"
#include "transform/blas_classes.h"
#include "transform/expand_gemm_pblas.h"

namespace dace::pipeline {
namespace {

bool is_distributed_product(const ir::Node* n) {
  const ir::LibraryNode* l = transform::as_class(n, transform::kGemmClass);
  if (!l) l = transform::as_class(n, transform::kMatMulClass);
  return l && l->implementation == "PBLAS";
}

}  // namespace

bool has_distributed_products(const ir::SDFG& g) {
  for (const ir::State* s : g.all_states()) {
    for (int id : s->node_ids()) {
      const ir::Node* n = s->node(id);
      if (is_distributed_product(n)) return true;
      if (n->kind == ir::NodeKind::NestedSDFG) {
        const auto* nested = static_cast<const ir::NestedSDFGNode*>(n);
        if (nested->sdfg && has_distributed_products(*nested->sdfg)) return true;
      }
    }
  }
  return false;
}

Result<std::unique_ptr<ir::SDFG>> expand_distributed_products(const ir::SDFG& g) {
  std::unique_ptr<ir::SDFG> copy = g.clone_sdfg();
  transform::AnalysisManager am;
  transform::ExpandGemmPBLAS expand;
  Result<int> applied = transform::apply_repeated(*copy, expand, am);
  if (!applied) return applied.take_error();
  // What is left was refused: the first one in canonical order, with the refusal.
  for (const transform::Match& m : expand.enumerate(*copy, am)) {
    if (expand.can_be_applied(*copy, m, am)) continue;  // (cannot happen after apply_repeated)
    return make_error(Code::Unsupported,
                      "library node with implementation \"PBLAS\" cannot be expanded into the distributed "
                      "product (BlockCyclicScatter, Pgemm, BlockCyclicGather): " +
                          expand.why_not());
  }
  return copy;
}

Status expand_for_compile(const ir::SDFG& input, std::unique_ptr<ir::SDFG>& compiled) {
  const ir::SDFG& g = compiled ? *compiled : input;
  if (!has_distributed_products(g)) return Status::success();
  DACE_TRY(analysis::validate(g));  // the expansion assumes a valid SDFG
  auto expanded = expand_distributed_products(g);
  if (!expanded) return expanded.take_error();
  compiled = std::move(*expanded);
  return Status::success();
}

}  // namespace dace::pipeline
