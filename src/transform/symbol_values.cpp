#include "transform/symbol_values.h"

#include "ir/state.h"
#include "transform/symbol_rewrite.h"

namespace dace::transform {

bool states_only(const ir::ControlFlowRegion& region) {
  for (int slot : region.block_slots())
    if (region.block(slot)->kind != ir::BlockKind::State) return false;
  return !region.block_slots().empty();
}

StateSymbolValues known_entries(const std::map<int, SymbolTable>& tables) {
  StateSymbolValues out;
  for (const auto& [slot, table] : tables)
    for (const auto& [k, v] : table)
      if (v) out[slot][k] = *v;
  return out;
}

bool rewrite_state_and_out_edges(ir::ControlFlowRegion& region, int slot, const std::map<std::string, std::string>& values,
                                 std::set<std::string>& blocked) {
  SymbolRewriter rw(values, blocked);
  rw.state(static_cast<ir::State&>(*region.block(slot)));
  for (int es : region.out_edges(slot)) {
    ir::InterstateEdge& e = *region.edge(es);
    rw.code_text(e.condition.code, /*expression=*/true);
    for (auto& [lhs, rhs] : e.assignments) rw.code_text(rhs, /*expression=*/true);
  }
  return rw.changed;
}

}  // namespace dace::transform
