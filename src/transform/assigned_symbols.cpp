#include "transform/assigned_symbols.h"

namespace dace::transform {
namespace {

void collect(const ir::ControlFlowBlock& b, std::set<std::string>& out) {
  if (b.kind == ir::BlockKind::Conditional) {
    for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(b).branches)
      if (branch) collect(*branch, out);
    return;
  }
  if (b.kind != ir::BlockKind::Loop && b.kind != ir::BlockKind::Region && b.kind != ir::BlockKind::SDFG) return;
  const auto& r = static_cast<const ir::ControlFlowRegion&>(b);
  if (b.kind == ir::BlockKind::Loop) {
    const std::string& v = static_cast<const ir::LoopRegion&>(b).loop_variable;
    if (!v.empty()) out.insert(v);
  }
  for (int e : r.edge_slots())
    for (const auto& [lhs, rhs] : r.edge(e)->assignments) out.insert(lhs);
  for (int s : r.block_slots()) collect(*r.block(s), out);
}

}  // namespace

std::set<std::string> assigned_symbols(const ir::ControlFlowBlock& block) {
  std::set<std::string> out;
  collect(block, out);
  return out;
}

}  // namespace dace::transform
