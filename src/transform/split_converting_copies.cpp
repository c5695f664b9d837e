#include "transform/split_converting_copies.h"

#include "transform/element_map.h"
#include "transform/device_storage.h"
#include "ir/symbolic/expr.h"

namespace dace::transform {
namespace {

bool runs_backwards(const ir::DataDescriptor& d) {
  for (const sym::Expr& st : d.strides)
    if (std::optional<int64_t> v = st ? sym::as_integer(sym::simplify(st)) : std::nullopt; v && *v < 0) return true;
  return false;
}


// A converting copy between two device containers as a GPU_Device map whose tasklet converts
// each element (the dimensions of size one on either side squeezed, the others paired in
// order; their sizes must agree). Whether it did.
bool copy_as_kernel(ir::State& s, int e, const sym::Subset& src_subset, const sym::Subset& dst_subset,
                    const std::string& from, const std::string& to) {
  const ir::DataflowEdge edge = *s.edge(e);
  const std::vector<sym::Expr> src_sizes = sym::size(src_subset), dst_sizes = sym::size(dst_subset);
  std::vector<size_t> src_dims, dst_dims;
  for (size_t d = 0; d < src_sizes.size(); ++d)
    if (!has_unit_extent(src_sizes[d])) src_dims.push_back(d);
  for (size_t d = 0; d < dst_sizes.size(); ++d)
    if (!has_unit_extent(dst_sizes[d])) dst_dims.push_back(d);
  if (src_dims.size() != dst_dims.size()) return false;
  for (size_t k = 0; k < src_dims.size(); ++k)
    if (sym::compare(sym::simplify(src_sizes[src_dims[k]]), sym::simplify(dst_sizes[dst_dims[k]])) != 0) return false;
  ir::MapScope map;
  map.schedule = ir::ScheduleType::GPU_Device;
  std::vector<sym::Expr> src_index, dst_index;
  for (const sym::Range& r : src_subset.dims) src_index.push_back(r.start);
  for (const sym::Range& r : dst_subset.dims) dst_index.push_back(r.start);
  for (size_t k = 0; k < src_dims.size(); ++k) {
    const std::string p = "__conv" + std::to_string(e) + "_" + std::to_string(k);
    map.params.push_back(p);
    map.range.dims.push_back({sym::integer(0), sym::sub(src_sizes[src_dims[k]], sym::integer(1)), sym::integer(1), sym::integer(1)});
    src_index[src_dims[k]] = sym::add(src_index[src_dims[k]], sym::symbol(p));
    dst_index[dst_dims[k]] = sym::add(dst_index[dst_dims[k]], sym::symbol(p));
  }
  if (map.params.empty()) {  // one element: a one-point kernel
    map.params.push_back("__conv" + std::to_string(e));
    map.range.dims.push_back({sym::integer(0), sym::integer(0), sym::integer(1), sym::integer(1)});
  }
  auto whole = [](const std::string& data, const sym::Subset& subset) {
    ir::Memlet m;
    m.data = data;
    m.subset = subset;
    return m;
  };
  s.remove_edge(e);
  add_element_map(s, "convert_" + from + "_to_" + to, std::move(map), "__out = __inp",
                  ElementMapEnd{edge.src, edge.src_conn, whole(from, src_subset), element_memlet(from, src_index)},
                  ElementMapEnd{edge.dst, edge.dst_conn, whole(to, dst_subset), element_memlet(to, dst_index)});
  return true;
}

// Splits copy edge `e` of `s` when it converts between host and device; whether it did.
bool split(ir::SDFG& sdfg, ir::State& s, int e) {
  const ir::DataflowEdge edge = *s.edge(e);
  if (edge.memlet.is_empty() || !edge.memlet.wcr.empty()) return false;
  const ir::Node* src = s.node(edge.src);
  const ir::Node* dst = s.node(edge.dst);
  if (src->kind != ir::NodeKind::Access || dst->kind != ir::NodeKind::Access) return false;
  const std::string from = static_cast<const ir::AccessNode*>(src)->data, to = static_cast<const ir::AccessNode*>(dst)->data;
  const ir::DataDescriptor& a = sdfg.arrays.at(from);
  const ir::DataDescriptor& b = sdfg.arrays.at(to);
  if (!in_device_memory(a.storage) && !in_device_memory(b.storage)) return false;
  // A host array running backwards (a negative stride) cannot be copied by the runtime, which
  // copies rows of bytes forwards: the host rearranges it through the staging transient.
  const bool backwards = runs_backwards(in_device_memory(a.storage) ? b : a);
  if (a.dtype == b.dtype && !(backwards && in_device_memory(a.storage) != in_device_memory(b.storage))) return false;
  if (a.kind == ir::DataKind::View || b.kind == ir::DataKind::View || a.kind == ir::DataKind::Reference ||
      b.kind == ir::DataKind::Reference)
    return false;
  // The subsets of each end: the memlet's own on the container it names, the other subset
  // (or the same one) on the other end.
  const bool names_src = edge.memlet.data == from;
  const sym::Subset& own = edge.memlet.subset;
  const sym::Subset& other = edge.memlet.other_subset ? *edge.memlet.other_subset : edge.memlet.subset;
  const sym::Subset src_subset = names_src ? own : other, dst_subset = names_src ? other : own;
  if (in_device_memory(a.storage) && in_device_memory(b.storage)) return copy_as_kernel(s, e, src_subset, dst_subset, from, to);
  // The host transient mirrors the device side: its type, shape and strides, host storage.
  const bool to_device = in_device_memory(b.storage);
  const std::string name = add_host_mirror(sdfg, to_device ? to : from, "_staged");
  auto node = std::make_unique<ir::AccessNode>();
  node->data = name;
  node->label = name;
  const int mid = s.add_node(std::move(node));
  auto copy = [](const std::string& data, const sym::Subset& subset, const sym::Subset& other) {
    ir::Memlet m;
    m.data = data;
    m.subset = subset;
    if (!(other == subset)) m.other_subset = other;
    return m;
  };
  s.remove_edge(e);
  // The converting copy stays on the host; the plain one crosses between memories with the
  // device side's subset on both ends.
  if (to_device) {
    s.add_edge(ir::DataflowEdge{edge.src, mid, edge.src_conn, "", copy(from, src_subset, dst_subset)});
    s.add_edge(ir::DataflowEdge{mid, edge.dst, "", edge.dst_conn, copy(name, dst_subset, dst_subset)});
  } else {
    s.add_edge(ir::DataflowEdge{edge.src, mid, edge.src_conn, "", copy(from, src_subset, src_subset)});
    s.add_edge(ir::DataflowEdge{mid, edge.dst, "", edge.dst_conn, copy(name, src_subset, dst_subset)});
  }
  return true;
}

}  // namespace

Result<bool> SplitConvertingCopies::apply(ir::SDFG& sdfg, AnalysisManager&) {
  bool changed = false;
  for (ir::State* s : sdfg.all_states()) {
    const std::vector<int> parents = s->scope_parents();
    for (int e : s->edge_ids())
      if (parents[s->edge(e)->src] < 0 && parents[s->edge(e)->dst] < 0 && split(sdfg, *s, e)) changed = true;
  }
  return changed;
}

}  // namespace dace::transform
