#include "ir/sdfg.h"

#include <algorithm>

namespace dace::ir {

const char* to_string(NodeKind k) {
  switch (k) {
    case NodeKind::Access: return "AccessNode";
    case NodeKind::Tasklet: return "Tasklet";
    case NodeKind::MapEntry: return "MapEntry";
    case NodeKind::MapExit: return "MapExit";
    case NodeKind::ConsumeEntry: return "ConsumeEntry";
    case NodeKind::ConsumeExit: return "ConsumeExit";
    case NodeKind::NestedSDFG: return "NestedSDFG";
    case NodeKind::Library: return "LibraryNode";
  }
  return "?";
}

NestedSDFGNode::NestedSDFGNode() : Node(NodeKind::NestedSDFG) {}
NestedSDFGNode::~NestedSDFGNode() = default;
NestedSDFGNode::NestedSDFGNode(const NestedSDFGNode& other)
    : Node(other), symbol_mapping(other.symbol_mapping), schedule(other.schedule) {
  if (other.sdfg) {
    sdfg = other.sdfg->clone_sdfg();
    sdfg->parent_node = this;
  }
}
std::unique_ptr<Node> NestedSDFGNode::clone() const { return std::make_unique<NestedSDFGNode>(*this); }

SDFG::SDFG(const SDFG& other)
    : ControlFlowRegion(other),
      name(other.name),
      symbols(other.symbols),
      arrays(other.arrays),
      arg_names(other.arg_names),
      constants(other.constants),
      global_code(other.global_code),
      init_code(other.init_code),
      exit_code(other.exit_code),
      debuginfo(other.debuginfo),
      dace_version(other.dace_version),
      using_explicit_control_flow(other.using_explicit_control_flow),
      parent_node(nullptr),
      next_block_id_(other.next_block_id_) {
  relink_parents(*this);
}

std::unique_ptr<ControlFlowBlock> SDFG::clone() const { return std::make_unique<SDFG>(*this); }
std::unique_ptr<SDFG> SDFG::clone_sdfg() const { return std::make_unique<SDFG>(*this); }

namespace {

template <class BlockT, class RegionT, class Fn>
void visit_region(RegionT& region, const Fn& fn) {
  for (int slot : region.block_slots()) {
    BlockT* b = region.block(slot);
    fn(*b);
    if (b->kind == BlockKind::Conditional) {
      auto* cb = static_cast<std::conditional_t<std::is_const_v<BlockT>, const ConditionalBlock, ConditionalBlock>*>(b);
      for (auto& br : cb->branches) {
        if (!br.second) continue;
        fn(*br.second);
        visit_region<BlockT>(*br.second, fn);
      }
    } else if (b->kind == BlockKind::Region || b->kind == BlockKind::Loop) {
      visit_region<BlockT>(*static_cast<std::conditional_t<std::is_const_v<BlockT>, const ControlFlowRegion, ControlFlowRegion>*>(b), fn);
    }
  }
}

}  // namespace

void SDFG::for_each_block(const std::function<void(ControlFlowBlock&)>& fn) {
  visit_region<ControlFlowBlock>(*this, fn);
}
void SDFG::for_each_block(const std::function<void(const ControlFlowBlock&)>& fn) const {
  visit_region<const ControlFlowBlock>(*this, fn);
}

ControlFlowBlock* SDFG::find_block(int id) {
  ControlFlowBlock* found = nullptr;
  for_each_block([&](ControlFlowBlock& b) { if (b.id == id && !found) found = &b; });
  return found;
}
const ControlFlowBlock* SDFG::find_block(int id) const {
  const ControlFlowBlock* found = nullptr;
  for_each_block([&](const ControlFlowBlock& b) { if (b.id == id && !found) found = &b; });
  return found;
}

std::vector<State*> SDFG::all_states() {
  std::vector<State*> out;
  for_each_block([&](ControlFlowBlock& b) { if (b.kind == BlockKind::State) out.push_back(static_cast<State*>(&b)); });
  return out;
}
std::vector<const State*> SDFG::all_states() const {
  std::vector<const State*> out;
  for_each_block([&](const ControlFlowBlock& b) { if (b.kind == BlockKind::State) out.push_back(static_cast<const State*>(&b)); });
  return out;
}

uint64_t SDFG::last_change() const {
  uint64_t newest = change_stamp();
  for_each_block([&](const ControlFlowBlock& b) {
    newest = std::max(newest, b.change_stamp());
    if (b.kind != BlockKind::State) return;
    const auto& s = static_cast<const State&>(b);
    for (int id = 0; id < s.node_slots(); ++id) {
      const Node* n = s.node(id);
      if (n && n->kind == NodeKind::NestedSDFG)
        if (const SDFG* inner = static_cast<const NestedSDFGNode*>(n)->sdfg.get()) newest = std::max(newest, inner->last_change());
    }
  });
  return newest;
}

void relink_parents(ControlFlowRegion& region) {
  for (int slot : region.block_slots()) {
    ControlFlowBlock* b = region.block(slot);
    b->parent = &region;
    if (b->kind == BlockKind::Conditional) {
      for (auto& br : static_cast<ConditionalBlock*>(b)->branches) {
        if (!br.second) continue;
        br.second->parent = &region;
        relink_parents(*br.second);
      }
    } else if (b->kind == BlockKind::Region || b->kind == BlockKind::Loop) {
      relink_parents(*static_cast<ControlFlowRegion*>(b));
    }
  }
}

}  // namespace dace::ir
