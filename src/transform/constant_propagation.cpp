#include "transform/constant_propagation.h"

#include <optional>
#include <set>
#include <vector>

#include "ir/entry_block.h"
#include "ir/tasklet/printer.h"
#include "ir/tasklet/substitute.h"
#include "transform/block_order.h"
#include "transform/remove_unused_symbols.h"
#include "transform/symbol_use.h"
#include "transform/symbol_values.h"

namespace dace::transform {
namespace {

using Value = SymbolValue;
using Values = SymbolTable;

std::set<std::string> names_in(const std::string& code) {
  auto e = tasklet::parse_expression_cached(code);
  return e ? tasklet::names_read(**e) : identifiers_in(code);
}
std::set<std::string> names_in(const Value& v) { return v ? names_in(*v) : std::set<std::string>{}; }

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// The value of `name = text` under the known values `known`: unknown when it reads `name`
// itself (or does not parse), else the text with the known values substituted.
Value resolve(const std::string& name, const std::string& text, const Values& known) {
  if (is_identifier(text)) {
    auto it = known.find(text);
    if (it != known.end() && it->second) return it->second;
  }
  auto e = tasklet::parse_expression_cached(text);
  if (!e) return std::nullopt;
  if (tasklet::names_read(**e).count(name)) return std::nullopt;
  tasklet::NameValues repl;
  for (const auto& [k, v] : known) {
    if (!v) continue;
    auto p = tasklet::parse_expression_cached(*v);
    if (p) repl.emplace(k, *p);
  }
  return tasklet::to_source(*tasklet::substitute(*e, repl));
}

// DaCe's _propagate: adds `incoming` to `values`, resolving each against what `values` knew.
bool propagate(Values& values, const Values& incoming) {
  if (incoming.empty()) return false;
  Values resolved;
  for (const auto& [k, v] : incoming) resolved[k] = v ? resolve(k, *v, values) : std::nullopt;
  bool changed = false;
  for (auto& [k, v] : resolved) {
    auto it = values.find(k);
    if (it == values.end() || it->second != v) {
      values[k] = v;
      changed = true;
    }
  }
  return changed;
}

// Assignments of an edge; those reading a data container are unknown.
Values data_independent(const ir::InterstateEdge& e, const ir::SDFG& sdfg) {
  Values out;
  for (const auto& [lhs, rhs] : e.assignments) {
    bool reads_data = false;
    for (const std::string& n : names_in(rhs)) reads_data |= sdfg.arrays.count(n) > 0;
    out[lhs] = reads_data ? Value() : Value(rhs);
  }
  return out;
}


std::set<std::string> keys(const std::vector<std::pair<std::string, std::string>>& assignments) {
  std::set<std::string> out;
  for (const auto& [k, v] : assignments) out.insert(k);
  return out;
}

std::set<std::string> descriptor_symbols(const ir::SDFG& sdfg) {
  std::set<std::string> out;
  auto add = [&](sym::Expr e) {
    if (e) out.merge(sym::free_symbols(e));
  };
  for (const auto& [name, d] : sdfg.arrays) {
    for (const auto* v : {&d.shape, &d.strides, &d.offset})
      for (sym::Expr e : *v) add(e);
    add(d.total_size);
    add(d.start_offset);
    add(d.buffer_size);
  }
  return out;
}

void substitute_descriptors(ir::SDFG& sdfg, const std::map<std::string, sym::Expr>& values) {
  auto sub = [&](sym::Expr& e) {
    if (e) e = sym::substitute(e, values);
  };
  for (auto& [name, d] : sdfg.arrays) {
    for (auto* v : {&d.shape, &d.strides, &d.offset})
      for (sym::Expr& e : *v) sub(e);
    sub(d.total_size);
    sub(d.start_offset);
    sub(d.buffer_size);
  }
}

// DaCe's collect_constants: the values every state is entered with, to a fixed point.
// `initial`: the values the SDFG starts with (a nested SDFG's constant symbol mapping).
std::map<int, Values> collect(const ir::SDFG& sdfg, const Values& initial) {
  std::map<int, Values> result;
  if (!initial.empty())
    if (const int start = ir::entry_block(sdfg); start >= 0) result[start] = initial;
  const std::vector<int> order = reverse_post_order(sdfg);
  // Values settle after a few rounds; the cap guards against texts that would never settle.
  const size_t cap = 8 * (order.size() + 1) * (sdfg.symbols.size() + 8);
  bool redo = true;
  for (size_t round = 0; redo && round < cap; ++round) {
    redo = false;
    for (int slot : order) {
      Values assignments;
      for (int es : sdfg.in_edges(slot)) {
        const ir::InterstateEdge& e = *sdfg.edge(es);
        Values constants;
        auto src = result.find(e.src);
        if (src != result.end()) constants = src->second;
        propagate(constants, data_independent(e, sdfg));
        const std::set<std::string> assigned = keys(e.assignments);
        for (const auto& [name, value] : constants) {
          bool conflict = false;
          auto prev = assignments.find(name);
          if (prev != assignments.end() && prev->second != value) conflict = true;
          for (const std::string& n : names_in(value)) conflict |= assigned.count(n) > 0;
          assignments[name] = conflict ? Value() : value;
        }
      }
      for (int es : sdfg.out_edges(slot)) {
        const ir::InterstateEdge& e = *sdfg.edge(es);
        const std::set<std::string> assigned = keys(e.assignments);
        // A value read by this edge's assignments whose own inputs the edge reassigns: the
        // two sides of the edge would disagree on it.
        for (auto& [name, value] : assignments) {
          std::set<std::string> reassigned, users;
          for (const std::string& n : names_in(value))
            if (assigned.count(n)) reassigned.insert(n);
          if (reassigned.empty()) continue;
          for (const auto& [lhs, rhs] : e.assignments)
            if (names_in(rhs).count(name) && !reassigned.count(lhs)) users.insert(lhs);
          if (!users.empty()) value = std::nullopt;
        }
      }
      redo |= propagate(result[slot], assignments);
    }
  }
  return result;
}

}  // namespace

StateSymbolValues known_symbol_values(const ir::SDFG& sdfg) {
  if (!states_only(sdfg)) return {};
  return known_entries(collect(sdfg, {}));
}

namespace {

// One SDFG (DaCe's apply_pass with initial_symbols); adds to `removed` the symbols propagated
// everywhere and dropped from the SDFG. True when anything changed.
bool propagate_in(ir::SDFG& sdfg, const Values& initial, std::set<std::string>& removed) {
  bool any_assignment = false;
  for (int es : sdfg.edge_slots()) any_assignment |= !sdfg.edge(es)->assignments.empty();
  if (initial.empty() && !any_assignment) return false;

  const std::map<int, Values> per_state = collect(sdfg, initial);

  // Symbols sizing descriptors must have one value everywhere.
  const std::set<std::string> desc_syms = descriptor_symbols(sdfg);
  std::set<std::string> multivalue;
  std::map<std::string, Value> first_seen;
  for (const auto& [slot, values] : per_state)
    for (const auto& [k, v] : values) {
      if (!desc_syms.count(k)) continue;
      auto [it, fresh] = first_seen.emplace(k, v);
      if (!v || (!fresh && it->second != v)) multivalue.insert(k);
    }

  std::map<std::string, std::string> replaced;
  std::set<std::string> unknown, blocked;
  bool changed = false;
  for (const auto& [slot, values] : per_state) {
    std::map<std::string, std::string> mapping;
    for (const auto& [k, v] : values) {
      if (!v || multivalue.count(k))
        unknown.insert(k);
      else
        mapping.emplace(k, *v);
    }
    if (mapping.empty()) continue;
    for (const auto& [k, v] : mapping) replaced[k] = v;
    changed |= rewrite_state_and_out_edges(sdfg, slot, mapping, blocked);
  }

  // Symbols never unknown and rewritten wherever they occur: their assignments are dead.
  std::map<std::string, sym::Expr> desc_values;
  std::set<std::string> settled;
  for (const auto& [k, v] : replaced) {
    if (unknown.count(k) || blocked.count(k)) continue;
    if (desc_syms.count(k)) {
      auto e = sym::parse(v);
      if (!e) continue;
      desc_values.emplace(k, *e);
    }
    settled.insert(k);
  }
  if (!desc_values.empty()) {
    substitute_descriptors(sdfg, desc_values);
    changed = true;
  }
  for (int es : sdfg.edge_slots()) {
    auto& as = sdfg.edge(es)->assignments;
    const size_t before = as.size();
    std::erase_if(as, [&](const auto& a) { return settled.count(a.first) > 0; });
    changed |= as.size() != before;
  }
  if (!settled.empty()) {
    // A mapped symbol is the parent's to drop (from the mapping) once it is unused here.
    const std::set<std::string> used = used_symbols(sdfg, /*with_parent_mapping=*/false);
    for (const std::string& k : settled)
      if (!used.count(k) && sdfg.symbols.erase(k)) {
        removed.insert(k);
        changed = true;
      }
  }
  return changed;
}

// DaCe's recursion (property `recursive`): every nested SDFG in a state of `sdfg` starts with
// the symbols its mapping sets to constants (after `sdfg`'s own values went into the mapping);
// a symbol propagated everywhere inside leaves the mapping. Nested SDFGs whose control flow
// is not states only are left alone, as is the root's.
bool propagate_tree(ir::SDFG& sdfg, const Values& initial, std::set<std::string>& removed_here) {
  if (!states_only(sdfg)) return false;
  bool changed = propagate_in(sdfg, initial, removed_here);
  for (int slot : sdfg.block_slots()) {
    auto& s = static_cast<ir::State&>(*sdfg.block(slot));
    for (int id : s.node_ids()) {
      if (s.node(id)->kind != ir::NodeKind::NestedSDFG) continue;
      auto& n = static_cast<ir::NestedSDFGNode&>(*s.node(id));
      if (!n.sdfg) continue;
      Values constants;
      for (const auto& [k, v] : n.symbol_mapping)
        if (v && sym::free_symbols(v).empty()) constants[k] = sym::to_string(v);
      std::set<std::string> removed;
      changed |= propagate_tree(*n.sdfg, constants, removed);
      for (const std::string& k : removed) changed |= n.symbol_mapping.erase(k) > 0;
    }
  }
  return changed;
}

}  // namespace

Result<bool> ConstantPropagation::apply(ir::SDFG& sdfg, AnalysisManager&) {
  std::set<std::string> removed;
  if (!recursive_) return states_only(sdfg) && propagate_in(sdfg, {}, removed);
  return propagate_tree(sdfg, {}, removed);
}

}  // namespace dace::transform
