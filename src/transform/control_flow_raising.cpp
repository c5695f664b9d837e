#include "transform/control_flow_raising.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "ir/state.h"
#include "transform/branch_detection.h"
#include "transform/cfg_list.h"
#include "transform/loop_lifting.h"
#include "transform/take_block.h"

namespace dace::transform {
namespace {

std::string unique_label(const ir::ControlFlowRegion& region, const std::string& base) {
  std::set<std::string> taken;
  for (int s : region.block_slots()) taken.insert(region.block(s)->label);
  std::string label = base;
  for (int k = 1; taken.count(label); ++k) label = base + "_" + std::to_string(k);
  return label;
}

int add_empty_state(ir::SDFG& sdfg, ir::ControlFlowRegion& region, const std::string& label) {
  auto st = std::make_unique<ir::State>();
  st->label = label;
  sdfg.register_block(*st);
  return region.add_block(std::move(st));
}

// One branch region: the arm's blocks and the edges among them, in their former order.
std::unique_ptr<ir::ControlFlowRegion> make_branch(ir::SDFG& sdfg, ir::ControlFlowRegion& region,
                                                   const Branching& br, size_t k, const std::string& name) {
  const ir::InterstateEdge entry = *region.edge(br.out_edges[k]);
  const std::vector<int>& arm = br.arms[k];
  auto in_arm = [&](int b) { return std::binary_search(arm.begin(), arm.end(), b); };
  auto branch = std::make_unique<ir::ControlFlowRegion>();
  branch->label = name;
  sdfg.register_block(*branch);

  std::vector<ir::InterstateEdge> inner, to_join;
  for (int es : region.edge_slots()) {
    const ir::InterstateEdge& e = *region.edge(es);
    if (!in_arm(e.src)) continue;
    (in_arm(e.dst) ? inner : to_join).push_back(e);
  }
  std::map<int, int> moved;
  for (int b : arm) moved[b] = branch->add_block(take_block(region, b));
  for (ir::InterstateEdge& e : inner) {
    e.src = moved[e.src];
    e.dst = moved[e.dst];
    branch->add_edge(std::move(e));
  }
  // Leaving for the join ends the branch; a condition or assignments on the way need a block.
  for (ir::InterstateEdge& e : to_join) {
    if (e.is_unconditional() && e.assignments.empty()) continue;
    e.src = moved[e.src];
    e.dst = add_empty_state(sdfg, *branch, unique_label(*branch, name + "_end"));
    branch->add_edge(std::move(e));
  }
  // The way in: the arm's first block, behind a start state when the edge assigns symbols.
  int first = arm.empty() ? -1 : moved[entry.dst];
  if (!entry.assignments.empty() || first < 0) {
    const int start = add_empty_state(sdfg, *branch, unique_label(*branch, first < 0 ? "noop" : name + "_start"));
    if (first >= 0 || !entry.assignments.empty()) {
      ir::InterstateEdge e = entry;
      e.condition = ir::CodeBlock{"1", ir::Language::Python};
      e.src = start;
      e.dst = first >= 0 ? first : add_empty_state(sdfg, *branch, unique_label(*branch, name + "_end"));
      branch->add_edge(std::move(e));
    }
    first = start;
  }
  branch->start_block = first;
  return branch;
}

void raise_branching(ir::SDFG& sdfg, ir::ControlFlowRegion& region, const Branching& br) {
  const std::string label = region.block(br.block)->label;
  auto cond = std::make_unique<ir::ConditionalBlock>();
  cond->label = unique_label(region, "conditional_" + label);
  sdfg.register_block(*cond);
  std::vector<ir::CodeBlock> conditions;
  for (int es : br.out_edges) conditions.push_back(region.edge(es)->condition);
  for (size_t k = 0; k < br.out_edges.size(); ++k) {
    std::string name = "branch_" + std::to_string(k) + "_" + label;
    cond->branches.emplace_back(conditions[k], make_branch(sdfg, region, br, k, name));
  }
  for (int es : br.out_edges) region.remove_edge(es);
  const int cs = region.add_block(std::move(cond));
  ir::InterstateEdge into;
  into.src = br.block;
  into.dst = cs;
  region.add_edge(std::move(into));
  if (br.join >= 0) {
    ir::InterstateEdge out;
    out.src = cs;
    out.dst = br.join;
    region.add_edge(std::move(out));
  }
  ir::relink_parents(region);  // branch regions hang on the region holding the conditional
}

// The first raisable branching in cfg_list order, then block order; raised.
bool raise_first(ir::SDFG& sdfg) {
  CfgList cfgs = CfgList::of(sdfg);
  for (ir::ControlFlowRegion* region : cfgs.regions)
    for (int slot : region->block_slots())
      if (std::optional<Branching> br = detect_branching(*region, slot)) {
        raise_branching(owning_sdfg(*region), *region, *br);
        return true;
      }
  return false;
}

}  // namespace

Result<bool> ControlFlowRaising::apply(ir::SDFG& sdfg, AnalysisManager& am) {
  bool changed = false;
  // Loops first: their guards branch too, but a branch reaching its own block is no if/else.
  LoopLifting lifting;
  for (bool again = true; again;) {
    again = false;
    for (const Match& m : lifting.enumerate(sdfg, am)) {
      if (!lifting.can_be_applied(sdfg, m, am)) continue;
      DACE_TRY(lifting.apply(sdfg, m, am));
      changed = again = true;
      break;
    }
  }
  // Every raise rebuilds the region list: branch regions are new regions.
  while (raise_first(sdfg)) changed = true;
  return changed;
}

}  // namespace dace::transform
