#include "transform/redundant_array.h"

#include <algorithm>
#include <set>

#include "ir/edit.h"
#include "transform/dead_dataflow_elimination.h"
#include "transform/reduce_to_outer_map.h"
#include "transform/redundant_copy.h"

namespace dace::transform {
namespace {

const ir::AccessNode* as_access(const ir::Node* n) {
  return n && n->kind == ir::NodeKind::Access ? static_cast<const ir::AccessNode*>(n) : nullptr;
}

bool equal(sym::Expr a, sym::Expr b) {
  if (!a || !b) return a == b;
  return sym::as_integer(sym::simplify(sym::sub(a, b))) == std::optional<int64_t>(0);
}

bool unit_step(const sym::Range& r) { return equal(r.step, sym::integer(1)); }

// The subsets of the copy edge on the in side and the out side. Without an other subset,
// both ends use the same subset (DaCe's reading of such a copy).
struct CopySides {
  const sym::Subset* in = nullptr;
  const sym::Subset* out = nullptr;
};

CopySides sides(const ir::Memlet& m, const std::string& in_name) {
  const sym::Subset* other = m.other_subset ? &*m.other_subset : &m.subset;
  return m.data == in_name ? CopySides{&m.subset, other} : CopySides{other, &m.subset};
}

// Collects edge `e` and, when it leaves a scope exit, the edges into the exit's matching IN_
// connector, recursively: the memlet tree of one write. False for a shape not rewritten here.
bool collect_tree(const ir::State& s, int e, std::vector<int>& edges) {
  edges.push_back(e);
  const ir::DataflowEdge& edge = *s.edge(e);
  if (!s.node(edge.src)->is_scope_exit()) return true;
  if (!edge.src_conn.starts_with("OUT_")) return false;
  const std::string in = "IN_" + edge.src_conn.substr(4);
  bool found = false;
  for (int ie : s.in_edges(edge.src))
    if (s.edge(ie)->dst_conn == in) {
      found = true;
      if (!collect_tree(s, ie, edges)) return false;
    }
  return found;
}

bool write_tree(const ir::State& s, int node, std::vector<int>& edges) {
  for (int e : s.in_edges(node))
    if (!collect_tree(s, e, edges)) return false;
  return true;
}

void offset(sym::Subset& subset, const std::vector<sym::Expr>& by) {
  for (size_t k = 0; k < subset.dims.size() && k < by.size(); ++k) {
    subset.dims[k].start = sym::simplify(sym::add(subset.dims[k].start, by[k]));
    subset.dims[k].end = sym::simplify(sym::add(subset.dims[k].end, by[k]));
  }
}

// Whether a Reduce library node writes `node` (DaCe turns such a removable copy into a view).
bool writes_reduction(const ir::State& s, int node) {
  for (int e : s.in_edges(node))
    if (is_reduce_node(*s.node(s.edge(e)->src))) return true;
  return false;
}

}  // namespace

void RedundantArray::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  access_copy_matches(state, out);
}

