#include "transform/loop_privatization.h"

#include <map>
#include <set>
#include <vector>

#include "analysis/memlet_propagation.h"
#include "analysis/sets.h"
#include "transform/analysis_manager.h"
#include "transform/assigned_symbols.h"
#include "transform/block_order.h"
#include "transform/symbol_use.h"

namespace dace::transform {
namespace {

using Written = std::vector<sym::Subset>;

Written forget(const Written& w, const std::set<std::string>& assigned) {
  Written out;
  for (const sym::Subset& s : w) {
    bool uses = false;
    for (const std::string& name : free_symbols(s)) uses = uses || assigned.count(name);
    if (!uses) out.push_back(s);
  }
  return out;
}

bool covers(const sym::Subset& w, const sym::Subset& r) {
  // One iteration gives every symbol one value, but which one is unknown: any sign.
  sym::Assumptions as;
  for (const sym::Subset* s : {&w, &r}) as.unrestricted.merge(free_symbols(*s));
  return analysis::subset_covers(w, r, as) == true;
}

// The exact image of `inner` (a point per dimension) over the map's iterations, when each
// dimension is `p + c` of a distinct unit-step parameter or free of the parameters.
std::optional<sym::Subset> exact_image(const sym::Subset& inner, const ir::MapScope& map) {
  std::set<std::string> used;
  sym::Subset out;
  for (const sym::Range& d : inner.dims) {
    if (d.start != d.end) {
      for (const std::string& p : map.params)
        if (sym::free_symbols(d.start).count(p) || sym::free_symbols(d.end).count(p)) return std::nullopt;
      out.dims.push_back(d);
      continue;
    }
    std::optional<sym::Affine> a = sym::affine(d.start, std::set<std::string>(map.params.begin(), map.params.end()));
    if (!a) return std::nullopt;
    if (a->coefficients.empty()) {
      out.dims.push_back(d);
      continue;
    }
    if (a->coefficients.size() != 1) return std::nullopt;
    const auto& [p, coef] = *a->coefficients.begin();
    if (coef != 1 || !used.insert(p).second) return std::nullopt;
    size_t k = 0;
    while (k < map.params.size() && map.params[k] != p) ++k;
    const sym::Range& pr = map.range.dims[k];
    if (sym::as_integer(pr.step) != std::optional<int64_t>(1)) return std::nullopt;
    out.dims.push_back(sym::Range{sym::add(pr.start, a->constant), sym::add(pr.end, a->constant), sym::integer(1),
                                  sym::integer(1)});
  }
  return out;
}

bool plain(const ir::Memlet& m) { return !m.is_empty() && !m.dynamic && m.wcr.empty(); }

// The subset of `data` an edge touches at the access node of `data` (nullopt: unknown).
std::optional<sym::Subset> side(const ir::Memlet& m, const std::string& data) {
  if (m.data == data) return m.subset;
  if (m.other_subset) return *m.other_subset;
  return std::nullopt;
}

Written written_by_nested(const ir::NestedSDFGNode& ns, const std::string& conn, const ir::Memlet& m,
                          const ir::DataDescriptor& outer);

// What the in-edges of access node `n` write for certain, in the node's own terms.
Written definite_writes(const ir::State& s, int n, const std::string& data, const ir::DataDescriptor& desc) {
  Written out;
  for (int e : s.in_edges(n)) {
    const ir::DataflowEdge& de = *s.edge(e);
    if (!plain(de.memlet)) continue;
    std::optional<sym::Subset> sub = side(de.memlet, data);
    if (!sub) continue;
    const ir::Node& src = *s.node(de.src);
    switch (src.kind) {
      case ir::NodeKind::Tasklet:
      case ir::NodeKind::Library:
        out.push_back(*sub);
        break;
      case ir::NodeKind::Access:
        if (de.src_conn != "views" && de.dst_conn != "views") out.push_back(*sub);  // a view link is an alias
        break;
      case ir::NodeKind::MapExit: {
        if (de.src_conn.rfind("OUT_", 0) != 0) break;
        const std::string in = "IN_" + de.src_conn.substr(4);
        const auto& entry = static_cast<const ir::MapEntry&>(*s.node(static_cast<const ir::MapExit&>(src).entry));
        for (int ie : s.in_edges(de.src)) {
          const ir::DataflowEdge& inner = *s.edge(ie);
          if (inner.dst_conn != in || !plain(inner.memlet) || s.node(inner.src)->kind != ir::NodeKind::Tasklet) continue;
          std::optional<sym::Subset> isub = side(inner.memlet, data);
          if (!isub) continue;
          if (std::optional<sym::Subset> img = exact_image(*isub, entry.map)) out.push_back(*img);
        }
        break;
      }
      case ir::NodeKind::NestedSDFG: {
        Written w = written_by_nested(static_cast<const ir::NestedSDFGNode&>(src), de.src_conn, de.memlet, desc);
        out.insert(out.end(), w.begin(), w.end());
        break;
      }
      default:
        break;
    }
  }
  return out;
}

struct Coverage {
  const std::string& data;
  const ir::DataDescriptor& desc;
  std::string& why;
  bool check_reads = true;  // false: only learn what is written for certain
  Written at_end;           // what the region's single sink block leaves written

