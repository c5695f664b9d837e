#include "pipeline/library_expansion_step.h"

#include <string>
#include <vector>

#include "analysis/validate.h"
#include "ir/path.h"
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

// Where each distributed product of `g` is (nested SDFGs included), for messages.
void distributed_product_paths(const ir::SDFG& g, std::vector<std::string>& out) {
  for (const ir::State* s : g.all_states()) {
    for (int id : s->node_ids()) {
      const ir::Node* n = s->node(id);
      if (is_distributed_product(n)) out.push_back(ir::path_of_node(g, *s, id));
      if (n->kind == ir::NodeKind::NestedSDFG) {
        const auto* nested = static_cast<const ir::NestedSDFGNode*>(n);
        if (nested->sdfg) distributed_product_paths(*nested->sdfg, out);
      }
    }
  }
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (size_t k = 0; k < v.size(); ++k) out += (k ? ", " : "") + v[k];
  return out;
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
  std::vector<std::string> products;
  distributed_product_paths(*copy, products);
  const std::string failed = "the expansion of the library nodes with implementation \"PBLAS\" into the distributed "
                             "product (BlockCyclicScatter, Pgemm, BlockCyclicGather) at " + joined(products) + " failed: ";
  Result<int> applied = transform::apply_repeated(*copy, expand, am);
  if (!applied) return make_error(Code::Unsupported, failed + applied.error().message);
  // What is left was refused: the first one in canonical order, with the refusal.
  for (const transform::Match& m : expand.enumerate(*copy, am)) {
    if (expand.can_be_applied(*copy, m, am)) continue;  // (cannot happen after apply_repeated)
    return make_error(Code::Unsupported,
                      "library node with implementation \"PBLAS\" cannot be expanded into the distributed "
                      "product (BlockCyclicScatter, Pgemm, BlockCyclicGather): " +
                          expand.why_not());
  }
  // The expansion's result is ours, not the user's: an invalid one is a product we cannot
  // expand, reported as such instead of as an invalid input SDFG.
  if (Status valid = analysis::validate(*copy); !valid.ok())
    return make_error(Code::Unsupported, failed + valid.error().message);
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
