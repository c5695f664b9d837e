#include "pipeline/library_expansion_step.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/validate.h"
#include "codegen/registry_query.h"
#include "ir/path.h"
#include "transform/analysis_manager.h"
#include "transform/apply.h"
#include "transform/blas_classes.h"
#include "transform/expand_gemm_pblas.h"
#include "transform/inline_multistate_sdfg.h"
#include "transform/inline_sdfg.h"
#include "transform/scope_tree.h"
#include "transform/trivial_map_elimination.h"

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

// Whether `n` is a distributed product or a nested SDFG holding one (at any depth).
bool holds_distributed_product(const ir::Node* n) {
  if (is_distributed_product(n)) return true;
  if (n->kind != ir::NodeKind::NestedSDFG) return false;
  const auto* nested = static_cast<const ir::NestedSDFGNode*>(n);
  return nested->sdfg && has_distributed_products(*nested->sdfg);
}

// TrivialMapElimination at the maps that enclose a distributed product (at any depth, nested
// SDFGs included: DaCe's frontend writes a map's body as a nested SDFG of several states, which
// only InlineMultistateSDFG inlines, and only outside scopes), and nowhere else: other maps of
// the program stay as the user wrote them.
class TrivialMapsAroundProducts final : public transform::TrivialMapElimination {
 protected:
  void state_matches(const ir::State& state, const transform::ScopeTree& scopes,
                     std::vector<std::vector<int>>& out) override {
    std::vector<std::vector<int>> maps;
    TrivialMapElimination::state_matches(state, scopes, maps);
    for (std::vector<int>& m : maps) {
      bool encloses = false;
      for (int n : scopes.scope_nodes(m[0])) encloses = encloses || holds_distributed_product(state.node(n));
      if (encloses) out.push_back(std::move(m));
    }
  }
};

// InlineSDFG / InlineMultistateSDFG at the nested SDFGs that hold a distributed product (at any
// depth), and nowhere else: the product then reaches the SDFG whose arguments Px and Py become.
template <class Inline>
class InlineAroundProducts final : public Inline {
 protected:
  void state_matches(const ir::State& state, const transform::ScopeTree& scopes,
                     std::vector<std::vector<int>>& out) override {
    std::vector<std::vector<int>> nested;
    Inline::state_matches(state, scopes, nested);
    for (std::vector<int>& m : nested) {
      const auto* n = static_cast<const ir::NestedSDFGNode*>(state.node(m[0]));
      if (n->sdfg && has_distributed_products(*n->sdfg)) out.push_back(std::move(m));
    }
  }
};

// Brings the products out of nested SDFGs (inlining) and maps of one iteration, as far as the
// transformations allow; what stays nested or in a scope is then refused by ExpandGemmPBLAS.
Result<int> unnest_products(ir::SDFG& g, transform::AnalysisManager& am) {
  InlineAroundProducts<transform::InlineSDFG> inline_state;
  InlineAroundProducts<transform::InlineMultistateSDFG> inline_states;
  TrivialMapsAroundProducts unmap;
  int total = 0;
  for (int changed = 1; changed > 0; total += changed) {
    changed = 0;
    transform::Transformation* const steps[] = {&inline_state, &inline_states, &unmap};
    for (transform::Transformation* t : steps) {
      Result<int> n = transform::apply_repeated(g, *t, am);
      if (!n) return n.take_error();
      changed += *n;
    }
  }
  return total;
}

// ExpandGemmPBLAS that expands products in the nested SDFGs whose chain from the root
// declares Px and Py (declare_grid_symbols_down).
class ExpandAlongPreparedChains final : public transform::ExpandGemmPBLAS {
 public:
  std::set<const ir::SDFG*> prepared;
  bool grid_symbols_reach_root(const ir::SDFG& g) const override { return prepared.count(&g) > 0; }
};

bool maps_to_itself(const ir::NestedSDFGNode& n, const std::string& symbol) {
  auto it = n.symbol_mapping.find(symbol);
  return it == n.symbol_mapping.end() || (it->second && sym::to_string(it->second) == symbol);
}

