#include "transform/map_fusion_util.h"

#include <algorithm>

#include "transform/reduce_to_outer_map.h"
#include "transform/symbol_use.h"

#include <set>

namespace dace::transform::map_fusion {

std::optional<std::map<std::string, std::string>> parameter_remapping(const ir::MapScope& first,
                                                                      const ir::MapScope& second) {
  const size_t n = first.params.size();
  if (second.params.size() != n || first.range.dims.size() != n || second.range.dims.size() != n) return std::nullopt;
  std::vector<char> first_used(n, 0), second_done(n, 0);
  // Same name, same range: nothing to rename.
  for (size_t s = 0; s < n; ++s)
    for (size_t f = 0; f < n; ++f)
      if (!first_used[f] && first.params[f] == second.params[s] && first.range.dims[f] == second.range.dims[s]) {
        first_used[f] = second_done[s] = 1;
        break;
      }
  std::map<std::string, std::string> out;
  // The rest in order, so that the result is deterministic and keeps the parameter order
  // when it can (DaCe's rule; `T[i, j]` vs `T[k, l]` over equal ranges pairs i-k, j-l).
  for (size_t s = 0; s < n; ++s) {
    if (second_done[s]) continue;
    bool found = false;
    for (size_t f = 0; f < n && !found; ++f) {
      if (first_used[f] || !(first.range.dims[f] == second.range.dims[s])) continue;
      first_used[f] = 1;
      out[second.params[s]] = first.params[f];
      found = true;
    }
    if (!found) return std::nullopt;
  }
  return out;
}

const sym::Subset* subset_of(const ir::Memlet& m, const std::string& data) {
  if (m.data == data) return &m.subset;
  if (m.other_subset) return &*m.other_subset;
  return nullptr;
}
sym::Subset* subset_of(ir::Memlet& m, const std::string& data) {
  return const_cast<sym::Subset*>(subset_of(static_cast<const ir::Memlet&>(m), data));
}

sym::Subset substitute(const sym::Subset& s, const std::map<std::string, sym::Expr>& values) {
  sym::Subset out = s;
  for (sym::Range& r : out.dims) {
    if (r.start) r.start = sym::substitute(r.start, values);
    if (r.end) r.end = sym::substitute(r.end, values);
    if (r.step) r.step = sym::substitute(r.step, values);
    if (r.tile) r.tile = sym::substitute(r.tile, values);
  }
  return out;
}

std::map<std::string, sym::Expr> as_symbols(const std::map<std::string, std::string>& rename) {
  std::map<std::string, sym::Expr> out;
  for (const auto& [from, to] : rename) out[from] = sym::symbol(to);
  return out;
}

bool reachable(const ir::State& state, int from, int to) {
  std::vector<char> seen(static_cast<size_t>(state.node_slots()), 0);
  std::vector<int> stack{from};
  while (!stack.empty()) {
    const int n = stack.back();
    stack.pop_back();
    if (n == to) return true;
    if (n < 0 || n >= state.node_slots() || seen[static_cast<size_t>(n)]) continue;
    seen[static_cast<size_t>(n)] = 1;
    for (int e : state.out_edges(n)) stack.push_back(state.edge(e)->dst);
  }
  return false;
}

bool accessed_downstream(const ir::State& state, int except, const std::string& data) {
  std::vector<char> seen(static_cast<size_t>(state.node_slots()), 0);
  std::vector<int> stack;
  for (int e : state.out_edges(except)) stack.push_back(state.edge(e)->dst);
  while (!stack.empty()) {
    const int n = stack.back();
    stack.pop_back();
    if (n < 0 || n >= state.node_slots() || seen[static_cast<size_t>(n)]) continue;
    seen[static_cast<size_t>(n)] = 1;
    const ir::Node* node = state.node(n);
    if (n != except && node && node->kind == ir::NodeKind::Access &&
        static_cast<const ir::AccessNode*>(node)->data == data)
      return true;
    for (int e : state.out_edges(n)) stack.push_back(state.edge(e)->dst);
  }
  return false;
}

namespace {

bool region_mentions(const ir::ControlFlowRegion& region, const std::string& data) {
  for (int e : region.edge_slots()) {
    const ir::InterstateEdge& edge = *region.edge(e);
    if (mentions(edge.condition.code, data)) return true;
    for (const auto& [lhs, rhs] : edge.assignments)
      if (lhs == data || mentions(rhs, data)) return true;
  }
  return false;
}

}  // namespace

bool used_elsewhere(const ir::SDFG& sdfg, const ir::State& state, int except, const std::string& data) {
  bool used = region_mentions(sdfg, data);
  sdfg.for_each_block([&](const ir::ControlFlowBlock& b) {
    if (used) return;
    switch (b.kind) {
      case ir::BlockKind::State: {
        const auto& s = static_cast<const ir::State&>(b);
        for (int id : s.node_ids()) {
          if (&s == &state && id == except) continue;
          const ir::Node* n = s.node(id);
          if (n->kind == ir::NodeKind::Access && static_cast<const ir::AccessNode*>(n)->data == data) used = true;
        }
        break;
      }
      case ir::BlockKind::Loop: {
        const auto& l = static_cast<const ir::LoopRegion&>(b);
        used = mentions(l.init_statement.code, data) || mentions(l.loop_condition.code, data) ||
               mentions(l.update_statement.code, data) || region_mentions(l, data);
        break;
      }
      case ir::BlockKind::Conditional:
        for (const auto& [cond, body] : static_cast<const ir::ConditionalBlock&>(b).branches) {
          if (cond && mentions(cond->code, data)) used = true;
          if (body && region_mentions(*body, data)) used = true;
        }
        break;
      case ir::BlockKind::Region:
        used = region_mentions(static_cast<const ir::ControlFlowRegion&>(b), data);
        break;
      default:
        break;
    }
  });
  return used;
}

std::string fresh_connector(const ir::Node& node, const std::string& base) {
  auto taken = [&](const std::string& x) {
    return node.in_connectors.count("IN_" + x) || node.out_connectors.count("OUT_" + x);
  };
  if (!taken(base)) return base;
  for (int i = 1;; ++i)
    if (!taken(base + "_" + std::to_string(i))) return base + "_" + std::to_string(i);
}

std::string fresh_data_name(const ir::SDFG& sdfg, const std::string& base) {
  if (!sdfg.arrays.count(base) && !sdfg.symbols.count(base)) return base;
  for (int i = 0;; ++i) {
    const std::string name = base + "_" + std::to_string(i);
    if (!sdfg.arrays.count(name) && !sdfg.symbols.count(name)) return name;
  }
}

sym::Assumptions any_iteration(const std::vector<std::string>& params) {
  sym::Assumptions a;
  a.unrestricted.insert(params.begin(), params.end());
  return a;
}

bool is_view(const ir::DataDescriptor& d) {
  return d.kind == ir::DataKind::View || d.kind == ir::DataKind::Reference;
}

std::string node_name(const ir::State& state, int id) {
  const ir::Node* n = state.node(id);
  if (n && n->kind == ir::NodeKind::Access)
    return "access node " + std::to_string(id) + " (" + static_cast<const ir::AccessNode*>(n)->data + ")";
  return std::string(n ? ir::to_string(n->kind) : "node") + " " + std::to_string(id) +
         (n && !n->label.empty() ? " (" + n->label + ")" : "");
}

std::string renaming_problem(const ir::State& state, const ScopeTree& scopes, const ir::MapScope& first,
                             int second_entry, int second_exit, const std::map<std::string, std::string>& rename) {
  // After fusion the second body sits where the first map's parameters are defined: a name
  // of the first map that the second body uses for something else would be captured.
  const auto& second = static_cast<const ir::MapEntry*>(state.node(second_entry))->map;
  std::set<std::string> targets(first.params.begin(), first.params.end());
  std::set<std::string> own(second.params.begin(), second.params.end());
  const std::vector<int> body = scopes.scope_nodes(second_entry);
  std::vector<int> edges = state.out_edges(second_entry);
  for (int e : state.in_edges(second_exit)) edges.push_back(e);
  for (int n : body)
    for (int e : state.out_edges(n)) edges.push_back(e);
  std::set<std::string> used;
  for (int e : edges) {
    std::set<std::string> s = free_symbols(state.edge(e)->memlet);
    used.insert(s.begin(), s.end());
  }
  for (int n : body) {
    const ir::Node& node = *state.node(n);
    for (const std::string& p : targets)
      if (!own.count(p) && node_code_mentions(node, p))
        return "the code of " + node_name(state, n) + " uses \"" + p + "\", a parameter of the first map";
    for (const auto& [from, to] : rename)
      if (node_code_mentions(node, from))
        return "parameter \"" + from + "\" of the second map occurs in the code of " + node_name(state, n) +
               "; renaming it to \"" + to + "\" is not supported";
    if (node.kind == ir::NodeKind::MapEntry) {
      const auto& inner = static_cast<const ir::MapEntry&>(node).map;
      for (const std::string& p : inner.params)
        if (targets.count(p) || own.count(p)) return "inner map " + node_name(state, n) + " redefines parameter \"" + p + "\"";
      for (const std::string& s : free_symbols(inner.range)) used.insert(s);
    } else if (node.kind == ir::NodeKind::NestedSDFG) {
      // A nested SDFG sees outer symbols only through its symbol mapping (its inside is its
      // own namespace), so renaming rewrites the mapping's values and nothing inside.
      for (const auto& [inner, outer] : static_cast<const ir::NestedSDFGNode&>(node).symbol_mapping)
        if (outer)
          for (const std::string& s : sym::free_symbols(outer)) used.insert(s);
    } else if (node.kind != ir::NodeKind::Tasklet && node.kind != ir::NodeKind::Access &&
               node.kind != ir::NodeKind::MapExit && !is_reduce_node(node) && !rename.empty()) {
      // (A Reduce names no symbol outside its memlets, which rename_scope rewrites.)
      return "renaming parameters inside " + node_name(state, n) + " is not supported";
    }
  }
  for (const std::string& p : targets)
    if (!own.count(p) && used.count(p))
      return "the second map uses the symbol \"" + p + "\", which is a parameter of the first map";
  return {};
}

}  // namespace dace::transform::map_fusion
