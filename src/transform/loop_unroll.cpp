#include "transform/loop_unroll.h"

#include <cctype>
#include <map>
#include <set>
#include <memory>

#include "ir/state.h"
#include "ir/tasklet/parser.h"
#include "ir/tasklet/substitute.h"
#include "transform/assigned_symbols.h"
#include "transform/block_substitution.h"
#include "transform/cfg_list.h"
#include "transform/loop_bounds.h"
#include "transform/loop_shape.h"

namespace dace::transform {
namespace {

// The loop's iteration values from its header `b` (as loop_bounds() reads it), or nullopt
// with `why`.
std::optional<std::vector<sym::Expr>> iteration_values(const ir::LoopRegion& loop, const std::optional<LoopBounds>& b,
                                                       std::string& why) {
  if (!b) {
    why = "loop header is not `i = a; i < b; i = i + s` with a constant step";
    return std::nullopt;
  }
  std::optional<int64_t> diff = sym::as_integer(sym::simplify(sym::sub(b->end, b->start)));
  if (!diff) {
    why = "the trip count of loop '" + loop.label + "' is not a constant";
    return std::nullopt;
  }
  // Values start + k * step while they stay on the start side of end (inclusive).
  int64_t n = 0;
  if ((b->step > 0 && *diff >= 0) || (b->step < 0 && *diff <= 0)) n = *diff / b->step + 1;
  if (n > LoopUnroll::kMaxUnrolledIterations) {
    why = "loop '" + loop.label + "' has " + std::to_string(n) + " iterations, more than " +
          std::to_string(LoopUnroll::kMaxUnrolledIterations);
    return std::nullopt;
  }
  std::vector<sym::Expr> values;
  for (int64_t k = 0; k < n; ++k) values.push_back(sym::simplify(sym::add(b->start, sym::integer(k * b->step))));
  return values;
}

bool has_exit_block(const ir::ControlFlowRegion& r) {
  for (int s : r.block_slots()) {
    const ir::ControlFlowBlock& b = *r.block(s);
    if (b.kind == ir::BlockKind::Break || b.kind == ir::BlockKind::Continue || b.kind == ir::BlockKind::Return)
      return true;
    if (b.kind == ir::BlockKind::Region && has_exit_block(static_cast<const ir::ControlFlowRegion&>(b))) return true;
    if (b.kind == ir::BlockKind::Conditional)
      for (const auto& branch : static_cast<const ir::ConditionalBlock&>(b).branches)
        if (has_exit_block(*branch.second)) return true;
    // A return inside an inner loop leaves ours too; its break and continue do not.
    if (b.kind == ir::BlockKind::Loop) {
      const auto& inner = static_cast<const ir::ControlFlowRegion&>(b);
      for (int t : inner.block_slots())
        if (inner.block(t)->kind == ir::BlockKind::Return) return true;
    }
  }
  return false;
}

// The body's single block without out-edges, or -1.
int sink_block(const ir::ControlFlowRegion& r) {
  int sink = -1;
  for (int b : r.block_slots()) {
    if (!r.out_edges(b).empty()) continue;
    if (sink >= 0) return -1;
    sink = b;
  }
  return sink;
}

// Fresh SDFG-wide ids for a copied block and the blocks of its regions (not nested SDFGs,
// which number their own).
void register_copy(ir::SDFG& sdfg, ir::ControlFlowBlock& b) {
  sdfg.register_block(b);
  if (b.kind == ir::BlockKind::Region || b.kind == ir::BlockKind::Loop) {
    auto& r = static_cast<ir::ControlFlowRegion&>(b);
    for (int s : r.block_slots()) register_copy(sdfg, *r.block(s));
  } else if (b.kind == ir::BlockKind::Conditional) {
    for (auto& branch : static_cast<ir::ConditionalBlock&>(b).branches) register_copy(sdfg, *branch.second);
  }
}

// `var + k` as expression text, for the loop variable of copy k.
std::string shifted(const std::string& var, int64_t k) {
  if (k == 0) return var;
  return "(" + var + (k > 0 ? " + " : " - ") + std::to_string(k > 0 ? k : -k) + ")";
}

// Symbolic text as Python code: the symbolic printer writes sympy's Min / Max, the code
// builtins are min / max.
std::string code_text(sym::Expr e) {
  std::string t = sym::to_string(e);
  for (const char* f : {"Min(", "Max("})
    for (size_t at = t.find(f); at != std::string::npos; at = t.find(f, at + 1))
      if (at == 0 || !(std::isalnum(static_cast<unsigned char>(t[at - 1])) || t[at - 1] == '_'))
        t[at] = static_cast<char>(std::tolower(static_cast<unsigned char>(t[at])));
  return t;
}

// Partial unrolling by `count`: the header of the main loop (each iteration runs `count`
// copies of the body, while the last of them is still in range) and the init statement of
// the remainder loop, which starts where the main loop stopped: a + (n // count) * count * s
// with n the trip count, written with non-negative operands only, so that `//` floors and
// truncates alike.
struct PartialHeaders {
  std::string main_condition, main_update, rest_init;
};
std::optional<PartialHeaders> partial_headers(const ir::LoopRegion& loop, const std::optional<LoopBounds>& b,
                                              int64_t count, std::string& why) {
  if (!b) {
    why = "loop header is not `i = a; i < b; i = i + s` with a constant step";
    return std::nullopt;
  }
  const std::string& var = loop.loop_variable;
  const int64_t s = b->step;
  Result<std::string> cond = tasklet::substitute_in_expression(loop.loop_condition.code, {{var, shifted(var, (count - 1) * s)}});
  if (!cond.ok()) {
    why = "the condition of loop '" + loop.label + "' cannot be rewritten: " + cond.error().message;
    return std::nullopt;
  }
  const sym::Expr a = b->start;
  // Trip count n = max(0, e - a + s) // s for s > 0, max(0, a - e - s) // -s for s < 0.
  const sym::Expr span = s > 0 ? sym::simplify(sym::add(sym::sub(b->end, a), sym::integer(s)))
                               : sym::simplify(sym::sub(sym::sub(a, b->end), sym::integer(s)));
  const std::string n = "(max(0, " + code_text(span) + ") // " + std::to_string(s > 0 ? s : -s) + ")";
  PartialHeaders h;
  h.main_condition = *cond;
  h.main_update = var + " = " + var + (s * count > 0 ? " + " : " - ") + std::to_string(s * count > 0 ? s * count : -s * count);
  h.rest_init = var + " = (" + code_text(a) + ") + (" + n + " // " + std::to_string(count) + ") * " +
                (s * count < 0 ? "(" + std::to_string(s * count) + ")" : std::to_string(s * count));
  if (!tasklet::parse_code(h.rest_init).ok() || !tasklet::parse_code(h.main_update).ok()) {
    why = "the bounds of loop '" + loop.label + "' cannot be written into its header";
    return std::nullopt;
  }
  return h;
}

}  // namespace

void LoopUnroll::region_matches(const ir::ControlFlowRegion& region, std::vector<std::vector<int>>& out) {
  for (int b : region.block_slots())
    if (as_loop(region.block(b))) out.push_back({b});
}

bool LoopUnroll::can_apply(const Site& site, const std::vector<int>& blocks) {
  const ir::LoopRegion* loop = as_loop(site.region.block(blocks[0]));
  if (!loop) return refuse("the pattern needs a loop region");
  if (count_ < 0 || count_ == 1) return refuse("count " + std::to_string(count_) + " is neither 0 (all) nor a factor > 1");
  if (count_ > kMaxUnrolledIterations)
    return refuse("count " + std::to_string(count_) + " is more than " + std::to_string(kMaxUnrolledIterations));
  std::string why;
  const std::string& var = loop->loop_variable;
  const std::optional<LoopBounds> bounds = site.am.symbol_ranges(site.sdfg).loop(*loop);
  if (count_ == 0) {
    std::optional<std::vector<sym::Expr>> values = iteration_values(*loop, bounds, why);
    if (!values) return refuse(why);
    for (sym::Expr v : *values)
      if (!tasklet::parse_expression(sym::to_string(v)).ok())
        return refuse("the value " + sym::to_string(v) + " of '" + var + "' cannot be written into code");
  } else {
    if (!partial_headers(*loop, bounds, count_, why)) return refuse(why);
    // The main loop tests the bound once for `count` iterations: the body must not change it.
    Result<tasklet::ExprPtr> cond = tasklet::parse_expression(loop->loop_condition.code);
    if (!cond.ok()) return refuse("the condition of loop '" + loop->label + "' does not parse");
    const std::set<std::string> read = tasklet::names_read(**cond);
    for (const std::string& s : assigned_symbols(*loop))
      if (s != var && read.count(s))
        return refuse("the body of loop '" + loop->label + "' assigns '" + s + "', which the loop condition reads");
  }
  if (loop->block_slots().empty()) return refuse("loop '" + loop->label + "' has an empty body");
  if (entry_block(*loop) < 0 || sink_block(*loop) < 0)
    return refuse("the body of loop '" + loop->label + "' has no single first and last block");
  if (has_exit_block(*loop)) return refuse("the body of loop '" + loop->label + "' has a break, continue or return");
  for (int b : loop->block_slots())
    if (!can_replace_symbol(*loop->block(b), var, why)) return refuse(why);
  for (int e : loop->edge_slots()) {
    const ir::InterstateEdge& ie = *loop->edge(e);
    for (const auto& a : ie.assignments)
      if (a.first == var) return refuse("the body of loop '" + loop->label + "' assigns '" + var + "'");
  }
  // A copy of the region with the edges checked as well (can_replace_symbol on the loop
  // itself would refuse its own variable).
  ir::ControlFlowRegion edges_only;
  for (int e : loop->edge_slots()) edges_only.add_edge(*loop->edge(e));
  if (!can_replace_symbol(edges_only, var, why)) return refuse(why);
  for (const auto& [data, desc] : site.sdfg.arrays) {
    auto sized_by = [&](const std::vector<sym::Expr>& v) {
      for (sym::Expr e : v)
        if (e && sym::free_symbols(e).count(var)) return true;
      return false;
    };
    if (sized_by(desc.shape) || sized_by(desc.strides) || sized_by(desc.offset) ||
        (desc.total_size && sym::free_symbols(desc.total_size).count(var)))
      return refuse("container '" + data + "' is sized by the loop variable '" + var + "'");
  }
  return true;
}

Status LoopUnroll::apply_at(const Site& site, const std::vector<int>& blocks) {
  if (count_ > 0) return apply_partial(site, blocks[0]);
  ir::ControlFlowRegion& region = site.region;
  const int loop_slot = blocks[0];
  auto& loop = static_cast<ir::LoopRegion&>(*region.block(loop_slot));
  std::string why;
  std::optional<std::vector<sym::Expr>> values = iteration_values(loop, site.am.symbol_ranges(site.sdfg).loop(loop), why);
  if (!values) return make_error(Code::Internal, "LoopUnroll: " + why);
  const std::string var = loop.loop_variable;
  const bool symbolic_start = !sym::as_integer(values->empty() ? sym::integer(0) : values->front());
  const int body_entry = entry_block(loop);
  const int body_exit = sink_block(loop);
  const std::vector<int> body = loop.block_slots();

  int first = -1, last = -1;  // slots in `region` of the first copy's entry, the last copy's exit
  for (size_t k = 0; k < values->size(); ++k) {
    const sym::Expr value = (*values)[k];
    // DaCe names copies by the value, or by the offset when the start is symbolic.
    const std::string suffix =
        symbolic_start ? sym::to_string(sym::simplify(sym::sub(value, values->front()))) : sym::to_string(value);
    std::map<int, int> slot_of;
    for (int b : body) {
      std::unique_ptr<ir::ControlFlowBlock> copy = loop.block(b)->clone();
      copy->label += "_" + var + "_" + suffix;
      replace_symbol(*copy, var, value);
      register_copy(site.sdfg, *copy);
      slot_of[b] = region.add_block(std::move(copy));
    }
    for (int e : loop.edge_slots()) {
      ir::InterstateEdge ie = *loop.edge(e);
      ie.src = slot_of[ie.src];
      ie.dst = slot_of[ie.dst];
      // The edge's condition and assignments through the same substitution as the blocks.
      ir::ControlFlowRegion holder;
      holder.add_edge(ie);
      replace_symbol(holder, var, value);
      region.add_edge(*holder.edge(0));
    }
    if (last >= 0) {
      ir::InterstateEdge link;
      link.src = last;
      link.dst = slot_of[body_entry];
      region.add_edge(link);
    }
    if (first < 0) first = slot_of[body_entry];
    last = slot_of[body_exit];
  }
  if (first < 0) {  // no iteration: an empty state keeps the loop's place
    auto empty = std::make_unique<ir::State>();
    empty->label = loop.label;
    site.sdfg.register_block(*empty);
    first = last = region.add_block(std::move(empty));
  }
  for (int e : region.in_edges(loop_slot)) region.edge(e)->dst = first;
  for (int e : region.out_edges(loop_slot)) region.edge(e)->src = last;
  if (region.start_block == loop_slot) region.start_block = first;
  region.remove_block(loop_slot);
  ir::relink_parents(region);
  return Status::success();
}

// Partial unrolling: the loop keeps its place and runs `count` copies of its body per
// iteration (copy k with the variable replaced by `var + k*s`) while the last copy is in
// range; a copy of the original loop (`<label>_rest`) follows it for the remaining
// iterations and takes over the loop's out-edges.
Status LoopUnroll::apply_partial(const Site& site, int loop_slot) {
  ir::ControlFlowRegion& region = site.region;
  auto& loop = static_cast<ir::LoopRegion&>(*region.block(loop_slot));
  std::string why;
  const std::optional<LoopBounds> bounds = site.am.symbol_ranges(site.sdfg).loop(loop);
  std::optional<PartialHeaders> h = partial_headers(loop, bounds, count_, why);
  if (!h) return make_error(Code::Internal, "LoopUnroll: " + why);
  const int64_t s = bounds->step;
  const std::string var = loop.loop_variable;

  std::unique_ptr<ir::ControlFlowBlock> rest_block = loop.clone();
  auto& rest = static_cast<ir::LoopRegion&>(*rest_block);
  rest.label = loop.label + "_rest";
  rest.init_statement.code = h->rest_init;
  register_copy(site.sdfg, rest);

  const int body_entry = entry_block(loop);
  const std::vector<int> body = loop.block_slots();
  const std::vector<int> body_edges = loop.edge_slots();
  const int body_exit = sink_block(loop);
  int last = body_exit;
  for (int64_t k = 1; k < count_; ++k) {
    const sym::Expr value = sym::add(sym::symbol(var), sym::integer(k * s));
    std::map<int, int> slot_of;
    for (int b : body) {
      std::unique_ptr<ir::ControlFlowBlock> copy = loop.block(b)->clone();
      copy->label += "_" + var + "_" + std::to_string(k);
      replace_symbol(*copy, var, value);
      register_copy(site.sdfg, *copy);
      slot_of[b] = loop.add_block(std::move(copy));
    }
    for (int e : body_edges) {
      ir::InterstateEdge ie = *loop.edge(e);
      ie.src = slot_of[ie.src];
      ie.dst = slot_of[ie.dst];
      ir::ControlFlowRegion holder;
      holder.add_edge(ie);
      replace_symbol(holder, var, value);
      loop.add_edge(*holder.edge(0));
    }
    ir::InterstateEdge link;
    link.src = last;
    link.dst = slot_of[body_entry];
    loop.add_edge(link);
    last = slot_of[body_exit];
  }
  loop.loop_condition.code = h->main_condition;
  loop.update_statement.code = h->main_update;
  ir::relink_parents(loop);

  const int rest_slot = region.add_block(std::move(rest_block));
  for (int e : region.out_edges(loop_slot)) region.edge(e)->src = rest_slot;
  ir::InterstateEdge to_rest;
  to_rest.src = loop_slot;
  to_rest.dst = rest_slot;
  region.add_edge(to_rest);
  ir::relink_parents(region);
  return Status::success();
}

}  // namespace dace::transform
