#include "transform/block_order.h"

#include <map>
#include <set>

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

}  // namespace dace::transform
