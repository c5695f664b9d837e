#include "transform/symbol_ranges.h"

#include <set>
#include <utility>
#include <vector>

#include "ir/entry_block.h"
#include "transform/assigned_symbols.h"

namespace dace::transform {
namespace {

// Right-hand sides deeper than this (a symbol bounded by one bounded by one ...) are unknown.
constexpr int kMaxBoundDepth = 16;

bool is_float(const ir::DType& t) {
  return t.pointer_depth == 0 && (t.scalar == ir::ScalarType::Float32 || t.scalar == ir::ScalarType::Float64 ||
                                  t.scalar == ir::ScalarType::Complex64 || t.scalar == ir::ScalarType::Complex128);
}

// Integer-valued operations only: Python's `/` (a truediv call), comparisons and calls give
// values that are not integers or not ordered by the affine reasoning below.
bool integer_valued(sym::Expr e) {
  switch (e->op) {
    case sym::Op::Integer:
    case sym::Op::Symbol:
      return true;
    case sym::Op::Add:
    case sym::Op::Mul:
    case sym::Op::FloorDiv:
    case sym::Op::CeilDiv:
    case sym::Op::Mod:
    case sym::Op::Min:
    case sym::Op::Max:
      for (sym::Expr a : e->args)
        if (!integer_valued(a)) return false;
      return true;
    case sym::Op::Pow: {
      const std::optional<int64_t> k = sym::as_integer(e->args[1]);
      return k && *k >= 0 && integer_valued(e->args[0]);
    }
    default:
      return false;
  }
}

// Symbols assigned in the body of `loop` (its edges, its blocks at any depth), not counting
// the loop's own header.
std::set<std::string> assigned_in_body(const ir::LoopRegion& loop) {
  std::set<std::string> out;
  for (int e : loop.edge_slots())
    for (const auto& [lhs, rhs] : loop.edge(e)->assignments) out.insert(lhs);
  for (int s : loop.block_slots()) out.merge(assigned_symbols(*loop.block(s)));
  return out;
}

}  // namespace

// Computes one SDFG's entry; a class (a friend of SymbolRanges) to share the collected
// assignments between the steps.
class SymbolRangesBuilder {
 public:
  SymbolRangesBuilder(const ir::SDFG& sdfg, SymbolRanges& out) : sdfg_(sdfg), out_(out) {}

  void run() {
    std::vector<Level> path;
    collect(sdfg_, path);
    SymbolRanges::Table sizes;
    for (const auto& [name, desc] : sdfg_.arrays)
      for (sym::Expr d : desc.shape)
        if (d && d->op == sym::Op::Symbol && invariant(d->name)) sizes[d->name] = {sym::integer(0), nullptr};
    out_.at_[&sdfg_] = sizes;
    walk(sdfg_, sizes);
    // Assigned symbols in name order, so that the tables are built the same way every time.
    // A right-hand side reads the ranges at its edge, which other assignments may add to:
    // repeat until no range gains a side (each round that changes something adds one).
    std::map<std::string, SymbolRange> spread_ranges;
    for (size_t round = 0; round <= edge_assignments_.size(); ++round) {
      bool changed = false;
      for (const auto& [name, where] : edge_assignments_) {
        if (where.size() != 1 || loop_variables_.count(name)) continue;
        const SymbolRange r = assigned_range(where.front());
        SymbolRange& known = spread_ranges[name];
        if ((r.lo != nullptr) == (known.lo != nullptr) && (r.hi != nullptr) == (known.hi != nullptr)) continue;
        known = r;
        changed = true;
        spread(where.front(), name, r);
      }
      if (!changed) break;
    }
  }

 private:
  // Descending from `region` into the block at `slot` (a loop, a region or a conditional
  // whose branch holds the next level).
  struct Level {
    const ir::ControlFlowRegion* region;
    int slot;
  };
  struct Assignment {
    std::vector<Level> path;  // from the SDFG down to the region holding the edge
    const ir::ControlFlowRegion* region;
    int edge;
    std::string rhs;
  };

  void collect(const ir::ControlFlowRegion& r, std::vector<Level>& path) {
    for (int e : r.edge_slots())
      for (const auto& [lhs, rhs] : r.edge(e)->assignments) edge_assignments_[lhs].push_back({path, &r, e, rhs});
    for (int slot : r.block_slots()) {
      const ir::ControlFlowBlock& b = *r.block(slot);
      path.push_back({&r, slot});
      if (b.kind == ir::BlockKind::Loop) {
        ++loop_variables_[static_cast<const ir::LoopRegion&>(b).loop_variable];
        collect(static_cast<const ir::ControlFlowRegion&>(b), path);
      } else if (b.kind == ir::BlockKind::Region) {
        collect(static_cast<const ir::ControlFlowRegion&>(b), path);
      } else if (b.kind == ir::BlockKind::Conditional) {
        for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(b).branches)
          if (branch) collect(*branch, path);
      }
      path.pop_back();
    }
  }