  bool covered(const sym::Subset& r, const Written& a, const Written& b) {
    for (const Written* w : {&a, &b})
      for (const sym::Subset& s : *w)
        if (covers(s, r)) return true;
    return false;
  }

  bool state(const ir::State& s, const Written& before, Written& after) {
    after = before;
    const std::vector<int>& parents = s.scope_parents();
    for (int n : s.node_ids()) {
      if (s.node(n)->kind != ir::NodeKind::Access || static_cast<const ir::AccessNode&>(*s.node(n)).data != data)
        continue;
      const Written defs = definite_writes(s, n, data, desc);
      const bool top = parents[static_cast<size_t>(n)] == -1;
      bool from_outside = false;  // an inner node fed from its scope's entry holds outer values
      for (int e : s.in_edges(n)) from_outside = from_outside || s.node(s.edge(e)->src)->is_scope_entry();
      if (from_outside && !top) continue;
      for (int e : check_reads ? s.out_edges(n) : std::vector<int>{}) {
        const ir::DataflowEdge& de = *s.edge(e);
        if (de.memlet.is_empty()) continue;
        std::optional<sym::Subset> r = side(de.memlet, data);
        if (!r || !covered(*r, defs, top ? before : Written{})) {
          why += "a read in state '" + s.label + "' that no earlier write of the same iteration covers";
          return false;
        }
      }
      if (top) after.insert(after.end(), defs.begin(), defs.end());
    }
    return true;
  }

