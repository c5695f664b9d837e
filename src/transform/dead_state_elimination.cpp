#include "transform/dead_state_elimination.h"

#include <vector>

#include "transform/cfg_list.h"

namespace dace::transform {
namespace {

bool prune_region(ir::ControlFlowRegion& region) {
  bool changed = false;
  // Where execution starts, by the rule code generation uses; decided before edges go, so
  // that removing an edge never makes an unreachable block look like an entry.
  // Without a unique source or a stored start block the entry is ambiguous (DaCe refuses such
  // a region): then nothing is assumed unreachable.
  int sources = 0;
  for (int slot : region.block_slots()) sources += region.in_edges(slot).empty() ? 1 : 0;
  const int start = sources == 1 || region.block(region.start_block) ? entry_block(region) : -1;
  for (int es : region.edge_slots()) {
    if (constant_condition(region.edge(es)->condition) == false) {
      region.remove_edge(es);
      changed = true;
    }
  }
  if (start >= 0) {
    std::vector<char> reached(region.block_slots().empty() ? 0 : static_cast<size_t>(region.block_slots().back()) + 1, 0);
    std::vector<int> stack{start};
    reached[static_cast<size_t>(start)] = 1;
    while (!stack.empty()) {
      const int b = stack.back();
      stack.pop_back();
      for (int es : region.out_edges(b)) {
        const int d = region.edge(es)->dst;
        if (region.block(d) && !reached[static_cast<size_t>(d)]) {
          reached[static_cast<size_t>(d)] = 1;
          stack.push_back(d);
        }
      }
    }
    for (int slot : region.block_slots()) {
      if (reached[static_cast<size_t>(slot)]) continue;
      region.remove_block(slot);
      changed = true;
    }
    // (remove_block clears a stored start block that DaCe 1.0 wrote stale and that was
    // unreachable; the entry is then the unique source again.)
  }
  return changed;
}

bool prune_conditional(ir::ConditionalBlock& cond) {
  auto& branches = cond.branches;
  size_t keep = branches.size();  // branches at and after a constant-true one are dead after it
  for (size_t i = 0; i < branches.size(); ++i)
    if (branches[i].first && constant_condition(*branches[i].first) == true) {
      keep = i + 1;
      break;
    }
  std::vector<size_t> dead;
  for (size_t i = 0; i < branches.size(); ++i)
    if (i >= keep || (branches[i].first && constant_condition(*branches[i].first) == false)) dead.push_back(i);
  if (dead.empty() || dead.size() == branches.size()) return false;
  for (auto it = dead.rbegin(); it != dead.rend(); ++it) branches.erase(branches.begin() + static_cast<std::ptrdiff_t>(*it));
  // An else branch left alone (`if False: ... else: B`) runs always; DaCe's code generator
  // rejects a conditional whose first branch has no condition, so it gets the condition "1".
  if (!branches.front().first) branches.front().first = ir::CodeBlock{"1", ir::Language::Python};
  return true;
}

}  // namespace

std::optional<bool> constant_condition(const ir::CodeBlock& condition) {
  if (condition.language != ir::Language::Python) return std::nullopt;
  const std::string& c = condition.code;
  if (c == "1" || c == "True" || c == "true") return true;
  if (c == "0" || c == "False" || c == "false") return false;
  Result<sym::Expr> e = sym::parse(c);
  if (!e.ok() || !sym::free_symbols(*e).empty()) return std::nullopt;
  Result<int64_t> v = sym::evaluate(*e, {});
  if (!v.ok()) return std::nullopt;
  return *v != 0;
}

Result<bool> DeadStateElimination::apply(ir::SDFG& sdfg, AnalysisManager&) {
  bool changed = false;
  // Reverse pre-order: a region is pruned after everything nested in it, so removing one of
  // its blocks never frees a region still to be visited.
  CfgList cfgs = CfgList::of(sdfg);
  for (auto it = cfgs.regions.rbegin(); it != cfgs.regions.rend(); ++it) {
    ir::ControlFlowRegion& region = **it;
    for (int slot : region.block_slots())
      if (region.block(slot)->kind == ir::BlockKind::Conditional)
        changed |= prune_conditional(*static_cast<ir::ConditionalBlock*>(region.block(slot)));
    changed |= prune_region(region);
  }
  return changed;
}

}  // namespace dace::transform
