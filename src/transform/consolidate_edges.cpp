#include "transform/consolidate_edges.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dace::transform {
namespace {

std::optional<int64_t> difference(sym::Expr a, sym::Expr b) { return sym::as_integer(sym::simplify(sym::sub(a, b))); }

// The bounding box of two subsets of one container, when each pair of bounds differs by an
// integer (so the box is written without Min/Max) and every step is one.
std::optional<sym::Subset> bounding_box(const sym::Subset& x, const sym::Subset& y) {
  if (x.rank() != y.rank()) return std::nullopt;
  sym::Subset out;
  for (size_t k = 0; k < x.rank(); ++k) {
    const sym::Range& rx = x.dims[k];
    const sym::Range& ry = y.dims[k];
    if (difference(rx.step, sym::integer(1)) != 0 || difference(ry.step, sym::integer(1)) != 0) return std::nullopt;
    const std::optional<int64_t> ds = difference(rx.start, ry.start), de = difference(rx.end, ry.end);
    if (!ds || !de) return std::nullopt;
    sym::Range r = rx;
    r.start = *ds <= 0 ? rx.start : ry.start;
    r.end = *de >= 0 ? rx.end : ry.end;
    out.dims.push_back(r);
  }
  return out;
}

sym::Expr volume_of(const ir::Memlet& m) { return m.volume ? m.volume : sym::volume(m.subset); }

// One connector pair of a scope node: the inner edges and the one outer edge.
struct Passage {
  std::string suffix;      // the connector name after IN_ / OUT_
  std::string data;        // the container every edge names
  std::vector<int> inner;  // ascending
  int outer = -1;
};

// Merges the connectors of scope node `scope` (an entry when `entry`, else an exit) that carry
// one container into the first of them; returns how many went.
int consolidate(ir::State& s, int scope, bool entry) {
  const std::string inner_prefix = entry ? "OUT_" : "IN_", outer_prefix = entry ? "IN_" : "OUT_";
  std::vector<Passage> passages;  // in order of their first inner edge
  std::map<std::string, size_t> index;
  std::map<std::string, bool> usable;
  for (int e : entry ? s.out_edges(scope) : s.in_edges(scope)) {
    const ir::DataflowEdge& edge = *s.edge(e);
    const std::string& conn = entry ? edge.src_conn : edge.dst_conn;
    if (!conn.starts_with(inner_prefix)) continue;
    const std::string suffix = conn.substr(inner_prefix.size());
    auto [it, fresh] = index.emplace(suffix, passages.size());
    if (fresh) {
      passages.push_back({suffix, edge.memlet.data, {}, -1});
      usable[suffix] = true;
    }
    Passage& p = passages[it->second];
    p.inner.push_back(e);
    if (edge.memlet.is_empty() || edge.memlet.data != p.data || !edge.memlet.wcr.empty()) usable[suffix] = false;
  }
  for (Passage& p : passages) {
    int count = 0;
    for (int e : entry ? s.in_edges(scope) : s.out_edges(scope)) {
      const ir::DataflowEdge& edge = *s.edge(e);
      if ((entry ? edge.dst_conn : edge.src_conn) == outer_prefix + p.suffix) {
        p.outer = e;
        ++count;
      }
    }
    if (count != 1) {
      usable[p.suffix] = false;
      continue;
    }
    const ir::Memlet& m = s.edge(p.outer)->memlet;
    if (m.is_empty() || m.data != p.data || !m.wcr.empty() || m.other_subset) usable[p.suffix] = false;
  }

  int merged = 0;
  std::map<std::string, size_t> kept;  // container -> passage every later one merges into
  for (size_t i = 0; i < passages.size(); ++i) {
    const Passage& p = passages[i];
    if (!usable[p.suffix]) continue;
    auto k = kept.find(p.data);
    if (k == kept.end()) {
      kept.emplace(p.data, i);
      continue;
    }
    const Passage& into = passages[k->second];
    ir::DataflowEdge& keep = *s.edge(into.outer);
    const ir::DataflowEdge& drop = *s.edge(p.outer);
    // Both outer edges must join the same node at the same connector: nothing outside is lost.
    const bool same_end = entry ? keep.src == drop.src && keep.src_conn == drop.src_conn
                                : keep.dst == drop.dst && keep.dst_conn == drop.dst_conn;
    if (!same_end) continue;
    const std::optional<sym::Subset> box = bounding_box(keep.memlet.subset, drop.memlet.subset);
    if (!box) continue;
    keep.memlet.subset = *box;
    keep.memlet.volume = sym::simplify(sym::add(volume_of(keep.memlet), volume_of(drop.memlet)));
    keep.memlet.dynamic = keep.memlet.dynamic || drop.memlet.dynamic;
    s.remove_edge(p.outer);
    for (int e : p.inner) {
      if (entry) s.edge(e)->src_conn = inner_prefix + into.suffix;
      else s.edge(e)->dst_conn = inner_prefix + into.suffix;
    }
    ir::Node& node = *s.node(scope);
    node.in_connectors.erase("IN_" + p.suffix);
    node.out_connectors.erase("OUT_" + p.suffix);
    ++merged;
  }
  return merged;
}

bool consolidate_sdfg(ir::SDFG& sdfg, AnalysisManager& am) {
  bool changed = false;
  for (ir::State* s : sdfg.all_states()) {
    for (int id : s->node_ids())
      if (s->node(id)->kind == ir::NodeKind::NestedSDFG)
        if (auto& inner = static_cast<ir::NestedSDFGNode*>(s->node(id))->sdfg) changed |= consolidate_sdfg(*inner, am);
    const ScopeTree& tree = am.scope_tree(*s);
    // Innermost scopes first (deeper before shallower, then ascending ids): deterministic.
    std::vector<std::pair<int, int>> entries;  // (-depth, id)
    for (int id : s->node_ids()) {
      if (s->node(id)->kind != ir::NodeKind::MapEntry) continue;
      int depth = 0;
      for (int p = tree.parent[static_cast<size_t>(id)]; p != -1; p = tree.parent[static_cast<size_t>(p)]) ++depth;
      entries.emplace_back(-depth, id);
    }
    std::sort(entries.begin(), entries.end());
    bool here = false;
    for (const auto& [depth, id] : entries) {
      here |= consolidate(*s, id, true) > 0;
      if (const int exit = tree.exit_of(id); exit >= 0) here |= consolidate(*s, exit, false) > 0;
    }
    if (here) am.invalidate(*s, Modifies::Memlets);
    changed |= here;
  }
  return changed;
}

}  // namespace

Result<bool> ConsolidateEdges::apply(ir::SDFG& sdfg, AnalysisManager& am) { return consolidate_sdfg(sdfg, am); }

}  // namespace dace::transform
