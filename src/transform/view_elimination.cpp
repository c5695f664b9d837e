#include "transform/view_elimination.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "transform/block_placement.h"
#include "transform/dead_dataflow_elimination.h"

namespace dace::transform {
namespace {

bool equal(sym::Expr a, sym::Expr b) {
  if (!a || !b) return a == b;
  return sym::as_integer(sym::simplify(sym::sub(a, b))) == std::optional<int64_t>(0);
}

const ir::AccessNode* as_access(const ir::Node* n) {
  return n && n->kind == ir::NodeKind::Access ? static_cast<const ir::AccessNode*>(n) : nullptr;
}

// Collects the read tree below edge `e` out of the view: through map entries (OUT_ matching
// IN_) down to the leaves. False for a reader this rewrite does not handle.
bool collect_reads(const ir::State& s, int e, std::vector<int>& edges) {
  edges.push_back(e);
  const ir::DataflowEdge& edge = *s.edge(e);
  const ir::Node& dst = *s.node(edge.dst);
  switch (dst.kind) {
    case ir::NodeKind::Tasklet:
    case ir::NodeKind::Access: return true;
    case ir::NodeKind::MapEntry: {
      if (!edge.dst_conn.starts_with("IN_")) return false;  // a dynamic range input
      const std::string out = "OUT_" + edge.dst_conn.substr(3);
      bool found = false;
      for (int oe : s.out_edges(edge.dst))
        if (s.edge(oe)->src_conn == out) {
          found = true;
          if (!collect_reads(s, oe, edges)) return false;
        }
      return found;
    }
    default: return false;
  }
}

// The offset of view node `v` into its array, when the view can go; nullopt otherwise.
std::optional<BlockPlacement> removable(const ir::SDFG& sdfg, const ir::State& s, int v, int* source,
                                                std::vector<int>* reads) {
  const ir::AccessNode* view = as_access(s.node(v));
  auto dv = sdfg.arrays.find(view->data);
  if (dv == sdfg.arrays.end() || dv->second.kind != ir::DataKind::View) return std::nullopt;
  const std::vector<int> ins = s.in_edges(v);
  if (ins.size() != 1) return std::nullopt;
  const ir::DataflowEdge& in = *s.edge(ins[0]);
  const ir::AccessNode* src = as_access(s.node(in.src));
  if (!src || !in.src_conn.empty() || in.memlet.is_empty() || !in.memlet.wcr.empty()) return std::nullopt;
  auto da = sdfg.arrays.find(src->data);
  if (da == sdfg.arrays.end() || da->second.kind != ir::DataKind::Array) return std::nullopt;
  const ir::DataDescriptor& V = dv->second;
  const ir::DataDescriptor& A = da->second;
  if (!(V.dtype == A.dtype) || V.storage != A.storage) return std::nullopt;

  // The block of A the view shows, and the part of the view it fills.
  const bool data_is_a = in.memlet.data == src->data;
  if (!data_is_a && in.memlet.data != view->data) return std::nullopt;
  const sym::Subset& a_side = data_is_a ? in.memlet.subset : (in.memlet.other_subset ? *in.memlet.other_subset : in.memlet.subset);
  const sym::Subset& v_side = data_is_a ? (in.memlet.other_subset ? *in.memlet.other_subset : in.memlet.subset) : in.memlet.subset;
  // The view shows a block of A, whole; dimensions of size one may be dropped (a slice such
  // as syrk's `A[0:i+1, k]`), never reshaped, and the kept ones have A's strides.
  if (a_side.rank() != A.rank() || !is_whole(v_side, V.shape) || V.strides.size() != V.rank() ||
      A.strides.size() != A.rank())
    return std::nullopt;
  std::string why;
  std::optional<BlockPlacement> by = place_block(a_side, V.shape, &why);
  if (!by) return std::nullopt;
  for (size_t k = 0; k < A.rank(); ++k)
    if (by->follows[k] >= 0 && !equal(V.strides[static_cast<size_t>(by->follows[k])], A.strides[k])) return std::nullopt;
  for (const sym::Expr& o : V.offset)
    if (!equal(o, sym::integer(0))) return std::nullopt;
  if (!in.dst_conn.empty() && in.dst_conn != "views") return std::nullopt;
  for (int e : s.out_edges(v)) {
    if (!s.edge(e)->src_conn.empty() || !s.edge(e)->memlet.wcr.empty()) return std::nullopt;
    // Without the `views` mark, a view between two access nodes could be viewing either.
    if (in.dst_conn.empty() && as_access(s.node(s.edge(e)->dst))) return std::nullopt;
    if (!collect_reads(s, e, *reads)) return std::nullopt;
  }
  for (int e : *reads) {
    const ir::Memlet& m = s.edge(e)->memlet;
    const bool to_access = as_access(s.node(s.edge(e)->dst)) != nullptr;
    if (m.is_empty()) continue;
    // Offsetting one end of a copy out of the view needs both ends spelled out.
    if (to_access && !m.other_subset) return std::nullopt;
    if (m.data != view->data && !to_access) return std::nullopt;
  }
  *source = in.src;
  return by;
}

// Collects edge `e` into the view and, when it leaves a map exit, the edges into the exit's
// matching IN_ connector, recursively: the memlet tree of one write. False for a writer this
// rewrite does not handle (nested SDFGs and library nodes see the layout).
bool collect_writes(const ir::State& s, int e, std::vector<int>& edges) {
  edges.push_back(e);
  const ir::DataflowEdge& edge = *s.edge(e);
  switch (s.node(edge.src)->kind) {
    case ir::NodeKind::Tasklet:
    case ir::NodeKind::Access: return true;
    case ir::NodeKind::MapExit: {
      if (!edge.src_conn.starts_with("OUT_")) return false;
      const std::string in = "IN_" + edge.src_conn.substr(4);
      bool found = false;
      for (int ie : s.in_edges(edge.src))
        if (s.edge(ie)->dst_conn == in) {
          found = true;
          if (!collect_writes(s, ie, edges)) return false;
        }
      return found;
    }
    default: return false;
  }
}

// The placement of write view node `v` (`writers -> V -> A`, the edge into A marked `views`)
// in its array, when the view can go; nullopt otherwise.
std::optional<BlockPlacement> write_view_removable(const ir::SDFG& sdfg, const ir::State& s, int v, int* target,
                                                   std::vector<int>* writes) {
  const ir::AccessNode* view = as_access(s.node(v));
  auto dv = sdfg.arrays.find(view->data);
  if (dv == sdfg.arrays.end() || dv->second.kind != ir::DataKind::View) return std::nullopt;
  const std::vector<int> outs = s.out_edges(v);
  if (outs.size() != 1) return std::nullopt;
  const ir::DataflowEdge& out = *s.edge(outs[0]);
  const ir::AccessNode* dst = as_access(s.node(out.dst));
  if (!dst || out.src_conn != "views" || !out.dst_conn.empty() || out.memlet.is_empty() || !out.memlet.wcr.empty())
    return std::nullopt;
  auto da = sdfg.arrays.find(dst->data);
  if (da == sdfg.arrays.end() || da->second.kind != ir::DataKind::Array) return std::nullopt;
  const ir::DataDescriptor& V = dv->second;
  const ir::DataDescriptor& A = da->second;
  if (!(V.dtype == A.dtype) || V.storage != A.storage) return std::nullopt;

  const bool data_is_a = out.memlet.data == dst->data;
  if (!data_is_a && out.memlet.data != view->data) return std::nullopt;
  const sym::Subset* other = out.memlet.other_subset ? &*out.memlet.other_subset : &out.memlet.subset;
  const sym::Subset& a_side = data_is_a ? out.memlet.subset : *other;
  const sym::Subset& v_side = data_is_a ? *other : out.memlet.subset;
  if (a_side.rank() != A.rank() || !is_whole(v_side, V.shape) || V.strides.size() != V.rank() ||
      A.strides.size() != A.rank())
    return std::nullopt;
  std::string why;
  std::optional<BlockPlacement> by = place_block(a_side, V.shape, &why);
  if (!by) return std::nullopt;
  for (size_t k = 0; k < A.rank(); ++k)
    if (by->follows[k] >= 0 && !equal(V.strides[static_cast<size_t>(by->follows[k])], A.strides[k])) return std::nullopt;
  for (const sym::Expr& o : V.offset)
    if (!equal(o, sym::integer(0))) return std::nullopt;

  for (int e : s.in_edges(v)) {
    if (!s.edge(e)->dst_conn.empty()) return std::nullopt;
    if (!collect_writes(s, e, *writes)) return std::nullopt;
  }
  for (int e : *writes) {
    const ir::Memlet& m = s.edge(e)->memlet;
    if (m.is_empty()) continue;
    const bool from_access = as_access(s.node(s.edge(e)->src)) != nullptr;
    // Rewriting one end of a copy into the view needs both ends spelled out.
    if (from_access && !m.other_subset) return std::nullopt;
    if (m.data != view->data && !from_access) return std::nullopt;
  }
  *target = out.dst;
  return by;
}

// Access nodes per container over the whole SDFG: a view is removed only where it has one.
std::map<std::string, int> access_node_counts(const ir::SDFG& sdfg) {
  std::map<std::string, int> nodes_of;
  for (const ir::State* s : sdfg.all_states())
    for (int id : s->node_ids())
      if (const ir::AccessNode* a = as_access(s->node(id))) ++nodes_of[a->data];
  return nodes_of;
}

// The memlets of `edges` that named the view (or reached it through other_subset) now
// address `array` at the view's block.
void rebase_onto_array(ir::State& s, const std::vector<int>& edges, const std::string& view_name,
                       const std::string& array, const BlockPlacement& by) {
  for (int e : edges) {
    ir::Memlet& m = s.edge(e)->memlet;
    if (m.is_empty()) continue;
    if (m.data == view_name) {
      m.data = array;
      m.subset = to_big(m.subset, by);
    } else {
      m.other_subset = to_big(*m.other_subset, by);
    }
  }
}

}  // namespace

bool remove_redundant_write_views(ir::SDFG& sdfg) {
  bool changed = false;
  const std::set<std::string> named = control_flow_names(sdfg);
  std::map<std::string, int> nodes_of = access_node_counts(sdfg);
  for (ir::State* s : sdfg.all_states()) {
    for (int v : s->node_ids()) {
      const ir::AccessNode* view = as_access(s->node(v));
      if (!view || nodes_of[view->data] != 1 || named.count(view->data)) continue;
      int target = -1;
      std::vector<int> writes;
      std::optional<BlockPlacement> by = write_view_removable(sdfg, *s, v, &target, &writes);
      if (!by) continue;
      const std::string view_name = view->data;
      rebase_onto_array(*s, writes, view_name, static_cast<const ir::AccessNode*>(s->node(target))->data, *by);
      for (int e : s->in_edges(v)) s->set_edge_ends(e, s->edge(e)->src, target);
      s->remove_node(v);
      sdfg.arrays.erase(view_name);
      changed = true;
    }
  }
  return changed;
}

bool remove_redundant_read_views(ir::SDFG& sdfg) {
  bool changed = false;
  const std::set<std::string> named = control_flow_names(sdfg);
  std::map<std::string, int> nodes_of = access_node_counts(sdfg);
  for (ir::State* s : sdfg.all_states()) {
    for (int v : s->node_ids()) {
      const ir::AccessNode* view = as_access(s->node(v));
      if (!view || nodes_of[view->data] != 1 || named.count(view->data)) continue;
      int source = -1;
      std::vector<int> reads;
      std::optional<BlockPlacement> by = removable(sdfg, *s, v, &source, &reads);
      if (!by) continue;
      const std::string view_name = view->data;
      rebase_onto_array(*s, reads, view_name, static_cast<const ir::AccessNode*>(s->node(source))->data, *by);
      for (int e : s->out_edges(v)) s->set_edge_ends(e, source, s->edge(e)->dst);
      s->remove_node(v);
      sdfg.arrays.erase(view_name);
      changed = true;
    }
  }
  return changed;
}

}  // namespace dace::transform
