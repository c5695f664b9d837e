#include "ir/path.h"

#include <cstdio>
#include <vector>

namespace dace::ir {

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

namespace {

const char* block_word(BlockKind k) {
  switch (k) {
    case BlockKind::State: return "state";
    case BlockKind::Region: return "region";
    case BlockKind::Loop: return "loop";
    case BlockKind::Conditional: return "conditional";
    case BlockKind::Break: return "break";
    case BlockKind::Continue: return "continue";
    case BlockKind::Return: return "return";
    case BlockKind::SDFG: return "sdfg";
  }
  return "block";
}

const ControlFlowBlock* owning_conditional(const ControlFlowBlock* b) {
  const ControlFlowRegion* parent = b->parent;
  if (!parent || parent->slot_of(b) != -1) return nullptr;
  for (int slot : parent->block_slots()) {
    const ControlFlowBlock* candidate = parent->block(slot);
    if (candidate->kind != BlockKind::Conditional) continue;
    for (const auto& branch : static_cast<const ConditionalBlock*>(candidate)->branches)
      if (branch.second.get() == b) return candidate;
  }
  return nullptr;
}

}  // namespace

std::string path_of(const SDFG& sdfg) {
  std::string own = "sdfg " + quoted(sdfg.name);
  const NestedSDFGNode* parent = sdfg.parent_node;
  if (!parent) return own;
  // The nested node does not know its state; name it by label, which is what users see.
  return "nested SDFG " + quoted(parent->label) + " / " + own;
}

std::string path_of(const SDFG& sdfg, const ControlFlowBlock& block) {
  std::vector<const ControlFlowBlock*> chain;
  for (const ControlFlowBlock* b = &block; b && b != &sdfg; b = b->parent) {
    chain.push_back(b);
    // A branch region's parent is the region around its conditional; name the conditional.
    if (const ControlFlowBlock* cond = owning_conditional(b)) chain.push_back(cond);
  }
  std::string out = path_of(sdfg);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it)
    out += std::string(" / ") + block_word((*it)->kind) + " " + quoted((*it)->label);
  return out;
}

std::string path_of_node(const SDFG& sdfg, const State& state, int node_id) {
  std::string out = path_of(sdfg, state) + " / node " + std::to_string(node_id);
  if (const Node* n = state.node(node_id)) out += std::string(" (") + to_string(n->kind) + " " + quoted(n->label) + ")";
  return out;
}

std::string path_of_edge(const SDFG& sdfg, const State& state, int edge_id) {
  std::string out = path_of(sdfg, state) + " / edge " + std::to_string(edge_id);
  if (const DataflowEdge* e = state.edge(edge_id)) {
    out += " (" + std::to_string(e->src) + (e->src_conn.empty() ? "" : "." + e->src_conn) + " -> " +
           std::to_string(e->dst) + (e->dst_conn.empty() ? "" : "." + e->dst_conn) + ")";
  }
  return out;
}

std::string path_of_interstate_edge(const SDFG& sdfg, const ControlFlowRegion& region, int edge_slot) {
  std::string out = (&region == &sdfg ? path_of(sdfg) : path_of(sdfg, region)) + " / interstate edge " +
                    std::to_string(edge_slot);
  if (const InterstateEdge* e = region.edge(edge_slot)) {
    const ControlFlowBlock* s = region.block(e->src);
    const ControlFlowBlock* d = region.block(e->dst);
    out += " (" + (s ? quoted(s->label) : std::string("?")) + " -> " + (d ? quoted(d->label) : std::string("?")) + ")";
  }
  return out;
}

std::string path_of_data(const SDFG& sdfg, std::string_view name) {
  return path_of(sdfg) + " / data " + quoted(name);
}

std::string path_of_symbol(const SDFG& sdfg, std::string_view name) {
  return path_of(sdfg) + " / symbol " + quoted(name);
}

}  // namespace dace::ir
