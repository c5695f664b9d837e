#include "transform/redundant_second_array.h"

#include <algorithm>
#include <optional>
#include <set>

#include "transform/block_placement.h"
#include "transform/dead_dataflow_elimination.h"
#include "transform/redundant_copy.h"

namespace dace::transform {
namespace {

const ir::AccessNode* as_access(const ir::Node* n) {
  return n && n->kind == ir::NodeKind::Access ? static_cast<const ir::AccessNode*>(n) : nullptr;
}

// The copy's subsets on the in-array's side and on the out-array's side. Without an other
// subset, the other end is the whole other container (as code generation reads the copy).
struct CopySides {
  sym::Subset in, out;
};

CopySides sides(const ir::Memlet& m, const std::string& in_name, const ir::DataDescriptor& a, const ir::DataDescriptor& b) {
  if (m.data == in_name) return {m.subset, m.other_subset ? *m.other_subset : whole(b.shape)};
  return {m.other_subset ? *m.other_subset : whole(a.shape), m.subset};
}

// Where the out-array's elements live in the in-array, and whether the two layouts agree
// (what nested SDFGs and library nodes, which see strides, need).
struct Placement {
  BlockPlacement block;
  bool identity = false;
};

std::optional<Placement> placement(const CopySides& c, const ir::DataDescriptor& a, const ir::DataDescriptor& b,
                                   std::string* why) {
  if (c.in.rank() != a.rank() || !is_whole(c.out, b.shape)) {
    *why = "the copy does not fill the whole out-array";
    return std::nullopt;
  }
  std::optional<BlockPlacement> block = place_block(c.in, b.shape, why);
  if (!block) return std::nullopt;
  Placement p{*block, block->aligned() && a.rank() == b.rank() && a.strides.size() == a.rank() &&
                          b.strides.size() == b.rank()};
  for (size_t k = 0; p.identity && k < a.rank(); ++k)
    p.identity = same_value(a.shape[k], b.shape[k]) && same_value(a.strides[k], b.strides[k]);
  // Two scalars: one element each, no layout to differ in.
  if (a.kind == ir::DataKind::Scalar && b.kind == ir::DataKind::Scalar) p.identity = true;
  return p;
}

// Collects the read tree below edge `e` out of the out-array: through map entries (OUT_
// matching IN_) down to the leaves. False for a reader this rewrite does not handle.
bool collect_reads(const ir::State& s, int e, std::vector<int>& edges, bool* sees_layout) {
  edges.push_back(e);
  const ir::DataflowEdge& edge = *s.edge(e);
  switch (s.node(edge.dst)->kind) {
    case ir::NodeKind::Tasklet:
    case ir::NodeKind::Access: return true;
    case ir::NodeKind::NestedSDFG:
    case ir::NodeKind::Library: *sees_layout = true; return true;
    case ir::NodeKind::MapEntry: {
      if (!edge.dst_conn.starts_with("IN_")) return false;  // a dynamic range input
      const std::string out = "OUT_" + edge.dst_conn.substr(3);
      bool found = false;
      for (int oe : s.out_edges(edge.dst))
        if (s.edge(oe)->src_conn == out) {
          found = true;
          if (!collect_reads(s, oe, edges, sees_layout)) return false;
        }
      return found;
    }
    default: return false;
  }
}

// Whether every path out of `from` runs into `through`.
bool all_paths_pass(const ir::State& s, int from, int through) {
  std::set<int> seen{from};
  std::vector<int> stack{from};
  while (!stack.empty()) {
    const int n = stack.back();
    stack.pop_back();
    const std::vector<int> outs = s.out_edges(n);
    if (outs.empty()) return false;
    for (int e : outs)
      if (const int dst = s.edge(e)->dst; dst != through && seen.insert(dst).second) stack.push_back(dst);
  }
  return true;
}

}  // namespace

void RedundantSecondArray::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  access_copy_matches(state, out);
}

