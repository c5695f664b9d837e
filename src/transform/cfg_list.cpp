#include "transform/cfg_list.h"

namespace dace::transform {
namespace {

void visit(ir::ControlFlowRegion& region, std::vector<ir::ControlFlowRegion*>& out) {
  out.push_back(&region);
  for (int slot : region.block_slots()) {
    ir::ControlFlowBlock* b = region.block(slot);
    switch (b->kind) {
      case ir::BlockKind::State: {
        auto* state = static_cast<ir::State*>(b);
        for (int id : state->node_ids()) {
          ir::Node* n = state->node(id);
          if (n->kind != ir::NodeKind::NestedSDFG) continue;
          auto* nested = static_cast<ir::NestedSDFGNode*>(n);
          if (nested->sdfg) visit(*nested->sdfg, out);
        }
        break;
      }
      case ir::BlockKind::Loop:
      case ir::BlockKind::Region:
      case ir::BlockKind::SDFG: visit(*static_cast<ir::ControlFlowRegion*>(b), out); break;
      case ir::BlockKind::Conditional:
        for (auto& [condition, branch] : static_cast<ir::ConditionalBlock*>(b)->branches)
          if (branch) visit(*branch, out);
        break;
      case ir::BlockKind::Break:
      case ir::BlockKind::Continue:
      case ir::BlockKind::Return: break;
    }
  }
}

}  // namespace

CfgList CfgList::of(ir::SDFG& root) {
  CfgList list;
  visit(root, list.regions);
  return list;
}

ir::SDFG& owning_sdfg(ir::ControlFlowRegion& region) {
  ir::ControlFlowBlock* b = &region;
  while (b->kind != ir::BlockKind::SDFG && b->parent) b = b->parent;
  return *static_cast<ir::SDFG*>(b);
}

const ir::SDFG& owning_sdfg(const ir::ControlFlowRegion& region) {
  return owning_sdfg(const_cast<ir::ControlFlowRegion&>(region));
}

}  // namespace dace::transform
