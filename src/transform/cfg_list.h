// DaCe's cfg_list: every control-flow region of an SDFG tree (the SDFG itself, loop bodies,
// conditional branches, nested SDFGs) in pre-order, numbered as the JSON writer numbers
// `cfg_list_id`. Locations of transformations (history, CLI, C API) name a region by this
// index and a block or node by its slot, so they are stable ids, never addresses.
#pragma once
#include <vector>

#include "ir/entry_block.h"
#include "ir/sdfg.h"

namespace dace::transform {

struct CfgList {
  std::vector<ir::ControlFlowRegion*> regions;  // index = cfg_id; 0 is the root SDFG

  static CfgList of(ir::SDFG& root);
  ir::ControlFlowRegion* region(int cfg_id) const {
    return cfg_id >= 0 && cfg_id < static_cast<int>(regions.size()) ? regions[static_cast<size_t>(cfg_id)] : nullptr;
  }
};

// The block a region starts executing at: ir::entry_block (shared with the code generator).
using ir::entry_block;

// The SDFG a region belongs to (the region itself for an SDFG).
ir::SDFG& owning_sdfg(ir::ControlFlowRegion& region);
const ir::SDFG& owning_sdfg(const ir::ControlFlowRegion& region);

}  // namespace dace::transform