bool RedundantSecondArray::can_apply(const Site& site, const std::vector<int>& nodes) {
  const ir::State& s = site.state;
  const ir::AccessNode* in = as_access(s.node(nodes[0]));
  const ir::AccessNode* out = as_access(s.node(nodes[1]));
  if (!in || !out || nodes[0] == nodes[1]) return refuse("the pattern needs two access nodes");
  if (in->data == out->data) return refuse("both nodes access " + in->data);
  const std::vector<int> ins = s.in_edges(nodes[1]);
  if (ins.size() != 1 || s.edge(ins[0])->src != nodes[0]) return refuse("the copy must be the only edge into " + out->data);
  const ir::DataflowEdge& copy_edge = *s.edge(ins[0]);
  const ir::Memlet& copy = copy_edge.memlet;
  if (copy.is_empty() || !copy.wcr.empty()) return refuse("the copy into " + out->data + " is empty or has a WCR");
  if (!copy_edge.src_conn.empty() || !copy_edge.dst_conn.empty()) return refuse("the copy into " + out->data + " uses connectors");
  if (copy.data != in->data && copy.data != out->data) return refuse("the copy's memlet names neither array");
  if (out->setzero) return refuse(out->data + " is set to zero");

  if (std::string why = copy_pair_problem(site.sdfg, out->data, in->data); !why.empty()) return refuse(why);
  const ir::DataDescriptor& a = site.sdfg.arrays.at(in->data);
  const ir::DataDescriptor& b = site.sdfg.arrays.at(out->data);

  std::string why;
  const std::optional<Placement> p = placement(sides(copy, in->data, a, b), a, b, &why);
  if (!p) return refuse(why + " (" + in->data + " -> " + out->data + ")");

  std::vector<int> reads;
  bool sees_layout = false;
  for (int e : s.out_edges(nodes[1])) {
    if (!s.edge(e)->src_conn.empty()) return refuse(out->data + " is read through a connector");
    if (!collect_reads(s, e, reads, &sees_layout)) return refuse("a read of " + out->data + " is not a plain memlet tree");
  }
  if (sees_layout && !p->identity) return refuse("a nested SDFG or library node reads " + out->data + " and the layouts differ");
  for (int e : reads) {
    const ir::DataflowEdge& edge = *s.edge(e);
    if (!edge.memlet.wcr.empty()) return refuse("a read of " + out->data + " has a WCR");
    if (edge.memlet.is_empty()) continue;
    const bool to_access = as_access(s.node(edge.dst)) != nullptr;
    // Rewriting one end of a copy out of the array needs both ends spelled out.
    if (to_access && !edge.memlet.other_subset) return refuse("a copy out of " + out->data + " has no other subset");
    if (!to_access && edge.memlet.data != out->data) return refuse("a read of " + out->data + " names another container");
  }

  // The readers now read the in-array where they read the copy: no write of its container in
  // this state may fall between the copy and a read.
  const std::set<int> before = reachable_nodes(s, nodes[0], false);
  const std::set<int> after = reachable_nodes(s, nodes[1], true);
  std::vector<int> fences;  // top-level plain access nodes every path out of `out` runs into
  for (int id : after)
    if (const ir::AccessNode* an = as_access(s.node(id)); an && an->data != in->data && site.scopes.parent[static_cast<size_t>(id)] == -1)
      if (auto d = site.sdfg.arrays.find(an->data); d != site.sdfg.arrays.end() && plain_container(d->second) && all_paths_pass(s, nodes[1], id))
        fences.push_back(id);
  for (int id : s.node_ids()) {
    const ir::AccessNode* an = as_access(s.node(id));
    if (!an || an->data != in->data || id == nodes[0] || s.in_edges(id).empty() || before.count(id)) continue;
    const bool fenced = std::any_of(fences.begin(), fences.end(), [&](int f) { return reachable_nodes(s, f, true).count(id) > 0; });
    if (!fenced) return refuse(in->data + " is written in the state where a read of " + out->data + " may see it");
  }
  return true;
}

Status RedundantSecondArray::apply_at(const Site& site, const std::vector<int>& nodes) {
  ir::State& s = site.state;
  const std::string in_name = static_cast<const ir::AccessNode*>(s.node(nodes[0]))->data;
  const std::string out_name = static_cast<const ir::AccessNode*>(s.node(nodes[1]))->data;
  const int copy = s.in_edges(nodes[1])[0];
  std::string why;
  const ir::DataDescriptor& a = site.sdfg.arrays.at(in_name);
  const ir::DataDescriptor& b = site.sdfg.arrays.at(out_name);
  const std::optional<Placement> p = placement(sides(s.edge(copy)->memlet, in_name, a, b), a, b, &why);
  if (!p) return make_error(Code::Internal, "RedundantSecondArray: " + why);

  std::vector<int> reads;
  bool sees_layout = false;
  for (int e : s.out_edges(nodes[1])) collect_reads(s, e, reads, &sees_layout);
  for (int e : reads) {
    ir::Memlet& m = s.edge(e)->memlet;
    if (m.is_empty()) continue;
    if (m.data == out_name) {
      m.data = in_name;
      m.subset = to_big(m.subset, p->block);
    } else {
      m.other_subset = to_big(*m.other_subset, p->block);  // a copy into another container: the read side
    }
  }
  for (int e : s.out_edges(nodes[1])) s.set_edge_ends(e, nodes[0], s.edge(e)->dst);
  s.remove_node(nodes[1]);
  site.sdfg.arrays.erase(out_name);
  if (s.in_edges(nodes[0]).empty() && s.out_edges(nodes[0]).empty()) s.remove_node(nodes[0]);
  return Status::success();
}

}  // namespace dace::transform
