#include "transform/loop_detection.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "ir/entry_block.h"
#include "ir/sdfg.h"
#include "ir/state.h"
#include "transform/cfg_list.h"
#include "transform/loop_variable_use.h"
#include "transform/symbol_use.h"

namespace dace::transform {
namespace {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// Without parentheses that enclose the whole text (`((a < b))` -> `a < b`, but `(a) and (b)`
// stays as it is).
std::string strip_parens(std::string s) {
  for (;;) {
    s = trim(s);
    if (s.size() < 2 || s.front() != '(' || s.back() != ')') return s;
    int depth = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
      if (depth == 0 && i + 1 < s.size()) return s;  // the first '(' closes before the end
    }
    s = s.substr(1, s.size() - 2);
  }
}

std::string without_spaces(const std::string& s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}

// A break, continue or return that would act on a loop around `b` once `b` is inside a new
// LoopRegion (break/continue inside a nested loop act on that loop; a return acts anywhere).
bool escapes(const ir::ControlFlowBlock& b, bool inside_loop) {
  switch (b.kind) {
    case ir::BlockKind::Return:
      return true;
    case ir::BlockKind::Break:
    case ir::BlockKind::Continue:
      return !inside_loop;
    case ir::BlockKind::Loop:
    case ir::BlockKind::Region: {
      const auto& r = static_cast<const ir::ControlFlowRegion&>(b);
      for (int s : r.block_slots())
        if (escapes(*r.block(s), inside_loop || b.kind == ir::BlockKind::Loop)) return true;
      return false;
    }
    case ir::BlockKind::Conditional:
      for (const auto& [cond, region] : static_cast<const ir::ConditionalBlock&>(b).branches)
        if (region && escapes(*region, inside_loop)) return true;
      return false;
    case ir::BlockKind::State:
    case ir::BlockKind::SDFG:
      return false;  // nested SDFGs are functions of their own
  }
  return true;
}

// Blocks reached from `from` without passing through `guard` (`from` included).
std::set<int> reach_without(const ir::ControlFlowRegion& region, int from, int guard) {
  std::set<int> seen{from};
  std::vector<int> stack{from};
  while (!stack.empty()) {
    const int b = stack.back();
    stack.pop_back();
    for (int es : region.out_edges(b)) {
      const int d = region.edge(es)->dst;
      if (d != guard && seen.insert(d).second) stack.push_back(d);
    }
  }
  return seen;
}

std::optional<ForLoop> refuse(std::string* why, const char* reason) {
  if (why) *why = reason;
  return std::nullopt;
}

const std::string* assigned(const ir::InterstateEdge& e, const std::string& name) {
  for (const auto& [k, v] : e.assignments)
    if (k == name) return &v;
  return nullptr;
}

// Whether `value` reads a symbol that another assignment of `e` (not `var`'s) sets: those are
// moved before the loop statement, so the statement would see the new value.
bool reads_other_assignment(const ir::InterstateEdge& e, const std::string& var, const std::string& value) {
  for (const auto& [k, v] : e.assignments)
    if (k != var && mentions(value, k)) return true;
  return false;
}

}  // namespace

bool is_negation(const std::string& negated, const std::string& c) {
  const std::string n = strip_parens(negated);
  if (n.size() < 4 || n.compare(0, 3, "not") != 0 || !(n[3] == '(' || std::isspace(static_cast<unsigned char>(n[3]))))
    return false;
  // `not` binds tighter than `and`/`or`: `not (a) and (b)` negates `a` only. Unless the
  // operand is one parenthesized expression, it must not contain those operators.
  const std::string operand = trim(n.substr(3));
  if (strip_parens(operand) == operand) {
    const std::set<std::string> ids = identifiers_in(operand);
    for (const char* op : {"and", "or", "if", "lambda"})
      if (ids.count(op)) return false;
  }
  return without_spaces(strip_parens(operand)) == without_spaces(strip_parens(c));
}

