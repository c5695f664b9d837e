#include "transform/loop_lifting.h"

#include <map>
#include <memory>
#include <set>

#include "ir/state.h"
#include "transform/cfg_list.h"
#include "transform/loop_detection.h"

namespace dace::transform {
namespace {

// DaCe's frontend names the guard `<loop>_guard`; the region takes the loop's name.
std::string loop_label(const ir::ControlFlowRegion& region, const std::string& guard_label) {
  const std::string suffix = "_guard";
  std::string base = guard_label.size() > suffix.size() && guard_label.ends_with(suffix)
                         ? guard_label.substr(0, guard_label.size() - suffix.size())
                         : "loop_" + guard_label;
  std::set<std::string> taken;
  for (int s : region.block_slots()) taken.insert(region.block(s)->label);
  std::string label = base;
  for (int k = 1; taken.count(label); ++k) label = base + "_" + std::to_string(k);
  return label;
}

std::vector<std::pair<std::string, std::string>> without(const std::vector<std::pair<std::string, std::string>>& as,
                                                         const std::string& var) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& a : as)
    if (a.first != var) out.push_back(a);
  return out;
}

void lift(ir::ControlFlowRegion& region, const ForLoop& L) {
  ir::SDFG& sdfg = owning_sdfg(region);
  const ir::InterstateEdge init_e = *region.edge(L.init_edge);
  const ir::InterstateEdge back_e = *region.edge(L.back_edge);
  const ir::InterstateEdge exit_e = *region.edge(L.exit_edge);
  const ir::InterstateEdge body_e = *region.edge(L.body_edge);

  auto loop = std::make_unique<ir::LoopRegion>();
  loop->label = loop_label(region, region.block(L.guard)->label);
  loop->loop_variable = L.variable;
  loop->init_statement = ir::CodeBlock{L.variable + " = " + L.init_value, ir::Language::Python};
  loop->loop_condition = body_e.condition;
  loop->update_statement = ir::CodeBlock{L.variable + " = " + L.update_value, ir::Language::Python};
  sdfg.register_block(*loop);

  // The body moves in block order, its internal edges in edge order: the result depends
  // only on the input.
  std::map<int, int> moved;
  for (int b : L.body) moved[b] = loop->add_block(region.block(b)->clone());
  for (int es : region.edge_slots()) {
    const ir::InterstateEdge& e = *region.edge(es);
    if (es == L.back_edge || !moved.count(e.src) || !moved.count(e.dst)) continue;
    ir::InterstateEdge copy = e;
    copy.src = moved[e.src];
    copy.dst = moved[e.dst];
    loop->add_edge(std::move(copy));
  }
  loop->start_block = moved[body_e.dst];
  // The back edge's other assignments were evaluated together with the update, before it
  // took effect (detection refused updates that read them): an edge at the end of the body.
  auto rest = without(back_e.assignments, L.variable);
  if (!rest.empty()) {
    auto st = std::make_unique<ir::State>();
    st->label = loop->label + "_latch_assignments";
    sdfg.register_block(*st);
    ir::InterstateEdge e = back_e;
    e.src = moved[L.latch];
    e.dst = loop->add_block(std::move(st));
    e.assignments = std::move(rest);
    loop->add_edge(std::move(e));
  }

  for (int b : L.body) region.remove_block(b);
  region.remove_block(L.guard);
  const int ls = region.add_block(std::move(loop));
  ir::InterstateEdge into = init_e;  // condition, label and the other assignments stay
  into.dst = ls;
  into.assignments = without(init_e.assignments, L.variable);
  region.add_edge(std::move(into));
  ir::InterstateEdge out = exit_e;  // the negated condition is the loop's own exit now
  out.src = ls;
  out.condition = ir::CodeBlock{"1", ir::Language::Python};
  region.add_edge(std::move(out));
}

// The first for-loop in cfg_list order, then block order; lifted. Returns whether one was.
bool lift_first(ir::SDFG& sdfg) {
  CfgList cfgs = CfgList::of(sdfg);
  for (ir::ControlFlowRegion* region : cfgs.regions)
    for (int slot : region->block_slots())
      if (std::optional<ForLoop> L = detect_for_loop(*region, slot)) {
        lift(*region, *L);
        return true;
      }
  return false;
}

}  // namespace

Result<bool> LoopLifting::apply(ir::SDFG& sdfg, AnalysisManager&) {
  bool changed = false;
  // Every lift rebuilds the region list: moving the body frees the blocks it came from.
  while (lift_first(sdfg)) changed = true;
  return changed;
}

}  // namespace dace::transform
