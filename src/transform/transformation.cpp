#include "transform/transformation.h"

#include <algorithm>

#include "ir/path.h"

namespace dace::transform {
namespace {

int slot_at(const std::vector<int>& live, int dense) {
  return dense >= 0 && dense < static_cast<int>(live.size()) ? live[static_cast<size_t>(dense)] : -1;
}

}  // namespace

// Locations use DaCe's ids: the position of an element among the live ones (what DaCe's
// node_id returns and what the JSON writer numbers), not our slot, which keeps holes after
// removals. So a recorded location means the same element in the saved file and in DaCe.
int dense_id(const std::vector<int>& live, int slot) {
  auto it = std::lower_bound(live.begin(), live.end(), slot);
  return it != live.end() && *it == slot ? static_cast<int>(it - live.begin()) : -1;
}

std::string to_string(const Match& m) {
  std::string s = "cfg " + std::to_string(m.cfg_id);
  if (m.state_id >= 0) s += " / state " + std::to_string(m.state_id);
  s += " / {";
  for (size_t i = 0; i < m.subgraph.size(); ++i)
    s += (i ? ", " : "") + std::to_string(i) + ": " + std::to_string(m.subgraph[i]);
  return s + "}";
}

// ---- single state ----

std::vector<Match> SingleStateTransformation::enumerate(ir::SDFG& root, AnalysisManager& am) {
  std::vector<Match> out;
  CfgList cfgs = CfgList::of(root);
  for (size_t cfg = 0; cfg < cfgs.regions.size(); ++cfg) {
    ir::ControlFlowRegion& region = *cfgs.regions[cfg];
    const std::vector<int> blocks = region.block_slots();
    for (size_t b = 0; b < blocks.size(); ++b) {
      const ir::ControlFlowBlock* block = region.block(blocks[b]);
      if (block->kind != ir::BlockKind::State) continue;
      const auto& state = static_cast<const ir::State&>(*block);
      std::vector<std::vector<int>> found;
      state_matches(state, am.scope_tree(state), found);
      const std::vector<int> live = state.node_ids();
      const std::vector<size_t> sizes = expression_sizes();
      for (auto& nodes : found) {
        const int expr = static_cast<int>(std::find(sizes.begin(), sizes.end(), nodes.size()) - sizes.begin());
        for (int& n : nodes) n = dense_id(live, n);
        out.push_back(Match{static_cast<int>(cfg), static_cast<int>(b), std::move(nodes), expr});
      }
    }
  }
  return out;
}

Result<ir::State*> SingleStateTransformation::resolve(ir::SDFG& root, const Match& m, ir::SDFG** owner,
                                                     std::vector<int>* nodes) {
  const std::string where = std::string(name()) + " at " + to_string(m) + ": ";
  CfgList cfgs = CfgList::of(root);
  ir::ControlFlowRegion* region = cfgs.region(m.cfg_id);
  if (!region) return make_error(Code::NotFound, where + "no control-flow region with cfg_id " + std::to_string(m.cfg_id));
  ir::SDFG& sdfg = owning_sdfg(*region);
  ir::ControlFlowBlock* b = region->block(slot_at(region->block_slots(), m.state_id));
  if (!b || b->kind != ir::BlockKind::State)
    return make_error(Code::NotFound, where + ir::path_of(sdfg, *region) + ": no state with id " +
                                          std::to_string(m.state_id));
  auto* state = static_cast<ir::State*>(b);
  const std::vector<size_t> sizes = expression_sizes();
  if (m.expr_index < 0 || m.expr_index >= static_cast<int>(sizes.size()))
    return make_error(Code::InvalidArgument, where + "no pattern expression " + std::to_string(m.expr_index));
  const size_t size = sizes[static_cast<size_t>(m.expr_index)];
  if (m.subgraph.size() != size)
    return make_error(Code::InvalidArgument, where + "the pattern has " + std::to_string(size) +
                                                 " elements, the location names " + std::to_string(m.subgraph.size()));
  const std::vector<int> live = state->node_ids();
  nodes->clear();
  for (int id : m.subgraph) {
    const int slot = slot_at(live, id);
    if (slot < 0) return make_error(Code::NotFound, where + ir::path_of(sdfg, *state) + ": no node " + std::to_string(id));
    nodes->push_back(slot);
  }
  *owner = &sdfg;
  return state;
}

bool SingleStateTransformation::can_be_applied(ir::SDFG& root, const Match& m, AnalysisManager& am) {
  ir::SDFG* owner = nullptr;
  std::vector<int> nodes;
  Result<ir::State*> state = resolve(root, m, &owner, &nodes);
  if (!state.ok()) return refuse(state.error().message);
  why_not_.clear();
  if (can_apply(Site{*owner, **state, am.scope_tree(**state), am}, nodes)) return true;
  why_not_ = ir::path_of(*owner, **state) + ": " + why_not_;  // messages name the element
  return false;
}

Status SingleStateTransformation::apply(ir::SDFG& root, const Match& m, AnalysisManager& am) {
  ir::SDFG* owner = nullptr;
  std::vector<int> nodes;
  Result<ir::State*> state = resolve(root, m, &owner, &nodes);
  if (!state.ok()) return state.take_error();
  Status s = apply_at(Site{*owner, **state, am.scope_tree(**state), am}, nodes);
  am.invalidate(**state, modifies());
  return s;
}

// ---- control flow ----

std::vector<Match> ControlFlowTransformation::enumerate(ir::SDFG& root, AnalysisManager&) {
  std::vector<Match> out;
  CfgList cfgs = CfgList::of(root);
  for (size_t cfg = 0; cfg < cfgs.regions.size(); ++cfg) {
    std::vector<std::vector<int>> found;
    region_matches(*cfgs.regions[cfg], found);
    const std::vector<int> live = cfgs.regions[cfg]->block_slots();
    for (auto& blocks : found) {
      const int expr = expr_index_of(*cfgs.regions[cfg], blocks);
      for (int& b : blocks) b = dense_id(live, b);
      out.push_back(Match{static_cast<int>(cfg), -1, std::move(blocks), expr});
    }
  }
  return out;
}

Result<ir::ControlFlowRegion*> ControlFlowTransformation::resolve(ir::SDFG& root, const Match& m,
                                                                  std::vector<int>* blocks) {
  const std::string where = std::string(name()) + " at " + to_string(m) + ": ";
  CfgList cfgs = CfgList::of(root);
  ir::ControlFlowRegion* region = cfgs.region(m.cfg_id);
  if (!region) return make_error(Code::NotFound, where + "no control-flow region with cfg_id " + std::to_string(m.cfg_id));
  if (m.subgraph.size() != pattern_size())
    return make_error(Code::InvalidArgument, where + "the pattern has " + std::to_string(pattern_size()) +
                                                 " elements, the location names " + std::to_string(m.subgraph.size()));
  const std::vector<int> live = region->block_slots();
  blocks->clear();
  for (int id : m.subgraph) {
    const int slot = slot_at(live, id);
    if (slot < 0)
      return make_error(Code::NotFound, where + ir::path_of(owning_sdfg(*region), *region) + ": no block with id " +
                                            std::to_string(id));
    blocks->push_back(slot);
  }
  return region;
}

bool ControlFlowTransformation::can_be_applied(ir::SDFG& root, const Match& m, AnalysisManager& am) {
  std::vector<int> blocks;
  Result<ir::ControlFlowRegion*> region = resolve(root, m, &blocks);
  if (!region.ok()) return refuse(region.error().message);
  why_not_.clear();
  ir::SDFG& sdfg = owning_sdfg(**region);
  if (can_apply(Site{sdfg, **region, am, m.expr_index}, blocks)) return true;
  why_not_ = ir::path_of(sdfg, **region) + ": " + why_not_;
  return false;
}

Status ControlFlowTransformation::apply(ir::SDFG& root, const Match& m, AnalysisManager& am) {
  std::vector<int> blocks;
  Result<ir::ControlFlowRegion*> region = resolve(root, m, &blocks);
  if (!region.ok()) return region.take_error();
  Status s = apply_at(Site{owning_sdfg(**region), **region, am, m.expr_index}, blocks);
  am.invalidate(modifies());
  return s;
}

}  // namespace dace::transform