bool RedundantArray::can_apply(const Site& site, const std::vector<int>& nodes) {
  const ir::State& s = site.state;
  const ir::AccessNode* in = as_access(s.node(nodes[0]));
  const ir::AccessNode* out = as_access(s.node(nodes[1]));
  if (!in || !out || nodes[0] == nodes[1]) return refuse("the pattern needs two access nodes");
  if (in->data == out->data) return refuse("both nodes access " + in->data);
  const std::vector<int> outs = s.out_edges(nodes[0]);
  if (outs.size() != 1 || s.edge(outs[0])->dst != nodes[1])
    return refuse("the copy must be the only edge out of " + in->data);
  const ir::Memlet& copy = s.edge(outs[0])->memlet;
  if (copy.is_empty() || !copy.wcr.empty()) return refuse("the copy is empty or has a WCR");
  if (copy.data != in->data && copy.data != out->data) return refuse("the copy's memlet names neither array");
  if (in->setzero) return refuse(in->data + " is set to zero");

  if (std::string why = copy_pair_problem(site.sdfg, in->data, out->data); !why.empty()) return refuse(why);
  const ir::DataDescriptor& a = site.sdfg.arrays.at(in->data);
  const ir::DataDescriptor& b = site.sdfg.arrays.at(out->data);

  // The copy takes all of `in` and puts it, unchanged in extent, into a block of `out`.
  const CopySides c = sides(copy, in->data);
  if (c.in->rank() != a.rank() || c.out->rank() != a.rank()) return refuse("the copy changes the rank");
  bool identity = b.rank() == a.rank();
  for (size_t k = 0; k < a.rank(); ++k) {
    const sym::Range& ri = c.in->dims[k];
    const sym::Range& ro = c.out->dims[k];
    if (!unit_step(ri) || !unit_step(ro)) return refuse("the copy has a step");
    if (!equal(ri.start, sym::integer(0)) || !equal(ri.end, sym::sub(a.shape[k], sym::integer(1))))
      return refuse("the copy reads only part of " + in->data);
    if (!equal(sym::sub(ro.end, ro.start), sym::sub(a.shape[k], sym::integer(1))))
      return refuse("the copy writes a block of another extent");
    identity = identity && equal(ro.start, sym::integer(0)) && equal(a.shape[k], b.shape[k]) &&
               k < a.strides.size() && k < b.strides.size() && equal(a.strides[k], b.strides[k]);
  }

  std::vector<int> tree;
  if (!write_tree(s, nodes[0], tree)) return refuse("a write into " + in->data + " is not a plain memlet tree");
  for (int e : tree) {
    const ir::DataflowEdge& edge = *s.edge(e);
    if (!edge.memlet.wcr.empty()) return refuse("a write into " + in->data + " has a WCR");
    if (edge.memlet.is_empty()) continue;
    const ir::Node& src = *s.node(edge.src);
    if (src.kind == ir::NodeKind::NestedSDFG || src.kind == ir::NodeKind::Library) {
      if (!identity) return refuse("a nested SDFG or library node writes " + in->data + " and the layouts differ");
    } else if (src.kind == ir::NodeKind::Access && !edge.memlet.other_subset) {
      // Offsetting one end of a copy needs both ends spelled out.
      return refuse("a copy into " + in->data + " has no other subset");
    } else if (src.kind != ir::NodeKind::Access && edge.memlet.data != in->data) {
      return refuse("a write into " + in->data + " names another container");
    }
  }

  // The producers must not read `out`: walk back from `in` over the computations that write
  // it. A top-level access node of another plain container ends the walk: whatever precedes it
  // has finished before it is read, so a read of `out` there (gemm's `beta * C` before
  // `C = tmp`) is over before the producers now write `out`. Views, nodes inside scopes and
  // nodes with WCR edges do not order anything (DaCe's simplify_state drops them too).
  auto orders = [&](int id, const ir::AccessNode& an) {
    if (site.scopes.parent[static_cast<size_t>(id)] != -1) return false;
    auto d = site.sdfg.arrays.find(an.data);
    if (d == site.sdfg.arrays.end() || !plain_container(d->second)) return false;
    for (int e : s.in_edges(id))
      if (!s.edge(e)->memlet.wcr.empty()) return false;
    for (int e : s.out_edges(id))
      if (!s.edge(e)->memlet.wcr.empty()) return false;
    return true;
  };
  std::set<int> seen{nodes[0]};
  std::vector<int> stack{nodes[0]};
  while (!stack.empty()) {
    const int n = stack.back();
    stack.pop_back();
    for (int e : s.in_edges(n)) {
      const int src = s.edge(e)->src;
      if (!seen.insert(src).second) continue;
      if (const ir::AccessNode* an = as_access(s.node(src))) {
        if (an->data == out->data) return refuse(out->data + " is accessed before " + in->data + " is written");
        if (orders(src, *an)) continue;
      }
      stack.push_back(src);
    }
  }
  // Another access of `out` unordered with the copy could meet the producers' writes anywhere
  // in their run rather than at the copy (DaCe refuses these too).
  std::set<int> related = reachable_nodes(s, nodes[1], true);
  related.merge(reachable_nodes(s, nodes[1], false));
  for (int id : s.node_ids())
    if (const ir::AccessNode* an = as_access(s.node(id)); an && id != nodes[1] && an->data == out->data && !related.count(id))
      return refuse(out->data + " has an access node unordered with the copy");
  return true;
}

Status RedundantArray::apply_at(const Site& site, const std::vector<int>& nodes) {
  ir::State& s = site.state;
  const std::string in_name = static_cast<const ir::AccessNode*>(s.node(nodes[0]))->data;
  const std::string out_name = static_cast<const ir::AccessNode*>(s.node(nodes[1]))->data;
  const int copy = s.out_edges(nodes[0])[0];

  // A reduction writing `in`: DaCe keeps the node and makes `in` a view of `out` (its
  // _make_view), rather than pointing the reduction's memlet at `out`.
  if (writes_reduction(s, nodes[0])) {
    ir::DataDescriptor& d = site.sdfg.arrays.at(in_name);
    const ir::DataDescriptor& o = site.sdfg.arrays.at(out_name);
    d.kind = ir::DataKind::View;
    d.json_type = "ArrayView";
    d.transient = true;
    d.storage = o.storage;
    d.may_alias = o.may_alias;
    d.lifetime = ir::Lifetime::Scope;
    ir::ensure_connector(*s.node(nodes[0]), true, "views");
    ir::DataflowEdge& e = *s.edge(copy);
    e.src_conn = "views";
    return Status::success();
  }
  const CopySides c = sides(s.edge(copy)->memlet, in_name);
  std::vector<sym::Expr> by;
  for (const sym::Range& r : c.out->dims) by.push_back(r.start);

  std::vector<int> tree;
  write_tree(s, nodes[0], tree);
  for (int e : tree) {
    ir::Memlet& m = s.edge(e)->memlet;
    if (m.data == in_name) {
      m.data = out_name;
      offset(m.subset, by);
    } else if (m.other_subset) {
      offset(*m.other_subset, by);  // a copy from another container: the in side is the other subset
    }
  }
  for (int e : s.in_edges(nodes[0])) s.set_edge_ends(e, s.edge(e)->src, nodes[1]);
  s.remove_node(nodes[0]);
  site.sdfg.arrays.erase(in_name);
  return Status::success();
}

}  // namespace dace::transform
