#include "transform/block_order.h"

#include <functional>
#include <map>
#include <set>

#include "ir/entry_block.h"

namespace dace::transform {

std::optional<std::vector<int>> topological_blocks(const ir::ControlFlowRegion& region) {
  std::map<int, int> pending;  // slot -> in-edges from blocks not yet ordered
  for (int b : region.block_slots()) pending[b] = static_cast<int>(region.in_edges(b).size());
  std::set<int> ready;
  for (const auto& [b, n] : pending)
    if (n == 0) ready.insert(b);
  std::vector<int> order;
  while (!ready.empty()) {
    const int b = *ready.begin();
    ready.erase(ready.begin());
    order.push_back(b);
    for (int e : region.out_edges(b))
      if (--pending[region.edge(e)->dst] == 0) ready.insert(region.edge(e)->dst);
  }
  if (order.size() != pending.size()) return std::nullopt;
  return order;
}

std::vector<int> reverse_post_order(const ir::ControlFlowRegion& region) {
  std::vector<int> post;
  std::set<int> seen;
  std::function<void(int)> dfs = [&](int b) {
    if (!seen.insert(b).second) return;
    for (int es : region.out_edges(b)) dfs(region.edge(es)->dst);
    post.push_back(b);
  };
  const int start = ir::entry_block(region);
  if (start >= 0) dfs(start);
  std::vector<int> order(post.rbegin(), post.rend());
  for (int slot : region.block_slots())
    if (!seen.count(slot)) order.push_back(slot);
  return order;
}

}  // namespace dace::transform
