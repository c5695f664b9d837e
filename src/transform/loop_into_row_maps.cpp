#include "transform/loop_into_row_maps.h"

#include <algorithm>
#include <optional>

#include "transform/apply.h"
#include "transform/cfg_list.h"
#include "transform/loop_shape.h"
#include "transform/map_expansion.h"
#include "transform/move_loop_into_map.h"

namespace dace::transform {
namespace {

// The MapExpansion location of the loop's body map when it has two or more dimensions: the
// loop region's cfg_id, its only state, the map entry.
std::optional<Match> body_map(ir::SDFG& root, const Match& loop_match) {
  CfgList cfgs = CfgList::of(root);
  ir::ControlFlowRegion* region = cfgs.region(loop_match.cfg_id);
  if (!region) return std::nullopt;
  const std::vector<int> blocks = region->block_slots();
  const int id = loop_match.subgraph.at(0);
  if (id < 0 || id >= static_cast<int>(blocks.size())) return std::nullopt;
  const ir::LoopRegion* loop = as_loop(region->block(blocks[static_cast<size_t>(id)]));
  const ir::State* body = loop ? single_body(*loop) : nullptr;
  if (!body) return std::nullopt;
  auto cfg = std::find(cfgs.regions.begin(), cfgs.regions.end(), static_cast<const ir::ControlFlowRegion*>(loop));
  if (cfg == cfgs.regions.end()) return std::nullopt;
  const std::vector<int> parents = body->scope_parents();
  for (int n : body->node_ids()) {
    if (body->node(n)->kind != ir::NodeKind::MapEntry || parents[static_cast<size_t>(n)] >= 0) continue;
    if (static_cast<const ir::MapEntry&>(*body->node(n)).map.params.size() < 2) return std::nullopt;
    return Match{static_cast<int>(cfg - cfgs.regions.begin()), 0, {dense_id(body->node_ids(), n)}, 0};
  }
  return std::nullopt;
}

}  // namespace

Result<bool> MoveLoopIntoOuterMapDimension::apply(ir::SDFG& sdfg, AnalysisManager& am) {
  MoveLoopIntoMap move;
  MapExpansion split;
  if (Status s = split.properties().set_from_json(R"({"expansion_limit": 1, "inner_schedule": "Sequential"})");
      !s.ok())
    return s.take_error();
  bool changed = false;
  // Each application removes a loop, so this ends; matches are recomputed after each one.
  for (bool again = true; again;) {
    again = false;
    for (const Match& m : move.enumerate(sdfg, am)) {
      if (!move.can_be_applied(sdfg, m, am)) continue;
      std::optional<Match> map = body_map(sdfg, m);
      if (!map) continue;
      // Legal after the split too? Tried on a copy, so that a refusal leaves no split behind.
      std::unique_ptr<ir::SDFG> trial = sdfg.clone_sdfg();
      AnalysisManager trial_am;
      if (!split.can_be_applied(*trial, *map, trial_am) || !split.apply(*trial, *map, trial_am).ok() ||
          !move.can_be_applied(*trial, m, trial_am))
        continue;
      if (Status s = apply_at(sdfg, split, *map, am); !s.ok()) return s.take_error();
      if (Status s = apply_at(sdfg, move, m, am); !s.ok()) return s.take_error();
      changed = again = true;
      break;
    }
  }
  return changed;
}

}  // namespace dace::transform