  bool region(const ir::ControlFlowRegion& r, const Written& entry) {
    std::optional<std::vector<int>> order = topological_blocks(r);
    if (!order) return why += "the blocks of '" + r.label + "' form a cycle", false;
    std::map<int, Written> out;
    for (int b : *order) {
      const std::vector<int> ins = r.in_edges(b);
      Written w;
      if (ins.empty()) {
        w = entry;
      } else if (ins.size() == 1) {
        const ir::InterstateEdge& e = *r.edge(ins.front());
        std::set<std::string> lhs;
        for (const auto& [k, v] : e.assignments) lhs.insert(k);
        w = forget(out[e.src], lhs);
      }
      const ir::ControlFlowBlock& blk = *r.block(b);
      Written after = w;
      switch (blk.kind) {
        case ir::BlockKind::State:
          if (!state(static_cast<const ir::State&>(blk), w, after)) return false;
          break;
        case ir::BlockKind::Loop:
        case ir::BlockKind::Region: {
          // Writes inside may not happen (zero iterations); they are forgotten after it.
          after = forget(w, assigned_symbols(blk));
          if (!region(static_cast<const ir::ControlFlowRegion&>(blk), after)) return false;
          break;
        }
        case ir::BlockKind::Conditional:
          after = forget(w, assigned_symbols(blk));
          for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(blk).branches)
            if (branch && !region(*branch, after)) return false;
          break;
        default:
          break;
      }
      out[b] = std::move(after);
    }
    // The region ends at its one block without out-edges (several: nothing is certain).
    at_end.clear();
    int sinks = 0;
    for (int b : *order)
      if (r.out_edges(b).empty()) ++sinks, at_end = out[b];
    if (sinks != 1) at_end.clear();
    return true;
  }
};

// What a nested SDFG writes for certain through output `conn`, in the outer container's
// terms: only when the edge passes the whole outer container to an inner container of the
// same shape (inner indices are outer indices), and only writes whose subsets use nothing
// but symbols the node maps from outside.
Written written_by_nested(const ir::NestedSDFGNode& ns, const std::string& conn, const ir::Memlet& m,
                          const ir::DataDescriptor& outer) {
  if (!ns.sdfg || m.other_subset) return {};
  auto it = ns.sdfg->arrays.find(conn);
  if (it == ns.sdfg->arrays.end() || it->second.kind != outer.kind) return {};
  const ir::DataDescriptor& inner = it->second;
  if (!(m.subset == analysis::whole_subset(outer)) || inner.shape.size() != outer.shape.size()) return {};
  for (size_t d = 0; d < inner.shape.size(); ++d)
    if (sym::substitute(inner.shape[d], ns.symbol_mapping) != outer.shape[d]) return {};
  std::string ignored;
  Coverage c{conn, inner, ignored, false, {}};
  if (!c.region(*ns.sdfg, {})) return {};
  Written out;
  for (const sym::Subset& w : c.at_end) {
    bool mapped = true;
    for (const std::string& f : free_symbols(w)) mapped = mapped && ns.symbol_mapping.count(f);
    if (!mapped) continue;
    sym::Subset o = w;
    for (sym::Range& r : o.dims)
      for (sym::Expr* e : {&r.start, &r.end, &r.step, &r.tile}) *e = sym::substitute(*e, ns.symbol_mapping);
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace

bool inside(const ir::ControlFlowBlock& block, const ir::ControlFlowRegion& region) {
  for (const ir::ControlFlowBlock* b = &block; b; b = b->parent)
    if (b == &region) return true;
  return false;
}

bool named_by_control_flow(const ir::ControlFlowRegion& region, const std::string& name) {
  for (int es : region.edge_slots()) {
    const ir::InterstateEdge& e = *region.edge(es);
    if (mentions(e.condition.code, name)) return true;
    for (const auto& [lhs, rhs] : e.assignments)
      if (lhs == name || mentions(rhs, name)) return true;
  }
  for (int slot : region.block_slots()) {
    const ir::ControlFlowBlock& b = *region.block(slot);
    if (b.kind == ir::BlockKind::Loop) {
      const auto& l = static_cast<const ir::LoopRegion&>(b);
      for (const ir::CodeBlock* c : {&l.init_statement, &l.loop_condition, &l.update_statement})
        if (mentions(c->code, name)) return true;
    }
    if (b.kind == ir::BlockKind::Loop || b.kind == ir::BlockKind::Region) {
      if (named_by_control_flow(static_cast<const ir::ControlFlowRegion&>(b), name)) return true;
    } else if (b.kind == ir::BlockKind::Conditional) {
      for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(b).branches) {
        if (cond && mentions(cond->code, name)) return true;
        if (branch && named_by_control_flow(*branch, name)) return true;
      }
    }
  }
  return false;
}

bool privatizable(const ir::SDFG& sdfg, const ir::LoopRegion& loop, const std::string& data, AnalysisManager& am,
                  std::string& why) {
  why = "'" + data + "' is written and read in the body and cannot be privatized: ";
  auto it = sdfg.arrays.find(data);
  if (it == sdfg.arrays.end()) return why += "undeclared", false;
  const ir::DataDescriptor& d = it->second;
  if (!d.transient || (d.kind != ir::DataKind::Array && d.kind != ir::DataKind::Scalar) ||
      d.lifetime != ir::Lifetime::Scope)
    return why += "not a scope-lifetime transient array or scalar", false;
  for (const ir::State* s : sdfg.all_states())
    if (!inside(*s, loop) && am.access_sets(*s).present.count(data))
      return why += "state '" + s->label + "' outside the loop uses it", false;
  if (named_by_control_flow(sdfg, data)) return why += "control flow names it", false;
  Coverage c{data, d, why, true, {}};
  return c.region(loop, {});
}

}  // namespace dace::transform
