// Access nodes: a view is bound to the memory it views; edges between data (access node to
// access node, or through a scope entry/exit into/out of a scope-local container) copy the
// memlet's subset element by element (LLVM turns contiguous loops into memcpy).
#include "codegen/addressing.h"
#include "codegen/loops.h"
#include "codegen/node_emit.h"
#include "codegen/target_lowering.h"
#include "codegen/stream_queue.h"
#include "codegen/wcr.h"
#include "plugin/interfaces.h"
#include "plugin/registry.h"

namespace dace::codegen {

namespace {

struct Side {
  std::string data;
  sym::Subset subset;
};

// The containers at both ends of a data-to-data edge and their subsets.
Result<std::pair<Side, Side>> copy_sides(StateEmitter& se, int edge_id) {
  const ir::DataflowEdge* e = se.state.edge(edge_id);
  std::string src = se.access_data(se.path_source(edge_id));
  std::string dst = se.access_data(se.path_sink(edge_id));
  if (src.empty() || dst.empty())
    return make_error(Code::InvalidSdfg, se.where_edge(edge_id) + ": copy without data at both ends");
  const ir::Memlet& m = e->memlet;
  bool data_is_src;
  if (m.data == src && m.data != dst) data_is_src = true;
  else if (m.data == dst && m.data != src) data_is_src = false;
  else data_is_src = m.is_data_src.value_or(true);
  Side s{src, {}}, d{dst, {}};
  const sym::Subset* other = m.other_subset ? &*m.other_subset : nullptr;
  auto desc = [&](const std::string& n) -> const ir::DataDescriptor* {
    Result<DataBinding> b = se.f->data(n);
    return b ? b->desc : nullptr;
  };
  const ir::DataDescriptor* sd = desc(src);
  const ir::DataDescriptor* dd = desc(dst);
  if (!sd || !dd) return make_error(Code::InvalidSdfg, se.where_edge(edge_id) + ": copied data is not available");
  if (data_is_src) {
    s.subset = m.subset.rank() ? m.subset : full_subset(*sd);
    d.subset = other ? *other : full_subset(*dd);
  } else {
    d.subset = m.subset.rank() ? m.subset : full_subset(*dd);
    s.subset = other ? *other : full_subset(*sd);
  }
  return std::make_pair(s, d);
}

// Non-unit dimensions of a subset.
std::vector<size_t> nonunit_dims(const std::vector<sym::Expr>& sizes) {
  std::vector<size_t> out;
  for (size_t i = 0; i < sizes.size(); ++i)
    if (!is_one(sizes[i])) out.push_back(i);
  return out;
}

// A copy in host code from or to a plugin's storage (device memory): the plugin that
// registered a copy for the ordered storage pair emits it (target_lowering.h: CopyContext).
Status emit_target_copy(StateEmitter& se, int edge_id, const Side& src, const DataBinding& sb, const Side& dst,
                        const DataBinding& db) {
  Frame& f = *se.f;
  const std::string where = se.where_edge(edge_id);
  const std::string from = ir::to_string(sb.desc->storage), to = ir::to_string(db.desc->storage);
  const plugin::Registry* registry = f.mc.options.registry;
  std::shared_ptr<const plugin::CopyLowering> copy = registry ? registry->find_copy(from, to) : nullptr;
  if (!copy)
    return make_error(Code::Unsupported, where + ": no plugin lowers copies from " + from + " (\"" + src.data +
                                             "\") to " + to + " (\"" + dst.data + "\") in host code");
  CopyContext ctx(f, where, src.data, sb, src.subset, dst.data, db, dst.subset);
  ctx.wcr = !se.state.edge(edge_id)->memlet.wcr.empty();
  ctx.se = &se;
  ctx.edge = edge_id;
  return copy->lower_copy(ctx);
}

Status emit_copy(StateEmitter& se, int edge_id) {
  Frame& f = *se.f;
  const ir::DataflowEdge* e = se.state.edge(edge_id);
  Result<std::pair<Side, Side>> sides = copy_sides(se, edge_id);
  if (!sides) return sides.take_error();
  auto& [src, dst] = *sides;
  // The same container on both sides (an access node inside a scope naming the outer data):
  // nothing moves.
  if (src.data == dst.data && (!e->memlet.other_subset || src.subset == dst.subset)) return Status::success();
  Result<DataBinding> sb = f.data(src.data);
  if (!sb) return sb.take_error();
  Result<DataBinding> db = f.data(dst.data);
  if (!db) return db.take_error();
  if (!is_device_code(f) && (!is_host_storage(sb->desc->storage) || !is_host_storage(db->desc->storage)))
    return emit_target_copy(se, edge_id, src, *sb, dst, *db);
  if (ir::struct_layout(sb->desc->dtype) || ir::struct_layout(db->desc->dtype))
    return make_error(Code::Unsupported, se.where_edge(edge_id) + ": copies of struct elements (" +
                                             ir::to_string(sb->desc->dtype) + ") cannot be compiled yet");
  if (sb->desc->kind == ir::DataKind::Stream || db->desc->kind == ir::DataKind::Stream) {
    if (!e->memlet.wcr.empty())
      return make_error(Code::Unsupported, se.where_edge(edge_id) + ": copies to or from streams cannot resolve write conflicts");
    Status s = emit_stream_copy(f, *sb, src.subset, *db, dst.subset);
    if (!s.ok()) return make_error(s.error().code, se.where_edge(edge_id) + ": " + s.error().message);
    return Status::success();
  }
  std::optional<Wcr> wcr;
  if (!e->memlet.wcr.empty()) {
    Result<Wcr> w = parse_wcr(e->memlet.wcr);
    if (!w) return w.take_error();
    wcr = *w;
  }
  bool atomic = wcr && f.parallel_context && !db->thread_local_storage && !e->memlet.wcr_nonatomic;

  std::vector<sym::Expr> ssz = sym::size(src.subset), dsz = sym::size(dst.subset);
  std::vector<size_t> sdims = nonunit_dims(ssz), ddims = nonunit_dims(dsz);
  Result<std::vector<llvm::Value*>> sstart = subset_start(f, src.subset);
  if (!sstart) return sstart.take_error();
  Result<std::vector<llvm::Value*>> dstart = subset_start(f, dst.subset);
  if (!dstart) return dstart.take_error();
  auto steps = [&](const sym::Subset& s) -> Result<std::vector<llvm::Value*>> {
    std::vector<llvm::Value*> out;
    for (const sym::Range& r : s.dims) {
      Result<llvm::Value*> v = f.sym(r.step);
      if (!v) return v.take_error();
      out.push_back(*v);
    }
    return out;
  };
  Result<std::vector<llvm::Value*>> sstep = steps(src.subset), dstep = steps(dst.subset);
  if (!sstep) return sstep.take_error();
  if (!dstep) return dstep.take_error();

  auto element = [&](const DataBinding& b, std::vector<llvm::Value*> idx) { return element_pointer(f, b, idx); };
  auto move = [&](llvm::Value* from, llvm::Value* to) -> Status {
    TypedValue v = load_scalar(f.b, from, sb->desc->dtype.scalar);
    if (wcr) return emit_wcr_update(f, *wcr, to, v, db->desc->dtype.scalar, atomic);
    store_scalar(f.b, convert_typed(f.b, v, db->desc->dtype.scalar), to);
    return Status::success();
  };

  bool same_shape = sdims.size() == ddims.size();
  if (same_shape) {
    for (size_t i = 0; i < sdims.size(); ++i)
      if (sym::simplify(sym::sub(ssz[sdims[i]], dsz[ddims[i]])) != sym::integer(0)) same_shape = false;
  }
  if (same_shape) {
    // Nested loops over the common (squeezed) shape.
    std::vector<CountedLoop> loops;
    std::vector<llvm::Value*> si = *sstart, di = *dstart;
    for (size_t i = 0; i < sdims.size(); ++i) {
      Result<llvm::Value*> n = f.sym(ssz[sdims[i]]);
      if (!n) return n.take_error();
      loops.push_back(begin_loop(f.b, f.b.getInt64(0), *n, "copy"));
      llvm::Value* k = loops.back().iv;
      si[sdims[i]] = add_index(f.b, (*sstart)[sdims[i]], mul_index(f.b, k, (*sstep)[sdims[i]]));
      di[ddims[i]] = add_index(f.b, (*dstart)[ddims[i]], mul_index(f.b, k, (*dstep)[ddims[i]]));
    }
    Result<llvm::Value*> from = element(*sb, si);
    if (!from) return from.take_error();
    Result<llvm::Value*> to = element(*db, di);
    if (!to) return to.take_error();
    DACE_TRY(move(*from, *to));
    for (size_t i = loops.size(); i-- > 0;) end_loop(f.b, loops[i]);
    return Status::success();
  }
  // Different shapes of equal volume (reshapes): one flat loop, row-major on both sides.
  Result<llvm::Value*> total = f.sym(sym::volume(src.subset));
  if (!total) return total.take_error();
  CountedLoop loop = begin_loop(f.b, f.b.getInt64(0), *total, "reshape");
  auto unflatten = [&](const std::vector<sym::Expr>& sizes, const std::vector<size_t>& dims,
                       const std::vector<llvm::Value*>& start, const std::vector<llvm::Value*>& step)
      -> Result<std::vector<llvm::Value*>> {
    std::vector<llvm::Value*> idx = start;
    llvm::Value* rest = loop.iv;
    for (size_t i = dims.size(); i-- > 0;) {
      Result<llvm::Value*> n = f.sym(sizes[dims[i]]);
      if (!n) return n.take_error();
      llvm::Value* k = i > 0 ? f.b.CreateSRem(rest, *n) : rest;
      if (i > 0) rest = f.b.CreateSDiv(rest, *n);
      idx[dims[i]] = add_index(f.b, start[dims[i]], mul_index(f.b, k, step[dims[i]]));
    }
    return idx;
  };
  Result<std::vector<llvm::Value*>> si = unflatten(ssz, sdims, *sstart, *sstep);
  if (!si) return si.take_error();
  Result<std::vector<llvm::Value*>> di = unflatten(dsz, ddims, *dstart, *dstep);
  if (!di) return di.take_error();
  Result<llvm::Value*> from = element(*sb, *si);
  if (!from) return from.take_error();
  Result<llvm::Value*> to = element(*db, *di);
  if (!to) return to.take_error();
  DACE_TRY(move(*from, *to));
  end_loop(f.b, loop);
  return Status::success();
}

bool is_view(StateEmitter& se, int node) {
  std::string d = se.access_data(node);
  auto it = se.sdfg.arrays.find(d);
  return it != se.sdfg.arrays.end() && it->second.kind == ir::DataKind::View;
}

// Edges that connect a view to what it views carry no copy.
bool is_view_edge(StateEmitter& se, int edge) {
  const ir::DataflowEdge* e = se.state.edge(edge);
  if (is_view(se, e->dst) && se.view_edge(e->dst) == edge) return true;
  if (is_view(se, e->src) && se.view_edge(e->src) == edge) return true;
  return false;
}

}  // namespace

namespace {

// Views of views (DaCe's frontend writes `v` viewing `A_0` viewing `A`) bind innermost first.
constexpr int kMaxViewChain = 64;

Status bind_view_chain(StateEmitter& se, int node, int depth) {
  Frame& f = *se.f;
  std::string name = se.access_data(node);
  int edge = se.view_edge(node);
  if (edge < 0) return make_error(Code::InvalidSdfg, se.where(node) + ": view \"" + name + "\" is not connected to data");
  const ir::DataflowEdge* e = se.state.edge(edge);
  bool incoming = e->dst == node;
  int viewed_node = incoming ? se.path_source(edge) : se.path_sink(edge);
  std::string viewed = se.access_data(viewed_node);
  if (viewed.empty()) return make_error(Code::InvalidSdfg, se.where(node) + ": view \"" + name + "\" views no data");
  if (is_view(se, viewed_node)) {
    if (depth >= kMaxViewChain)
      return make_error(Code::InvalidSdfg, se.where(node) + ": view \"" + name + "\" is part of a chain of more than " +
                                               std::to_string(kMaxViewChain) + " views (or a cycle)");
    DACE_TRY(bind_view_chain(se, viewed_node, depth + 1));
  }
  Result<DataBinding> vb = f.data(viewed);
  if (!vb) return vb.take_error();
  const ir::Memlet& m = e->memlet;
  sym::Subset subset;
  if (m.data == viewed) subset = m.subset;
  else if (m.other_subset) subset = *m.other_subset;
  else subset = full_subset(*vb->desc);
  if (!subset.rank()) subset = full_subset(*vb->desc);
  Result<llvm::Value*> p = subset_pointer(f, *vb, subset);
  if (!p) return p.take_error();
  f.bind_data(name, DataBinding{*p, &se.sdfg.arrays.at(name), vb->thread_local_storage});
  return Status::success();
}

}  // namespace

Status bind_view(StateEmitter& se, int node) { return bind_view_chain(se, node, 0); }

bool is_view_node(StateEmitter& se, int node) { return is_view(se, node); }

namespace {

// `X -> ref.set`: the reference now points at the source subset.
Status set_reference(StateEmitter& se, int node, int edge_id) {
  Frame& f = *se.f;
  std::string name = se.access_data(node);
  const ir::DataflowEdge* e = se.state.edge(edge_id);
  std::string src = se.access_data(se.path_source(edge_id));
  if (src.empty()) return make_error(Code::Unsupported, se.where_edge(edge_id) + ": reference set from a computed pointer");
  Result<DataBinding> sb = f.data(src);
  if (!sb) return sb.take_error();
  const ir::Memlet& m = e->memlet;
  sym::Subset subset = m.data == src ? m.subset : (m.other_subset ? *m.other_subset : full_subset(*sb->desc));
  if (!subset.rank()) subset = full_subset(*sb->desc);
  Result<llvm::Value*> p = subset_pointer(f, *sb, subset);
  if (!p) return p.take_error();
  // Scope-level slot (a parallel body has none: the reference is then local to the body).
  auto slot = f.reference_slots.find(name);
  if (slot != f.reference_slots.end()) f.b.CreateStore(*p, slot->second);
  f.bind_data(name, DataBinding{*p, &se.sdfg.arrays.at(name), sb->thread_local_storage});
  return Status::success();
}

}  // namespace

Status emit_access_node(StateEmitter& se, int node) {
  for (int e : se.state.in_edges(node)) {
    const ir::DataflowEdge* edge = se.state.edge(e);
    if (edge->memlet.is_empty() || is_view_edge(se, e)) continue;
    if (edge->dst_conn == "set") {
      DACE_TRY(set_reference(se, node, e));
      continue;
    }
    const ir::Node* src = se.state.node(edge->src);
    if (src->kind != ir::NodeKind::Access && !src->is_scope_entry()) continue;
    if (src->is_scope_entry() && se.access_data(se.path_source(e)).empty()) continue;
    DACE_TRY(emit_copy(se, e));
  }
  for (int e : se.state.out_edges(node)) {
    const ir::DataflowEdge* edge = se.state.edge(e);
    if (edge->memlet.is_empty() || is_view_edge(se, e)) continue;
    const ir::Node* dst = se.state.node(edge->dst);
    if (!dst->is_scope_exit()) continue;
    if (se.access_data(se.path_sink(e)).empty()) continue;
    DACE_TRY(emit_copy(se, e));
  }
  return Status::success();
}

}  // namespace dace::codegen