std::optional<ForLoop> detect_for_loop(const ir::ControlFlowRegion& region, int guard, std::string* why) {
  const ir::ControlFlowBlock* g = region.block(guard);
  if (!g || g->kind != ir::BlockKind::State) return refuse(why, "the guard is not a state");
  // Dataflow in the guard runs before every condition check; a LoopRegion has no place for it.
  if (!static_cast<const ir::State*>(g)->node_ids().empty()) return refuse(why, "the guard has dataflow");
  const int entry = ir::entry_block(region);
  if (entry < 0 || entry == guard) return refuse(why, "the guard is the region's entry, or the entry is ambiguous");
  const std::vector<int> outs = region.out_edges(guard);
  const std::vector<int> ins = region.in_edges(guard);
  if (outs.size() != 2 || ins.size() != 2) return refuse(why, "the guard does not have two in- and two out-edges");

  ForLoop L;
  L.guard = guard;
  // The init edge comes from a block the entry reaches without the guard; the back edge from
  // one only reachable through the guard (the guard dominates it). Reachability from the
  // guard's branches alone cannot tell them apart: in a nested loop the exit branch of the
  // inner guard reaches the inner init edge again through the outer loop.
  const std::set<int> before = reach_without(region, entry, guard);
  for (int es : ins) (before.count(region.edge(es)->src) ? L.init_edge : L.back_edge) = es;
  if (L.back_edge < 0 || L.init_edge < 0) return refuse(why, "not one init edge and one back edge");
  std::set<int> body;
  for (size_t k = 0; k < 2; ++k) {
    const int d = region.edge(outs[k])->dst;
    if (d == guard) return refuse(why, "the guard loops on itself");
    std::set<int> r = reach_without(region, d, guard);
    if (!r.count(region.edge(L.back_edge)->src)) continue;
    if (L.body_edge >= 0) return refuse(why, "both guard branches reach the back edge");
    L.body_edge = outs[k];
    L.exit_edge = outs[1 - k];
    body = std::move(r);
  }
  if (L.body_edge < 0) return refuse(why, "no guard branch reaches the back edge");
  if (body.count(region.edge(L.exit_edge)->dst)) return refuse(why, "the exit is part of the body");

  const ir::InterstateEdge& body_e = *region.edge(L.body_edge);
  const ir::InterstateEdge& exit_e = *region.edge(L.exit_edge);
  const ir::InterstateEdge& init_e = *region.edge(L.init_edge);
  const ir::InterstateEdge& back_e = *region.edge(L.back_edge);
  if (!is_negation(exit_e.condition.code, body_e.condition.code) &&
      !is_negation(body_e.condition.code, exit_e.condition.code))
    return refuse(why, "the exit condition is not the negated loop condition");
  if (body_e.condition.language != ir::Language::Python) return refuse(why, "the condition is not Python");
  if (!body_e.assignments.empty()) return refuse(why, "the body edge has assignments");
  if (!back_e.is_unconditional()) return refuse(why, "the back edge is conditional");
  L.latch = back_e.src;
  if (region.out_edges(L.latch).size() != 1) return refuse(why, "the latch has other out-edges");

  for (int b : body) {
    if (escapes(*region.block(b), false)) return refuse(why, "the body has break, continue or return");
    for (int es : region.in_edges(b))
      if (es != L.body_edge && !body.count(region.edge(es)->src))
        return refuse(why, "the body is entered from outside");
    for (int es : region.out_edges(b))
      if (es != L.back_edge && !body.count(region.edge(es)->dst))
        return refuse(why, "the body is left other than through the guard");
  }
  if (region.start_block >= 0 && body.count(region.start_block)) return refuse(why, "the region starts in the body");

  // The loop variable: set on both edges and read by the condition.
  std::vector<std::string> candidates;
  for (const auto& [k, v] : back_e.assignments)
    if (assigned(init_e, k) && mentions(body_e.condition.code, k)) candidates.push_back(k);
  if (candidates.size() != 1) return refuse(why, "no unique loop variable set on the init and back edges");
  L.variable = candidates.front();
  if (read_after_exit(region, L.exit_edge, L.variable)) return refuse(why, "the loop variable is read after the loop");
  L.init_value = *assigned(init_e, L.variable);
  L.update_value = *assigned(back_e, L.variable);
  if (reads_other_assignment(init_e, L.variable, L.init_value) ||
      reads_other_assignment(back_e, L.variable, L.update_value))
    return refuse(why, "the init or update reads a symbol set on the same edge");
  L.condition = body_e.condition.code;
  L.body.assign(body.begin(), body.end());
  return L;
}

}  // namespace dace::transform