// A product left in a nested SDFG that could not be inlined (`no_inline`, ...) but lies
// outside any scope, at every level, runs once per call on every rank like one in the root:
// Px and Py are declared in every SDFG from `g` down to it and each nested SDFG node maps them
// to the enclosing SDFG's, so the BLACS grid's symbols (program arguments of the root) reach
// the product. Nested SDFGs in a scope are left alone: ExpandGemmPBLAS then refuses their
// products. `g` itself must declare Px and Py (the caller does so for the root).
void declare_grid_symbols_down(ir::SDFG& g, std::set<const ir::SDFG*>& prepared) {
  for (ir::State* s : g.all_states()) {
    const std::vector<int> scope_of = s->scope_parents();
    for (int id : s->node_ids()) {
      ir::Node* n = s->node(id);
      const bool in_scope = static_cast<size_t>(id) < scope_of.size() && scope_of[static_cast<size_t>(id)] >= 0;
      if (n->kind != ir::NodeKind::NestedSDFG || in_scope) continue;
      auto* nested = static_cast<ir::NestedSDFGNode*>(n);
      if (!nested->sdfg || !has_distributed_products(*nested->sdfg)) continue;
      ir::SDFG& inner = *nested->sdfg;
      bool usable = true;
      for (const char* grid : {"Px", "Py"})
        usable = usable && maps_to_itself(*nested, grid) && !inner.arrays.count(grid);
      if (!usable) continue;
      for (const char* grid : {"Px", "Py"}) {
        if (!inner.symbols.count(grid)) inner.symbols[grid] = ir::DType::of(ir::ScalarType::Int32);
        nested->symbol_mapping[grid] = sym::symbol(grid);
      }
      prepared.insert(&inner);
      declare_grid_symbols_down(inner, prepared);
    }
  }
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

Result<std::unique_ptr<ir::SDFG>> expand_distributed_products(const ir::SDFG& g, std::vector<std::string>* paths) {
  std::unique_ptr<ir::SDFG> copy = g.clone_sdfg();
  transform::AnalysisManager am;
  ExpandAlongPreparedChains expand;
  const std::string failed_at = "the expansion of the library nodes with implementation \"PBLAS\" into the distributed "
                                "product (BlockCyclicScatter, Pgemm, BlockCyclicGather) at ";
  std::vector<std::string> products;
  distributed_product_paths(*copy, products);
  Result<int> unnested = unnest_products(*copy, am);
  if (!unnested) return make_error(Code::Unsupported, failed_at + joined(products) + " failed: " + unnested.error().message);
  if (*unnested > 0) {  // where the products are now
    products.clear();
    distributed_product_paths(*copy, products);
  }
  const std::string failed = failed_at + joined(products) + " failed: ";
  // Products still nested: declare Px and Py down to them where they lie outside scopes.
  if (!copy->arrays.count("Px") && !copy->arrays.count("Py")) {
    declare_grid_symbols_down(*copy, expand.prepared);
    if (!expand.prepared.empty()) {
      for (const char* grid : {"Px", "Py"})
        if (!copy->symbols.count(grid)) copy->symbols[grid] = ir::DType::of(ir::ScalarType::Int32);
      am.invalidate(transform::Modifies::Symbols | transform::Modifies::NestedSDFGs);
    }
  }
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
  if (paths) *paths = std::move(products);
  return copy;
}

Status expand_for_compile(const ir::SDFG& input, std::unique_ptr<ir::SDFG>& compiled,
                          std::vector<std::string>* products) {
  const ir::SDFG& g = compiled ? *compiled : input;
  if (!has_distributed_products(g)) return Status::success();
  DACE_TRY(analysis::validate(g));  // the expansion assumes a valid SDFG
  auto expanded = expand_distributed_products(g, products);
  if (!expanded) return expanded.take_error();
  compiled = std::move(*expanded);
  return Status::success();
}

Status check_distributed_products_runnable(const std::vector<std::string>& products, const Status& loaded,
                                           const codegen::LowerOptions& options) {
  if (products.empty()) return loaded;
  // The core names no target: the product's nodes belong to DaCe's PBLAS library, and the
  // plugin that lowers them (or its vendor library, named by the plugin) says the rest.
  const std::string_view pgemm = transform::kPgemmClass;
  const std::string library(pgemm.substr(0, pgemm.find(".nodes.")));
  const std::string head = "library node" + std::string(products.size() > 1 ? "s" : "") + " with implementation " +
                           "\"PBLAS\" at " + joined(products) + " cannot be compiled: the distributed product " +
                           "(BlockCyclicScatter, Pgemm, BlockCyclicGather) needs a backend plugin for DaCe's library \"" +
                           library + "\"";
  if (!loaded.ok()) return make_error(loaded.error().code, head + ", and loading the plugins failed: " + loaded.error().message);
  struct Node {
    std::string_view classpath, implementation;
  };
  for (const Node& n : {Node{transform::kBlockCyclicScatterClass, ""},
                        Node{transform::kPgemmClass, transform::kPgemmImplementation},
                        Node{transform::kBlockCyclicGatherClass, ""}}) {
    ir::LibraryNode probe;
    probe.classpath = std::string(n.classpath);
    probe.implementation = std::string(n.implementation);
    if (codegen::plugin_lowering(options, probe)) continue;
    std::string why = codegen::plugin_lowering_unavailable(options, probe);
    if (why.empty()) why = "no plugin that is loaded or found here lowers " + probe.classpath;
    return make_error(Code::Unsupported, head + ": " + why);
  }
  return Status::success();
}

}  // namespace dace::pipeline
