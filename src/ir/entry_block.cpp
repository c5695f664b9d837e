#include "ir/entry_block.h"

#include <vector>

namespace dace::ir {

int entry_block(const ControlFlowRegion& region) {
  const std::vector<int> slots = region.block_slots();
  std::vector<int> sources;
  for (int s : slots)
    if (region.in_edges(s).empty()) sources.push_back(s);
  if (sources.size() == 1) return sources.front();
  if (region.start_block >= 0 && region.block(region.start_block)) return region.start_block;
  if (!sources.empty()) return sources.front();
  return slots.empty() ? -1 : slots.front();
}

}  // namespace dace::ir
