#include "ir/control_flow.h"

namespace dace::ir {

const char* to_string(BlockKind k) {
  switch (k) {
    case BlockKind::State: return "SDFGState";
    case BlockKind::Region: return "ControlFlowRegion";
    case BlockKind::Loop: return "LoopRegion";
    case BlockKind::Conditional: return "ConditionalBlock";
    case BlockKind::Break: return "BreakBlock";
    case BlockKind::Continue: return "ContinueBlock";
    case BlockKind::Return: return "ReturnBlock";
    case BlockKind::SDFG: return "SDFG";
  }
  return "?";
}

void ChangeStamp::renew() {
  static std::atomic<uint64_t> counter{0};
  value_.store(counter.fetch_add(1, std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

ControlFlowRegion::ControlFlowRegion(const ControlFlowRegion& other)
    : ControlFlowBlock(other), start_block(other.start_block), edges_(other.edges_) {
  blocks_.reserve(other.blocks_.size());
  for (const auto& b : other.blocks_) {
    blocks_.push_back(b ? b->clone() : nullptr);
    if (blocks_.back()) blocks_.back()->parent = this;
  }
}

std::unique_ptr<ControlFlowBlock> ControlFlowRegion::clone() const {
  return std::make_unique<ControlFlowRegion>(*this);
}

int ControlFlowRegion::add_block(std::unique_ptr<ControlFlowBlock> block) {
  block->parent = this;
  blocks_.push_back(std::move(block));
  touch();
  return static_cast<int>(blocks_.size()) - 1;
}

int ControlFlowRegion::add_edge(InterstateEdge edge) {
  edges_.emplace_back(std::move(edge));
  touch();
  return static_cast<int>(edges_.size()) - 1;
}

ControlFlowBlock* ControlFlowRegion::block(int slot) {
  return slot >= 0 && slot < static_cast<int>(blocks_.size()) ? blocks_[slot].get() : nullptr;
}
const ControlFlowBlock* ControlFlowRegion::block(int slot) const {
  return slot >= 0 && slot < static_cast<int>(blocks_.size()) ? blocks_[slot].get() : nullptr;
}
InterstateEdge* ControlFlowRegion::edge(int slot) {
  return slot >= 0 && slot < static_cast<int>(edges_.size()) && edges_[slot] ? &*edges_[slot] : nullptr;
}
const InterstateEdge* ControlFlowRegion::edge(int slot) const {
  return slot >= 0 && slot < static_cast<int>(edges_.size()) && edges_[slot] ? &*edges_[slot] : nullptr;
}

void ControlFlowRegion::remove_block(int slot) {
  if (!block(slot)) return;
  for (auto& e : edges_)
    if (e && (e->src == slot || e->dst == slot)) e.reset();
  blocks_[slot].reset();
  if (start_block == slot) start_block = -1;
  touch();
}

std::unique_ptr<ControlFlowBlock> ControlFlowRegion::release_block(int slot) {
  if (!block(slot)) return nullptr;
  for (auto& e : edges_)
    if (e && (e->src == slot || e->dst == slot)) e.reset();
  std::unique_ptr<ControlFlowBlock> out = std::move(blocks_[slot]);
  out->parent = nullptr;
  if (start_block == slot) start_block = -1;
  touch();
  return out;
}

void ControlFlowRegion::remove_edge(int slot) {
  if (!edge(slot)) return;
  edges_[slot].reset();
  touch();
}

std::vector<int> ControlFlowRegion::block_slots() const {
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(blocks_.size()); ++i)
    if (blocks_[i]) out.push_back(i);
  return out;
}

std::vector<int> ControlFlowRegion::edge_slots() const {
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(edges_.size()); ++i)
    if (edges_[i]) out.push_back(i);
  return out;
}

std::vector<int> ControlFlowRegion::in_edges(int b) const {
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(edges_.size()); ++i)
    if (edges_[i] && edges_[i]->dst == b) out.push_back(i);
  return out;
}

std::vector<int> ControlFlowRegion::out_edges(int b) const {
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(edges_.size()); ++i)
    if (edges_[i] && edges_[i]->src == b) out.push_back(i);
  return out;
}

int ControlFlowRegion::slot_of(const ControlFlowBlock* b) const {
  for (int i = 0; i < static_cast<int>(blocks_.size()); ++i)
    if (blocks_[i].get() == b) return i;
  return -1;
}

std::unique_ptr<ControlFlowBlock> LoopRegion::clone() const { return std::make_unique<LoopRegion>(*this); }

ConditionalBlock::ConditionalBlock(const ConditionalBlock& other) : ControlFlowBlock(other) {
  for (const auto& [cond, region] : other.branches) {
    if (!region) {
      branches.emplace_back(cond, nullptr);
      continue;
    }
    auto copy = std::unique_ptr<ControlFlowRegion>(static_cast<ControlFlowRegion*>(region->clone().release()));
    branches.emplace_back(cond, std::move(copy));
  }
}

std::unique_ptr<ControlFlowBlock> ConditionalBlock::clone() const {
  return std::make_unique<ConditionalBlock>(*this);
}

}  // namespace dace::ir
