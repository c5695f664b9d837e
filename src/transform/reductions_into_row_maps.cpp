#include "transform/reductions_into_row_maps.h"

#include <algorithm>

#include "transform/apply.h"
#include "transform/block_placement.h"
#include "transform/cfg_list.h"
#include "transform/map_collapse.h"
#include "transform/map_expansion.h"
#include "transform/map_fusion.h"
#include "transform/reduce_to_outer_map.h"

namespace dace::transform {
namespace {

ir::State* state_of(ir::SDFG& root, const Match& m) {
  CfgList cfgs = CfgList::of(root);
  ir::ControlFlowRegion* region = cfgs.region(m.cfg_id);
  if (!region) return nullptr;
  const std::vector<int> blocks = region->block_slots();
  if (m.state_id < 0 || m.state_id >= static_cast<int>(blocks.size())) return nullptr;
  ir::ControlFlowBlock* b = region->block(blocks[static_cast<size_t>(m.state_id)]);
  return b && b->kind == ir::BlockKind::State ? static_cast<ir::State*>(b) : nullptr;
}

// Whether the map ranges exactly over `in` (same starts and ends, unit steps).
bool ranges_over(const ir::MapScope& map, const sym::Subset& in) {
  if (map.params.size() != in.dims.size()) return false;
  for (size_t d = 0; d < in.dims.size(); ++d) {
    const sym::Range& a = map.range.dims[d];
    const sym::Range& b = in.dims[d];
    if (!same_value(a.start, b.start) || !same_value(a.end, b.end)) return false;
    if (a.step && sym::as_integer(sym::simplify(a.step)) != std::optional<int64_t>(1)) return false;
  }
  return true;
}

// Top-level Default-scheduled map entries over the Reduce's input space that write the
// Reduce's input access node or read its output access node, ascending.
std::vector<int> neighbour_maps(const ir::State& state, int reduce) {
  const std::vector<int> parents = state.scope_parents();
  int in_edge = -1, out_edge = -1;
  for (int e : state.in_edges(reduce))
    if (!state.edge(e)->memlet.is_empty()) in_edge = e;
  for (int e : state.out_edges(reduce))
    if (!state.edge(e)->memlet.is_empty()) out_edge = e;
  if (in_edge < 0 || out_edge < 0) return {};
  const sym::Subset& in = state.edge(in_edge)->memlet.subset;
  std::vector<int> candidates;
  for (int e : state.in_edges(state.edge(in_edge)->src)) {
    const ir::Node* n = state.node(state.edge(e)->src);
    if (n->kind == ir::NodeKind::MapExit) candidates.push_back(static_cast<const ir::MapExit&>(*n).entry);
  }
  for (int e : state.out_edges(state.edge(out_edge)->dst))
    if (state.node(state.edge(e)->dst)->kind == ir::NodeKind::MapEntry) candidates.push_back(state.edge(e)->dst);
  std::vector<int> out;
  for (int c : candidates) {
    const ir::Node* n = state.node(c);
    if (!n || n->kind != ir::NodeKind::MapEntry || parents[static_cast<size_t>(c)] >= 0) continue;
    const ir::MapScope& map = static_cast<const ir::MapEntry&>(*n).map;
    if (map.schedule == ir::ScheduleType::Default && ranges_over(map, in)) out.push_back(c);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The map entry directly inside `entry` (MapExpansion chains entries by their edges).
int child_entry(const ir::State& state, int entry) {
  for (int e : state.out_edges(entry))
    if (state.node(state.edge(e)->dst)->kind == ir::NodeKind::MapEntry) return state.edge(e)->dst;
  return -1;
}

// Splits the map at `entry` into a map over its first `kept` parameters around one over the
// rest, through MapExpansion and MapCollapse (each recorded). The outermost map keeps the
// entry's node.
Status split_map(ir::SDFG& root, const Match& at, int entry, size_t kept, AnalysisManager& am) {
  MapExpansion expand;
  const std::string props = R"({"expansion_limit": )" + std::to_string(kept) + R"(, "inner_schedule": null})";
  if (Status s = expand.properties().set_from_json(props); !s.ok()) return s;
  ir::State* state = state_of(root, at);
  if (!state) return make_error(Code::Internal, "ReductionsIntoRowMaps: the state of the Reduce is gone");
  Match m{at.cfg_id, at.state_id, {dense_id(state->node_ids(), entry)}, 0};
  if (Status s = apply_at(root, expand, m, am); !s.ok()) return s;
  MapCollapse collapse;
  for (size_t k = 1; k < kept; ++k) {
    state = state_of(root, at);
    const int inner = state ? child_entry(*state, entry) : -1;
    if (inner < 0) return make_error(Code::Internal, "ReductionsIntoRowMaps: MapExpansion left no inner map");
    const std::vector<int> live = state->node_ids();
    Match c{at.cfg_id, at.state_id, {dense_id(live, entry), dense_id(live, inner)}, 0};
    if (Status s = apply_at(root, collapse, c, am); !s.ok()) return s;
  }
  return Status::success();
}

// Whether the fusion auto_optimize runs next (MapFusion keeping no intermediate, then
// MapFusion) puts the Reduce at slot `reduce` into one map with a neighbour so that it writes
// a transient that lives only inside map scopes (one per row, private to the thread running
// it). Run on `trial`, a copy after this pass's steps. A Reduce left alone in its map over
// rows, or writing memory outside the scope, would be lowered inside a parallel map with an
// atomic update per element, where at the top level it splits its kept dimension over the
// threads without any.
bool fuses_into_rows(ir::SDFG& trial, const Match& at, int reduce) {
  AnalysisManager am;
  for (const char* props : {R"({"require_exclusive_intermediates": true})", "{}"}) {
    MapFusion fuse;
    if (!fuse.properties().set_from_json(props).ok() || !apply_repeated(trial, fuse, am).ok()) return false;
  }
  const ir::State* state = state_of(trial, at);
  const ir::Node* node = state ? state->node(reduce) : nullptr;
  if (!node || node->kind != ir::NodeKind::Library || !is_reduce_node(*node)) return false;
  const std::vector<int>& parents = state->scope_parents();
  for (int e : state->out_edges(reduce)) {
    if (state->edge(e)->memlet.is_empty()) continue;
    const int dst = state->edge(e)->dst;
    const ir::Node* out = state->node(dst);
    if (out->kind != ir::NodeKind::Access || parents[static_cast<size_t>(dst)] < 0) return false;
    const std::string& data = static_cast<const ir::AccessNode&>(*out).data;
    auto desc = trial.arrays.find(data);
    if (desc == trial.arrays.end() || !desc->second.transient) return false;
    for (const ir::State* st : trial.all_states()) {
      const std::vector<int>& p = st->scope_parents();
      for (int id : st->node_ids()) {
        const ir::Node* n = st->node(id);
        if (n->kind == ir::NodeKind::Access && static_cast<const ir::AccessNode&>(*n).data == data &&
            p[static_cast<size_t>(id)] < 0)
          return false;
      }
    }
  }
  return true;
}

}  // namespace

Result<bool> ReductionsIntoRowMaps::apply(ir::SDFG& sdfg, AnalysisManager& am) {
  ReduceToOuterMap wrap;
  bool changed = false;
  // Each round moves one top-level Reduce into a map (it is no longer a match), so this ends.
  for (bool again = true; again;) {
    again = false;
    for (const Match& m : wrap.enumerate(sdfg, am)) {
      if (!wrap.can_be_applied(sdfg, m, am)) continue;
      ir::State* state = state_of(sdfg, m);
      if (!state) continue;
      const int reduce = state->node_ids()[static_cast<size_t>(m.subgraph[0])];
      std::vector<int> maps = neighbour_maps(*state, reduce);
      if (maps.empty()) continue;
      size_t rank = 0, reduced = 0;
      for (int e : state->in_edges(reduce))
        if (!state->edge(e)->memlet.is_empty()) rank = state->edge(e)->memlet.subset.dims.size();
      reduced = reduce_axes(static_cast<const ir::LibraryNode&>(*state->node(reduce)))->size();
      // Node slots stay valid across these edits (removed nodes leave holes). Tried on a
      // copy first, with the fusion that follows in auto_optimize, so that a split refused
      // halfway or a Reduce that would not fuse leaves nothing behind.
      auto steps = [&](ir::SDFG& target, AnalysisManager& target_am) -> Status {
        if (Status s = apply_at(target, wrap, m, target_am); !s.ok()) return s;
        for (int entry : maps)
          if (Status s = split_map(target, m, entry, rank - reduced, target_am); !s.ok()) return s;
        return Status::success();
      };
      std::unique_ptr<ir::SDFG> trial = sdfg.clone_sdfg();
      AnalysisManager trial_am;
      if (!steps(*trial, trial_am).ok() || !fuses_into_rows(*trial, m, reduce)) continue;
      if (Status s = steps(sdfg, am); !s.ok()) return s.take_error();
      changed = again = true;
      break;
    }
  }
  return changed;
}

}  // namespace dace::transform
