#include "transform/branch_detection.h"

#include <algorithm>
#include <set>

#include "ir/entry_block.h"
#include "transform/loop_detection.h"

namespace dace::transform {
namespace {

std::optional<Branching> refuse(std::string* why, std::string reason) {
  if (why) *why = std::move(reason);
  return std::nullopt;
}

std::string named(const ir::ControlFlowRegion& region, int slot) { return "block '" + region.block(slot)->label + "'"; }

// Whether some out-edge of `slot` is always taken: one is unconditional, or there are two
// whose conditions negate each other (as DaCe's frontend writes if/else and loop guards).
bool leaves_no_case_open(const ir::ControlFlowRegion& region, int slot) {
  const std::vector<int> outs = region.out_edges(slot);
  for (int es : outs)
    if (region.edge(es)->is_unconditional()) return true;
  if (outs.size() != 2) return false;
  const std::string& a = region.edge(outs[0])->condition.code;
  const std::string& b = region.edge(outs[1])->condition.code;
  return is_negation(a, b) || is_negation(b, a);
}

// The immediate post-dominator of `slot` among the region's blocks, with a virtual exit after
// every block without out-edges: a slot, kExit for the exit, kNone when `slot` cannot reach it.
constexpr int kExit = -1, kNone = -2;
int immediate_post_dominator(const ir::ControlFlowRegion& region, int slot) {
  const std::vector<int> slots = region.block_slots();
  const size_t n = slots.size(), end = n;
  auto index = [&](int s) { return static_cast<size_t>(std::lower_bound(slots.begin(), slots.end(), s) - slots.begin()); };
  std::vector<std::vector<size_t>> succ(n + 1);
  for (size_t i = 0; i < n; ++i) {
    for (int es : region.out_edges(slots[i])) succ[i].push_back(index(region.edge(es)->dst));
    if (succ[i].empty()) succ[i].push_back(end);
  }
  // pdom[v]: the blocks on every path from v to the exit (v and the exit included).
  std::vector<std::vector<char>> pdom(n + 1, std::vector<char>(n + 1, 1));
  pdom[end].assign(n + 1, 0);
  pdom[end][end] = 1;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t v = n; v-- > 0;) {
      std::vector<char> next(n + 1, 1);
      for (size_t s : succ[v])
        for (size_t k = 0; k <= n; ++k) next[k] = next[k] && pdom[s][k];
      next[v] = 1;
      if (next != pdom[v]) {
        pdom[v] = std::move(next);
        changed = true;
      }
    }
  }
  const size_t b = index(slot);
  if (!pdom[b][end]) return kNone;  // no path to the end: every block still "post-dominates"
  // The closest strict post-dominator is the one the others post-dominate as well.
  const auto count = [&](size_t v) { return std::count(pdom[v].begin(), pdom[v].end(), 1); };
  for (size_t p = 0; p <= n; ++p)
    if (p != b && pdom[b][p] && count(p) == count(b) - 1) return p == end ? kExit : slots[p];
  return kNone;
}

}  // namespace

std::optional<Branching> detect_branching(const ir::ControlFlowRegion& region, int block, std::string* why) {
  if (!region.block(block)) return refuse(why, "no block in slot " + std::to_string(block));
  const std::string here = named(region, block);
  Branching br;
  br.block = block;
  br.out_edges = region.out_edges(block);
  if (br.out_edges.size() < 2) return refuse(why, here + " has fewer than two out-edges");
  std::set<int> targets;
  for (int es : br.out_edges)
    if (!targets.insert(region.edge(es)->dst).second)
      return refuse(why, here + " has two out-edges to " + named(region, region.edge(es)->dst));
  if (!leaves_no_case_open(region, block))
    return refuse(why, here + ": its out-edges may all be false (the region would end there)");
  const int join = immediate_post_dominator(region, block);
  if (join == kNone) return refuse(why, here + " has no post-dominator (it does not reach the region's end)");
  br.join = join == kExit ? -1 : join;

  const int entry = ir::entry_block(region);
  std::set<int> all;
  for (int es : br.out_edges) {
    const ir::InterstateEdge& e = *region.edge(es);
    std::set<int> arm;
    std::vector<int> stack;
    if (e.dst != br.join) {
      stack.push_back(e.dst);
      arm.insert(e.dst);
    }
    while (!stack.empty()) {
      const int b = stack.back();
      stack.pop_back();
      for (int os : region.out_edges(b)) {
        const int d = region.edge(os)->dst;
        if (d != br.join && arm.insert(d).second) stack.push_back(d);
      }
    }
    if (arm.count(block)) return refuse(why, here + " is reached again from its branch to " + named(region, e.dst) + " (a loop)");
    if (arm.count(entry)) return refuse(why, here + ": a branch reaches the region's start block");
    for (int b : arm) {
      if (!all.insert(b).second) return refuse(why, here + ": two branches share " + named(region, b));
      for (int is : region.in_edges(b))
        if (is != es && !arm.count(region.edge(is)->src))
          return refuse(why, here + ": " + named(region, b) + " is entered from outside its branch");
      const std::vector<int> outs = region.out_edges(b);
      if (!outs.empty() && !leaves_no_case_open(region, b))
        return refuse(why, here + ": the out-edges of " + named(region, b) + " may all be false");
    }
    br.arms.emplace_back(arm.begin(), arm.end());
  }
  return br;
}

}  // namespace dace::transform
