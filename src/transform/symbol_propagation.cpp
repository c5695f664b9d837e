#include "transform/symbol_propagation.h"

#include <optional>
#include <set>
#include <vector>

#include "ir/entry_block.h"
#include "ir/tasklet/substitute.h"
#include "transform/block_order.h"

namespace dace::transform {
namespace {

using Table = SymbolTable;

// Names a value reads; nullopt when it does not parse.
std::optional<std::set<std::string>> reads(const std::string& text) {
  auto e = tasklet::parse_expression_cached(text);
  if (!e) return std::nullopt;
  return tasklet::names_read(**e);
}

// What leaves `src` (its table) along `e`: the edge's assignments replace older values, and
// every value reading a symbol the edge assigns, or data, is dropped.
Table along(const Table& src, const ir::InterstateEdge& e, const ir::SDFG& sdfg) {
  Table t = src;
  std::set<std::string> assigned;
  for (const auto& [lhs, rhs] : e.assignments) {
    assigned.insert(lhs);
    t[lhs] = rhs;
  }
  for (auto& [name, value] : t) {
    if (!value) continue;
    auto r = reads(*value);
    bool drop = !r;
    if (r)
      for (const std::string& n : *r) drop |= assigned.count(n) > 0 || sdfg.arrays.count(n) > 0;
    if (drop) value = std::nullopt;
  }
  return t;
}

std::map<int, Table> analyse(const ir::SDFG& sdfg) {
  std::map<int, Table> in;  // a state is visited once it has an entry
  const std::vector<int> order = reverse_post_order(sdfg);
  const int start = ir::entry_block(sdfg);
  bool changed = true;
  for (size_t round = 0; changed && round < 4 * order.size() + 8; ++round) {
    changed = false;
    for (int slot : order) {
      std::optional<Table> merged;
      if (slot == start) merged = Table{};
      for (int es : sdfg.in_edges(slot)) {
        const ir::InterstateEdge& e = *sdfg.edge(es);
        auto src = in.find(e.src);
        if (src == in.end()) continue;  // not visited yet: no information (optimistic)
        Table t = along(src->second, e, sdfg);
        if (!merged) {
          merged = std::move(t);
          continue;
        }
        for (auto& [name, value] : *merged) {
          auto it = t.find(name);
          if (it == t.end() || it->second != value) value = std::nullopt;
        }
        for (const auto& [name, value] : t)
          if (!merged->count(name)) (*merged)[name] = std::nullopt;
      }
      if (!merged) continue;
      auto it = in.find(slot);
      if (it == in.end() || it->second != *merged) {
        in[slot] = std::move(*merged);
        changed = true;
      }
    }
  }
  return in;
}

}  // namespace

StateSymbolValues propagated_symbol_values(const ir::SDFG& sdfg) {
  if (!states_only(sdfg)) return {};
  return known_entries(analyse(sdfg));
}

Result<bool> SymbolPropagation::apply(ir::SDFG& sdfg, AnalysisManager&) {
  bool changed = false;
  std::set<std::string> blocked;  // assignments are never removed here: nothing to protect
  for (const auto& [slot, mapping] : propagated_symbol_values(sdfg))
    changed |= rewrite_state_and_out_edges(sdfg, slot, mapping, blocked);
  return changed;
}

}  // namespace dace::transform