  // A declared integer symbol that nothing in the SDFG assigns: the same value everywhere.
  bool invariant(const std::string& name) const {
    auto it = sdfg_.symbols.find(name);
    return it != sdfg_.symbols.end() && !is_float(it->second) && !sdfg_.arrays.count(name) &&
           !edge_assignments_.count(name) && !loop_variables_.count(name);
  }

  // Symbols (not containers) none of which is in `changing`.
  bool stable(sym::Expr e, const std::set<std::string>& changing) const {
    if (!integer_valued(e)) return false;
    for (const std::string& s : sym::free_symbols(e))
      if (changing.count(s) || sdfg_.arrays.count(s)) return false;
    return true;
  }

  // Fills the tables of the blocks of `r` given `outside` (what holds where `r` runs).
  void walk(const ir::ControlFlowRegion& r, const SymbolRanges::Table& outside) {
    for (int slot : r.block_slots()) {
      const ir::ControlFlowBlock& b = *r.block(slot);
      out_.at_[&b] = outside;
      if (b.kind == ir::BlockKind::Loop) {
        const auto& loop = static_cast<const ir::LoopRegion&>(b);
        walk(loop, inside(loop, outside));
      } else if (b.kind == ir::BlockKind::Region) {
        walk(static_cast<const ir::ControlFlowRegion&>(b), outside);
      } else if (b.kind == ir::BlockKind::Conditional) {
        for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(b).branches) {
          if (!branch) continue;
          out_.at_[branch.get()] = outside;
          walk(*branch, outside);
        }
      }
    }
  }

  // What holds in the body of `loop`: the outer table without what the body (or the header)
  // changes, plus the loop variable's range.
  SymbolRanges::Table inside(const ir::LoopRegion& loop, const SymbolRanges::Table& outside) {
    const std::optional<LoopBounds> lb = loop_bounds(loop);
    out_.loops_[&loop] = lb;
    const std::string& var = loop.loop_variable;
    std::set<std::string> changing = assigned_in_body(loop);
    const bool var_stays = !changing.count(var);
    changing.insert(var);
    SymbolRanges::Table table;
    for (const auto& [name, r] : outside) {
      if (changing.count(name)) continue;
      SymbolRange kept{r.lo && stable(r.lo, changing) ? r.lo : nullptr, r.hi && stable(r.hi, changing) ? r.hi : nullptr};
      if (kept.lo || kept.hi) table[name] = kept;
    }
    if (lb && var_stays) {
      changing.erase(var);  // loop_bounds() has made sure the bounds do not use it
      // Every value the body sees lies between the first value and the last one the
      // condition admits; the step's sign orders them.
      sym::Expr lo = lb->step > 0 ? lb->start : lb->end;
      sym::Expr hi = lb->step > 0 ? lb->end : lb->start;
      SymbolRange r{stable(lo, changing) ? sym::simplify(lo) : nullptr, stable(hi, changing) ? sym::simplify(hi) : nullptr};
      if (r.lo || r.hi) table[var] = r;
    }
    return table;
  }

  // The range of the right-hand side of `a`, in invariant symbols only, given the ranges
  // known where the edge runs; it holds wherever the assigned symbol has that value, however
  // far from the edge (unknown sides are nullptr).
  SymbolRange assigned_range(const Assignment& a) {
    Result<sym::Expr> rhs = sym::parse(a.rhs);
    if (!rhs.ok()) return {};
    const SymbolRanges::Table& there = out_.at(*a.region->block(a.region->edge(a.edge)->src));
    return {bound(*rhs, there, false, 0), bound(*rhs, there, true, 0)};
  }

  // A lower (upper) bound of `e`, in invariant symbols, given the ranges at the place `e` is
  // evaluated; nullptr when there is none. `e` must be affine in the symbols that vary.
  sym::Expr bound(sym::Expr e, const SymbolRanges::Table& there, bool upper, int depth) {
    if (depth > kMaxBoundDepth || !integer_valued(e)) return nullptr;
    std::set<std::string> varying;
    for (const std::string& s : sym::free_symbols(e))
      if (!invariant(s)) varying.insert(s);
    if (varying.empty()) return sym::simplify(e);
    const std::optional<sym::Affine> aff = sym::affine(e, varying);
    if (!aff) return nullptr;
    for (const std::string& s : sym::free_symbols(aff->constant))
      if (!invariant(s)) return nullptr;
    sym::Expr out = aff->constant;
    for (const auto& [v, c] : aff->coefficients) {
      // A positive coefficient takes the variable's bound on the same side, a negative one
      // the other side's.
      const bool want_upper = (c > 0) == upper;
      SymbolRange r;
      if (auto it = there.find(v); it != there.end()) r = it->second;
      const sym::Expr side = want_upper ? r.hi : r.lo;
      if (!side) return nullptr;
      // The variable's bound may use other varying symbols (an outer loop's variable).
      const sym::Expr b = bound(side, there, want_upper, depth + 1);
      if (!b) return nullptr;
      out = sym::add(out, sym::mul(sym::integer(c), b));
    }
    return sym::simplify(out);
  }

  // Adds `name`'s range to every block that runs only after the edge of `a` has run: the
  // blocks of its region that every path from the region's entry reaches through the edge
  // (in a loop body, every iteration enters there, so the first one is covered too); then,
  // while the block holding that region is a plain region that cannot finish without taking
  // the edge, the blocks after it that every path reaches through it. A loop (it may run no
  // iteration) or a branch (it may not be taken) ends the climb. Elsewhere the symbol may
  // hold the value it had before: a caller's argument, a nested SDFG's mapped-in value.
  void spread(const Assignment& a, const std::string& name, const SymbolRange& r) {
    for (int slot : dominated(*a.region, a.edge, -1)) add_deep(*a.region->block(slot), name, r);
    if (!always_taken(*a.region, a.edge)) return;
    for (auto level = a.path.rbegin(); level != a.path.rend(); ++level) {
      // The block holding the region just left; its runs all take the edge only if it is a
      // plain region (that region itself).
      if (level->region->block(level->slot)->kind != ir::BlockKind::Region) return;
      for (int slot : dominated(*level->region, -1, level->slot)) add_deep(*level->region->block(slot), name, r);
      if (!always_taken(*level->region, -1, level->slot)) return;
    }
  }

  // The blocks of `region` reached from its entry without taking edge `skip_edge` or entering
  // block `skip_block` (-1: none).
  static std::set<int> reached_without(const ir::ControlFlowRegion& region, int skip_edge, int skip_block) {
    std::set<int> seen;
    const int entry = ir::entry_block(region);
    if (entry < 0 || entry == skip_block) return seen;
    std::vector<int> todo{entry};
    while (!todo.empty()) {
      const int slot = todo.back();
      todo.pop_back();
      if (!seen.insert(slot).second) continue;
      for (int e : region.out_edges(slot)) {
        const int dst = region.edge(e)->dst;
        if (e != skip_edge && dst != skip_block) todo.push_back(dst);
      }
    }
    return seen;
  }

  // The blocks of `region` that every path from its entry reaches only through edge
  // `through_edge` or, when that is -1, after block `through_block` (not the block itself).
  static std::vector<int> dominated(const ir::ControlFlowRegion& region, int through_edge, int through_block) {
    const std::set<int> all = reached_without(region, -1, -1);
    const std::set<int> around = reached_without(region, through_edge, through_block);
    std::vector<int> out;
    for (int slot : all)
      if (!around.count(slot) && slot != through_block) out.push_back(slot);
    return out;
  }

  // Whether every run of `region` takes edge `through_edge` (or passes block `through_block`):
  // no block where the region can end (one without out-edges) is reached around it.
  static bool always_taken(const ir::ControlFlowRegion& region, int through_edge, int through_block = -1) {
    if (ir::entry_block(region) < 0) return false;
    for (int slot : reached_without(region, through_edge, through_block))
      if (region.out_edges(slot).empty()) return false;
    return true;
  }

  void add_deep(const ir::ControlFlowBlock& b, const std::string& name, const SymbolRange& r) {
    out_.at_[&b][name] = r;
    if (b.kind == ir::BlockKind::Loop || b.kind == ir::BlockKind::Region) {
      const auto& region = static_cast<const ir::ControlFlowRegion&>(b);
      for (int s : region.block_slots()) add_deep(*region.block(s), name, r);
    } else if (b.kind == ir::BlockKind::Conditional) {
      for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(b).branches)
        if (branch) add_deep(*branch, name, r);
    }
  }

  const ir::SDFG& sdfg_;
  SymbolRanges& out_;
  std::map<std::string, std::vector<Assignment>> edge_assignments_;
  std::map<std::string, int> loop_variables_;  // how many loops use each variable
};

SymbolRanges SymbolRanges::compute(const ir::SDFG& sdfg) {
  SymbolRanges out;
  SymbolRangesBuilder(sdfg, out).run();
  return out;
}

const SymbolRanges::Table& SymbolRanges::at(const ir::ControlFlowBlock& block) const {
  static const Table kNone;
  auto it = at_.find(&block);
  return it == at_.end() ? kNone : it->second;
}

std::optional<SymbolRange> SymbolRanges::of(const ir::ControlFlowBlock& block, const std::string& symbol) const {
  const Table& t = at(block);
  auto it = t.find(symbol);
  if (it == t.end()) return std::nullopt;
  return it->second;
}

std::optional<LoopBounds> SymbolRanges::loop(const ir::LoopRegion& loop) const {
  auto it = loops_.find(&loop);
  return it == loops_.end() ? loop_bounds(loop) : it->second;
}

}  // namespace dace::transform
