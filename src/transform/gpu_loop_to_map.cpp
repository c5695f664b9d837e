#include "transform/gpu_loop_to_map.h"

#include <string>

#include "ir/state.h"
#include "transform/apply.h"
#include "transform/blas_classes.h"
#include "transform/cfg_list.h"
#include "transform/loop_to_map.h"

namespace dace::transform {
namespace {

// The sizes of the dimensions of `subset` that are not of extent 1 (doitgen's A[r] viewed as
// [NQ, 1, NP] is a matrix).
std::vector<sym::Expr> non_unit_sizes(const sym::Subset& subset) {
  std::vector<sym::Expr> out;
  for (const sym::Expr& s : sym::size(subset)) {
    std::optional<int64_t> v = sym::as_integer(s);
    if (!v || *v != 1) out.push_back(s);
  }
  return out;
}

bool is_float_container(const ir::SDFG& sdfg, const std::string& data) {
  auto it = sdfg.arrays.find(data);
  if (it == sdfg.arrays.end() || it->second.dtype.pointer_depth != 0) return false;
  const ir::ScalarType t = it->second.dtype.scalar;
  return t == ir::ScalarType::Float32 || t == ir::ScalarType::Float64;
}

// The memlet at the node's output `_c`, if it has one.
const ir::Memlet* c_output(const ir::State& state, int node) {
  for (int e : state.out_edges(node))
    if (state.edge(e)->src_conn == "_c") return &state.edge(e)->memlet;
  return nullptr;
}

// Only products a device library call can take as they are: float32/float64 matrices (unit
// dimensions aside, so no batched 3-D operand) and no C input other than C itself (cuBLAS
// updates C in place: the in-place `_cin` FoldScalingIntoGemm writes goes to cuBLAS). Others
// stay where LoopToMap puts them (in the thread, slow but compiled).
bool is_large_product(const ir::SDFG& sdfg, const ir::State& state, int node) {
  if (!as_class(state.node(node), kMatMulClass) && !as_class(state.node(node), kGemmClass)) return false;
  const ir::Memlet* c = c_output(state, node);
  std::vector<sym::Expr> a, b;
  for (int e : state.in_edges(node)) {
    const ir::DataflowEdge* edge = state.edge(e);
    if (edge->memlet.is_empty()) continue;
    if (edge->dst_conn == "_cin" && (!c || edge->memlet.data != c->data || !(edge->memlet.subset == c->subset)))
      return false;
    if (edge->dst_conn != "_a" && edge->dst_conn != "_b") continue;
    if (!is_float_container(sdfg, edge->memlet.data)) return false;
    (edge->dst_conn == "_a" ? a : b) = non_unit_sizes(edge->memlet.subset);
  }
  // A matrix result needs a matrix on both sides; vector products (Gemv, Dot shapes) stay
  // in the thread, where a map over the loop is the parallel form.
  if (a.size() != 2 || b.size() != 2) return false;
  // Rows of A (all its dimensions but the inner one, batches included) * inner * columns.
  sym::Expr work = b.back();
  for (const sym::Expr& s : a) work = sym::mul(work, s);
  std::optional<int64_t> w = sym::as_integer(sym::simplify(work));
  return !w || *w >= kSmallProductWork;
}

bool state_holds_large_product(const ir::State& state) {
  const ir::SDFG& sdfg = owning_sdfg(*state.parent);
  for (int id : state.node_ids()) {
    const ir::Node* n = state.node(id);
    if (n->kind == ir::NodeKind::Library && is_large_product(sdfg, state, id)) return true;
    if (n->kind == ir::NodeKind::NestedSDFG)
      if (const auto* nested = static_cast<const ir::NestedSDFGNode*>(n); nested->sdfg)
        if (holds_large_matrix_product(*nested->sdfg)) return true;
  }
  return false;
}

// LoopToMap applied at its first legal match, in canonical order, that is not a loop around
// a large product, until none is left.
class GpuLoopToMap : public Pass {
 public:
  std::string_view name() const override { return t_.name(); }
  Modifies modifies() const override { return t_.modifies(); }
  bool records_itself() const override { return true; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override {
    int applied = 0;
    for (bool again = true; again;) {
      again = false;
      for (const Match& m : t_.enumerate(sdfg, am)) {
        if (around_large_product(sdfg, m) || !t_.can_be_applied(sdfg, m, am)) continue;
        DACE_TRY(apply_at(sdfg, t_, m, am));
        if (++applied >= kMaxApplications)
          return make_error(Code::Internal, "LoopToMap: still matching after " + std::to_string(applied) + " applications");
        again = true;
        break;
      }
    }
    return applied > 0;
  }

 private:
  static constexpr int kMaxApplications = 100000;

  // The loop a LoopToMap match names (its region's cfg_id and the loop's dense block id).
  static bool around_large_product(ir::SDFG& sdfg, const Match& m) {
    const ir::ControlFlowRegion* region = CfgList::of(sdfg).region(m.cfg_id);
    if (!region || m.subgraph.size() != 1) return false;
    const std::vector<int> live = region->block_slots();
    const int id = m.subgraph[0];
    if (id < 0 || id >= static_cast<int>(live.size())) return false;
    const ir::ControlFlowBlock* b = region->block(live[static_cast<size_t>(id)]);
    return b && b->kind == ir::BlockKind::Loop && holds_large_matrix_product(static_cast<const ir::ControlFlowRegion&>(*b));
  }

  LoopToMap t_;
};

}  // namespace

bool holds_large_matrix_product(const ir::ControlFlowRegion& region) {
  for (int slot : region.block_slots()) {
    const ir::ControlFlowBlock& b = *region.block(slot);
    switch (b.kind) {
      case ir::BlockKind::State:
        if (state_holds_large_product(static_cast<const ir::State&>(b))) return true;
        break;
      case ir::BlockKind::Loop:
      case ir::BlockKind::Region:
      case ir::BlockKind::SDFG:
        if (holds_large_matrix_product(static_cast<const ir::ControlFlowRegion&>(b))) return true;
        break;
      case ir::BlockKind::Conditional:
        for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(b).branches)
          if (branch && holds_large_matrix_product(*branch)) return true;
        break;
      default: break;
    }
  }
  return false;
}

std::unique_ptr<Pass> make_gpu_loop_to_map_pass() { return std::make_unique<GpuLoopToMap>(); }

}  // namespace dace::transform
