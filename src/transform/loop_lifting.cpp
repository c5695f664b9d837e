#include "transform/loop_lifting.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "ir/state.h"
#include "transform/loop_detection.h"
#include "transform/take_block.h"

namespace dace::transform {
namespace {

// DaCe names the region `loop_<first block>`, the first block being the guard for natural
// loops; a suffix keeps the label unique in the region.
std::string loop_label(const ir::ControlFlowRegion& region, const std::string& guard_label) {
  std::set<std::string> taken;
  for (int s : region.block_slots()) taken.insert(region.block(s)->label);
  const std::string base = "loop_" + guard_label;
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

bool has_edge(const ir::ControlFlowRegion& region, int src, int dst) {
  for (int es : region.out_edges(src))
    if (region.edge(es)->dst == dst) return true;
  return false;
}

std::string quoted(const ir::ControlFlowRegion& region, int slot) {
  const ir::ControlFlowBlock* b = region.block(slot);
  return "block '" + (b ? b->label : std::string("?")) + "'";
}

}  // namespace

void LoopLifting::region_matches(const ir::ControlFlowRegion& region, std::vector<std::vector<int>>& out) {
  // A guard is a state with two out-edges to two other blocks; either may be the body.
  for (int g : region.block_slots()) {
    if (region.block(g)->kind != ir::BlockKind::State) continue;
    const std::vector<int> outs = region.out_edges(g);
    if (outs.size() != 2) continue;
    const int a = region.edge(outs[0])->dst, b = region.edge(outs[1])->dst;
    if (a == b || a == g || b == g) continue;
    out.push_back({g, std::min(a, b), std::max(a, b)});
    out.push_back({g, std::max(a, b), std::min(a, b)});
  }
}

int LoopLifting::expr_index_of(const ir::ControlFlowRegion& region, const std::vector<int>& blocks) const {
  // DaCe's expression 0 has the edge loop_begin -> loop_guard (a single-block body).
  return has_edge(region, blocks[1], blocks[0]) ? 0 : 1;
}

bool LoopLifting::can_apply(const Site& site, const std::vector<int>& blocks) {
  const ir::ControlFlowRegion& region = site.region;
  const std::string guard = "loop guard '" + region.block(blocks[0])->label + "'";
  std::string why;
  std::optional<ForLoop> L = detect_for_loop(region, blocks[0], &why);
  if (!L) return refuse(guard + ": " + why);
  if (region.edge(L->body_edge)->dst != blocks[1] || region.edge(L->exit_edge)->dst != blocks[2])
    return refuse(guard + ": the loop's body starts at " +
                  quoted(region, region.edge(L->body_edge)->dst) + " and it exits to " +
                  quoted(region, region.edge(L->exit_edge)->dst));
  if (site.expr_index != expr_index_of(region, blocks))
    return refuse(guard + ": expr_index " + std::to_string(site.expr_index) +
                  " names the other shape (0: a single-block body, 1: several blocks)");
  return true;
}

Status LoopLifting::apply_at(const Site& site, const std::vector<int>& blocks) {
  ir::ControlFlowRegion& region = site.region;
  ir::SDFG& sdfg = site.sdfg;
  const ForLoop L = *detect_for_loop(region, blocks[0]);  // can_apply accepted it
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

  // The edges among the body blocks, in edge order, before the blocks leave the region.
  std::vector<ir::InterstateEdge> inner;
  for (int es : region.edge_slots()) {
    const ir::InterstateEdge& e = *region.edge(es);
    const bool src_in = std::binary_search(L.body.begin(), L.body.end(), e.src);
    const bool dst_in = std::binary_search(L.body.begin(), L.body.end(), e.dst);
    if (es != L.back_edge && src_in && dst_in) inner.push_back(e);
  }
  // The guard first (the loop's start block, as in DaCe), then the body in block order: the
  // result depends only on the input, and ids inside the loop are what the replay expects.
  std::map<int, int> moved;
  moved[L.guard] = loop->add_block(take_block(region, L.guard));
  loop->start_block = moved[L.guard];
  for (int b : L.body) moved[b] = loop->add_block(take_block(region, b));
  ir::InterstateEdge enter = body_e;
  enter.src = moved[L.guard];
  enter.dst = moved[body_e.dst];
  enter.condition = ir::CodeBlock{"1", ir::Language::Python};
  loop->add_edge(std::move(enter));
  for (ir::InterstateEdge& e : inner) {
    e.src = moved[e.src];
    e.dst = moved[e.dst];
    loop->add_edge(std::move(e));
  }
  // The back edge's other assignments were evaluated together with the update, before it
  // took effect (detection refused updates that read them): an edge at the end of the body.
  auto rest = without(back_e.assignments, L.variable);
  if (!rest.empty()) {
    auto tail = std::make_unique<ir::State>();
    tail->label = loop->label + "_tail";
    sdfg.register_block(*tail);
    ir::InterstateEdge e = back_e;
    e.src = moved[L.latch];
    e.dst = loop->add_block(std::move(tail));
    e.assignments = std::move(rest);
    loop->add_edge(std::move(e));
  }
  ir::relink_parents(*loop);  // branches of moved conditionals point at their new region

  const int ls = region.add_block(std::move(loop));
  ir::InterstateEdge into = init_e;  // condition, label and the other assignments stay
  into.dst = ls;
  into.assignments = without(init_e.assignments, L.variable);
  region.add_edge(std::move(into));
  ir::InterstateEdge out = exit_e;  // the negated condition is the loop's own exit now
  out.src = ls;
  out.condition = ir::CodeBlock{"1", ir::Language::Python};
  region.add_edge(std::move(out));
  return Status::success();
}

}  // namespace dace::transform
