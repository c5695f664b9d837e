#include "transform/gpu_transform_sdfg.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "ir/edit.h"
#include "ir/path.h"
#include "ir/tasklet/substitute.h"
#include "transform/assigned_symbols.h"
#include "transform/cfg_list.h"
#include "transform/simplify.h"

namespace dace::transform {

namespace {

using ir::StorageType;

bool gpu_storage(StorageType s) {
  return s == StorageType::GPU_Global || s == StorageType::GPU_Shared || s == StorageType::CPU_Pinned;
}

std::set<std::string> split_names(const std::string& list) {
  std::set<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty()) out.insert(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// `base`, or `base_0`, `base_1`, ... when taken (DaCe's find_new_name).
std::string new_data_name(const ir::SDFG& sdfg, const std::string& base) {
  if (!sdfg.arrays.count(base) && !sdfg.symbols.count(base)) return base;
  for (int i = 0;; ++i) {
    std::string n = base + "_" + std::to_string(i);
    if (!sdfg.arrays.count(n) && !sdfg.symbols.count(n)) return n;
  }
}

sym::Subset whole(const ir::DataDescriptor& d) {
  sym::Subset s;
  for (const sym::Expr& n : d.shape)
    s.dims.push_back({sym::integer(0), sym::simplify(sym::sub(n, sym::integer(1))), sym::integer(1), sym::integer(1)});
  return s;
}

const ir::AccessNode* access(const ir::State& st, int n) {
  const ir::Node* node = st.node(n);
  return node && node->kind == ir::NodeKind::Access ? static_cast<const ir::AccessNode*>(node) : nullptr;
}

// An out-edge of `n` into a top-level map entry's range input (a connector not named IN_*):
// DaCe keeps such data on the host.
bool feeds_map_range(const ir::State& st, int n) {
  for (int e : st.out_edges(n)) {
    const ir::DataflowEdge* edge = st.edge(e);
    const ir::Node* dst = st.node(edge->dst);
    if (dst->is_scope_entry() && !edge->dst_conn.empty() && edge->dst_conn.rfind("IN_", 0) != 0) return true;
  }
  return false;
}

// A copy host -> device or back: one edge between two new access nodes, the whole of `data`.
void add_copy(ir::State& st, const std::string& from, const std::string& to, const std::string& data,
              const ir::DataDescriptor& desc) {
  auto a = std::make_unique<ir::AccessNode>();
  a->data = from;
  a->label = from;
  auto b = std::make_unique<ir::AccessNode>();
  b->data = to;
  b->label = to;
  int an = st.add_node(std::move(a)), bn = st.add_node(std::move(b));
  ir::DataflowEdge e;
  e.src = an;
  e.dst = bn;
  e.memlet.data = data;
  e.memlet.subset = whole(desc);
  st.add_edge(std::move(e));
}

ir::State& new_state(ir::SDFG& sdfg, ir::ControlFlowRegion& region, const std::string& label, int* slot) {
  auto s = std::make_unique<ir::State>();
  s->label = ir::unique_block_label(region, label);
  sdfg.register_block(*s);
  ir::State* raw = s.get();
  *slot = region.add_block(std::move(s));
  return *raw;
}

// Whether a memlet into an access node of `name` writes all of it (DaCe: the destination
// subset is the whole array and the write is not dynamic).
// Whether an edge inside `sdfg` (its nested SDFGs included, through their connectors) writes
// `name` with write-conflict resolution: such a write reads what the container held.
bool written_with_wcr(const ir::SDFG& sdfg, const std::string& name) {
  for (const ir::State* st : sdfg.all_states())
    for (int e : st->edge_ids()) {
      const ir::DataflowEdge* edge = st->edge(e);
      if (edge->memlet.data != name) continue;
      if (!edge->memlet.wcr.empty()) return true;
      if (st->node(edge->src)->kind != ir::NodeKind::NestedSDFG) continue;
      const auto& nested = static_cast<const ir::NestedSDFGNode&>(*st->node(edge->src));
      if (nested.sdfg && nested.sdfg->arrays.count(edge->src_conn) && written_with_wcr(*nested.sdfg, edge->src_conn))
        return true;
    }
  return false;
}

// Whether the writes of map exit `exit` through connector `out_conn` cover `outer` exactly: each
// edge into the exit at the matching connector comes straight from a tasklet and writes one
// element indexed by distinct map parameters (`p` or `p + c`, other dimensions fixed), over a
// rectangular range (no range bound names a parameter of the map) whose shifted extent is the
// outer subset's. A propagated memlet over-approximates anything else (a triangular loop nest
// inside the map propagates to the whole matrix).
bool map_writes_exactly(const ir::State& st, int exit, const std::string& out_conn, const sym::Subset& outer) {
  const auto& x = static_cast<const ir::MapExit&>(*st.node(exit));
  const ir::Node* entry_node = x.entry >= 0 ? st.node(x.entry) : nullptr;
  if (!entry_node || entry_node->kind != ir::NodeKind::MapEntry || out_conn.rfind("OUT_", 0) != 0) return false;
  const ir::MapScope& map = static_cast<const ir::MapEntry&>(*entry_node).map;
  const std::set<std::string> params(map.params.begin(), map.params.end());
  for (const sym::Range& r : map.range.dims)
    for (const sym::Expr& e : {r.start, r.end, r.step})
      for (const std::string& n : sym::free_symbols(e))
        if (params.count(n)) return false;
  const std::string in_conn = "IN_" + out_conn.substr(4);
  bool any = false;
  for (int e : st.in_edges(exit)) {
    const ir::DataflowEdge* edge = st.edge(e);
    if (edge->dst_conn != in_conn) continue;
    any = true;
    if (st.node(edge->src)->kind != ir::NodeKind::Tasklet || edge->memlet.dynamic || !edge->memlet.wcr.empty()) return false;
    const sym::Subset& inner = edge->memlet.subset;
    if (inner.rank() != outer.rank()) return false;
    std::set<std::string> used;
    for (size_t d = 0; d < inner.rank(); ++d) {
      const sym::Range& in = inner.dims[d];
      const sym::Range& out = outer.dims[d];
      if (sym::compare(sym::simplify(in.start), sym::simplify(in.end)) != 0) return false;  // one element
      std::string param;
      for (const std::string& n : sym::free_symbols(in.start))
        if (params.count(n)) {
          if (!param.empty()) return false;
          param = n;
        }
      if (param.empty()) {  // a fixed index: the outer dimension is that one element
        if (sym::compare(sym::simplify(out.start), sym::simplify(in.start)) != 0 ||
            sym::compare(sym::simplify(out.end), sym::simplify(in.end)) != 0)
          return false;
        continue;
      }
      if (!used.insert(param).second) return false;
      const size_t k = static_cast<size_t>(std::find(map.params.begin(), map.params.end(), param) - map.params.begin());
      const sym::Range& r = map.range.dims[k];
      if (sym::as_integer(sym::simplify(r.step)) != std::optional<int64_t>(1)) return false;
      // The index is `param + c`, c free of parameters: its extent is the range shifted by c.
      const sym::Expr shift = sym::simplify(sym::sub(in.start, sym::symbol(param)));
      for (const std::string& n : sym::free_symbols(shift))
        if (params.count(n)) return false;
      if (sym::compare(sym::simplify(sym::add(r.start, shift)), sym::simplify(out.start)) != 0 ||
          sym::compare(sym::simplify(sym::add(r.end, shift)), sym::simplify(out.end)) != 0)
        return false;
    }
  }
  return any;
}

// Whether some write replaces the whole container: a memlet covering it, not dynamic, without
// write-conflict resolution — from a map exit, only when the map writes it exactly
// (map_writes_exactly); from a nested SDFG, only when the nested SDFG itself writes
// all of its connector's container that way (the outer memlet of a nested SDFG is what it may
// write, not what it does: NumPy's `H[idx[i]] += 1` in a nested SDFG has the whole H outside).
bool fully_written(const ir::SDFG& sdfg, const std::string& name) {
  const ir::DataDescriptor& d = sdfg.arrays.at(name);
  const sym::Subset all = whole(d);
  for (const ir::State* st : sdfg.all_states())
    for (int n : st->node_ids()) {
      const ir::AccessNode* a = access(*st, n);
      if (!a || a->data != name) continue;
      for (int e : st->in_edges(n)) {
        const ir::DataflowEdge* edge = st->edge(e);
        const ir::Memlet& m = edge->memlet;
        if (m.dynamic || m.is_empty() || !m.wcr.empty()) continue;
        const sym::Subset& dst = m.data == name ? m.subset : (m.other_subset ? *m.other_subset : m.subset);
        if (!(dst == all)) continue;
        if (st->node(edge->src)->kind == ir::NodeKind::MapExit && !map_writes_exactly(*st, edge->src, edge->src_conn, dst))
          continue;
        if (st->node(edge->src)->kind == ir::NodeKind::NestedSDFG) {
          const auto& nested = static_cast<const ir::NestedSDFGNode&>(*st->node(edge->src));
          if (!nested.sdfg || !nested.sdfg->arrays.count(edge->src_conn) || written_with_wcr(*nested.sdfg, edge->src_conn) ||
              !fully_written(*nested.sdfg, edge->src_conn))
            continue;
        }
        return true;
      }
    }
  return false;
}

// The names an interstate edge reads (condition and assignment right-hand sides).
std::set<std::string> edge_reads(const ir::InterstateEdge& e) {
  std::set<std::string> out;
  auto add = [&](const std::string& code) {
    Result<tasklet::ExprPtr> x = tasklet::parse_expression_cached(code);
    if (!x) return;
    for (const std::string& n : tasklet::names_read(**x)) out.insert(n);
  };
  add(e.condition.code);
  for (const auto& [lhs, rhs] : e.assignments) add(rhs);
  return out;
}

// DaCe's _recursive_out_check / _recursive_in_check: the scalars a top-level code node reaches
// through its (chains of single-element) accesses, and whether all of it may stay on the host.
void scalar_reach(ir::SDFG& sdfg, const ir::State& st, int node, bool outgoing, const std::set<std::string>& gpu_scalars,
                  std::set<std::string>& scalars, bool& host_only) {
  const std::vector<int> edges = outgoing ? st.out_edges(node) : st.in_edges(node);
  for (int e : edges) {
    const ir::DataflowEdge* edge = st.edge(e);
    const int other = outgoing ? edge->dst : edge->src;
    const ir::AccessNode* a = access(st, other);
    if (!a) continue;
    const ir::DataDescriptor& d = sdfg.arrays.at(a->data);
    if (d.kind == ir::DataKind::Scalar) {
      if (gpu_storage(d.storage) || gpu_scalars.count(a->data)) host_only = false;
      scalars.insert(a->data);
    } else if (d.shape.size() == 1 && sym::as_integer(sym::simplify(d.shape[0])) == 1) {
      host_only = false;  // a pseudo-scalar array
    } else if (!gpu_storage(d.storage) && !edge->memlet.is_empty() &&
               sym::as_integer(sym::simplify(sym::volume(edge->memlet.subset))) == 1) {
      // a single element of host data: follow it
    } else {
      host_only = false;
      continue;
    }
    scalar_reach(sdfg, st, other, outgoing, gpu_scalars, scalars, host_only);
  }
}

// Wraps a top-level tasklet into a one-point GPU_Device map (DaCe's step 7).
void wrap_in_gpu_map(ir::State& st, int t) {
  const std::string label = st.node(t)->label;
  ir::MapScope map;
  map.params = {label + "__gmapi"};
  map.range.dims.push_back({sym::integer(0), sym::integer(0), sym::integer(1), sym::integer(1)});
  map.schedule = ir::ScheduleType::GPU_Device;
  auto [entry, exit] = ir::add_map(st, label + "_gmap", map);
  const std::vector<int> ins = st.in_edges(t), outs = st.out_edges(t);
  for (int e : ins) {
    ir::DataflowEdge copy = *st.edge(e);
    const std::string conn = copy.dst_conn;
    ir::redirect_edge(st, e, copy.src, copy.src_conn, entry, "IN_" + conn);
    ir::DataflowEdge inner = copy;
    inner.src = entry;
    inner.src_conn = "OUT_" + conn;
    inner.memlet.guid.clear();
    st.add_edge(std::move(inner));
    ir::ensure_connector(*st.node(entry), true, "OUT_" + conn);
    if (!conn.empty()) ir::ensure_connector(*st.node(t), false, conn);
  }
  for (int e : outs) {
    ir::DataflowEdge copy = *st.edge(e);
    const std::string conn = copy.src_conn;
    ir::redirect_edge(st, e, exit, "OUT_" + conn, copy.dst, copy.dst_conn);
    ir::DataflowEdge inner = copy;
    inner.dst = exit;
    inner.dst_conn = "IN_" + conn;
    inner.memlet.guid.clear();
    st.add_edge(std::move(inner));
    ir::ensure_connector(*st.node(exit), false, "IN_" + conn);
    if (!conn.empty()) ir::ensure_connector(*st.node(t), true, conn);
  }
  if (ins.empty()) {
    ir::DataflowEdge e;
    e.src = entry;
    e.dst = t;
    st.add_edge(std::move(e));
  }
  if (outs.empty()) {
    ir::DataflowEdge e;
    e.src = t;
    e.dst = exit;
    st.add_edge(std::move(e));
  }
}

void sequential_everywhere(ir::SDFG& nested) {
  for (ir::State* st : nested.all_states())
    for (int n : st->node_ids()) {
      ir::Node* node = st->node(n);
      if (node->kind == ir::NodeKind::MapEntry) static_cast<ir::MapEntry*>(node)->map.schedule = ir::ScheduleType::Sequential;
      if (node->kind == ir::NodeKind::Library) static_cast<ir::LibraryNode*>(node)->schedule = ir::ScheduleType::Sequential;
      if (node->kind == ir::NodeKind::NestedSDFG) sequential_everywhere(*static_cast<ir::NestedSDFGNode*>(node)->sdfg);
    }
}

// The blocks of a region without out-edges (DaCe's sink_nodes), ascending.
std::vector<int> sink_blocks(const ir::ControlFlowRegion& r) {
  std::vector<int> out;
  for (int b : r.block_slots())
    if (r.out_edges(b).empty()) out.push_back(b);
  return out;
}

// Every region of `sdfg` (itself, loop bodies, branches), not those of nested SDFGs.
void regions_of(ir::ControlFlowRegion& r, std::vector<ir::ControlFlowRegion*>& out) {
  out.push_back(&r);
  for (int b : r.block_slots()) {
    ir::ControlFlowBlock* blk = r.block(b);
    if (blk->kind == ir::BlockKind::Loop) regions_of(static_cast<ir::ControlFlowRegion&>(*blk), out);
    if (blk->kind == ir::BlockKind::Conditional)
      for (auto& [cond, branch] : static_cast<ir::ConditionalBlock*>(blk)->branches) regions_of(*branch, out);
  }
}

// Why DaCe's can_be_applied refuses `sdfg` (consume scopes; a top-level code node feeding
// another directly), or empty.
std::string refusal_of(ir::SDFG& sdfg) {
  for (ir::State* st : sdfg.all_states()) {
    const std::vector<int> parents = st->scope_parents();
    for (int n : st->node_ids()) {
      const ir::Node* node = st->node(n);
      if (node->kind == ir::NodeKind::ConsumeEntry) return ir::path_of_node(sdfg, *st, n) + ": consume scopes cannot move to the GPU";
      const bool code = node->kind == ir::NodeKind::Tasklet || node->kind == ir::NodeKind::Library ||
                        node->kind == ir::NodeKind::NestedSDFG;
      if (!code || parents[n] >= 0) continue;
      for (int e : st->out_edges(n)) {
        const ir::Node* dst = st->node(st->edge(e)->dst);
        if (dst->kind == ir::NodeKind::Tasklet || dst->kind == ir::NodeKind::Library || dst->kind == ir::NodeKind::NestedSDFG)
          return ir::path_of_node(sdfg, *st, n) + ": a top-level code node feeds another code node directly";
      }
    }
  }
  return {};
}

Status move_to_gpu(ir::SDFG& sdfg, const GPUTransformSDFG::Options& opt, bool gpu_default_body);

// DaCe's recursive application to a top-level nested SDFG (now GPU_Default): connectors whose
// outer container is already in device storage take that storage inside and are neither
// copied in nor out; the body then moves to the GPU with default options, its free code
// always into kernels (it runs under a GPU schedule). Like DaCe's apply_transformations, a
// body its can_be_applied refuses is left as it is.
Status move_nested_to_gpu(ir::SDFG& sdfg, ir::State& st, int n) {
  auto& node = static_cast<ir::NestedSDFGNode&>(*st.node(n));
  if (!node.sdfg || !refusal_of(*node.sdfg).empty()) return Status::success();
  GPUTransformSDFG::Options inner;
  auto exclude = [&](int e, bool in) {
    const ir::DataflowEdge& edge = *st.edge(e);
    const ir::AccessNode* a = access(st, in ? edge.src : edge.dst);
    const std::string& conn = in ? edge.dst_conn : edge.src_conn;
    if (!a || conn.empty()) return;
    auto outer = sdfg.arrays.find(a->data);
    auto body = node.sdfg->arrays.find(conn);
    if (outer == sdfg.arrays.end() || body == node.sdfg->arrays.end() || !gpu_storage(outer->second.storage)) return;
    body->second.storage = outer->second.storage;
    std::string& list = in ? inner.exclude_copyin : inner.exclude_copyout;
    list += (list.empty() ? "" : ",") + conn;
  };
  for (int e : st.in_edges(n)) exclude(e, true);
  for (int e : st.out_edges(n)) exclude(e, false);
  return move_to_gpu(*node.sdfg, inner, true);
}

}  // namespace

Status move_sdfg_to_gpu(ir::SDFG& sdfg, const GPUTransformSDFG::Options& opt) { return move_to_gpu(sdfg, opt, false); }

namespace {

// `gpu_default_body`: `sdfg` is the body of a GPU_Default nested SDFG node.
Status move_to_gpu(ir::SDFG& sdfg, const GPUTransformSDFG::Options& opt, bool gpu_default_body) {
  const std::vector<ir::State*> states = sdfg.all_states();
  // Step 0: the non-transient data read and written, in state and node order.
  std::vector<std::string> inputs, outputs;
  auto add_once = [](std::vector<std::string>& v, const std::string& n) {
    if (std::find(v.begin(), v.end(), n) == v.end()) v.push_back(n);
  };
  for (ir::State* st : states) {
    const std::vector<int> parents = st->scope_parents();
    for (int n : st->node_ids()) {
      const ir::AccessNode* a = access(*st, n);
      if (!a) continue;
      auto it = sdfg.arrays.find(a->data);
      if (it == sdfg.arrays.end() || it->second.transient) continue;
      if (!st->out_edges(n).empty() && !(parents[n] < 0 && feeds_map_range(*st, n))) add_once(inputs, a->data);
      if (!st->in_edges(n).empty()) add_once(outputs, a->data);
    }
    for (int e : st->edge_ids()) {
      const ir::DataflowEdge* edge = st->edge(e);
      const ir::Memlet& m = edge->memlet;
      auto it = sdfg.arrays.find(m.data);
      if (it == sdfg.arrays.end() || it->second.transient) continue;
      // Written with write-conflict resolution, here or inside a nested SDFG: read too.
      bool wcr = !m.wcr.empty();
      if (!wcr && st->node(edge->src)->kind == ir::NodeKind::NestedSDFG) {
        const auto& nested = static_cast<const ir::NestedSDFGNode&>(*st->node(edge->src));
        wcr = nested.sdfg && nested.sdfg->arrays.count(edge->src_conn) && written_with_wcr(*nested.sdfg, edge->src_conn);
      }
      if (wcr) add_once(inputs, m.data);
    }
  }
  // Step 1: GPU clones.
  std::set<std::string> on_gpu;
  std::map<std::string, std::string> cloned;
  auto clone = [&](const std::string& n) {
    ir::DataDescriptor d = sdfg.arrays.at(n);
    d.storage = StorageType::GPU_Global;
    d.transient = true;
    // A caller's array may run backwards (a negative stride: NumPy's A[::-1]); memory the
    // program allocates cannot, so the clone is laid out in C order and the copies between
    // them rearrange the elements (SplitConvertingCopies stages them on the host).
    bool backwards = false;
    for (const sym::Expr& st : d.strides)
      if (std::optional<int64_t> v = st ? sym::as_integer(sym::simplify(st)) : std::nullopt; v && *v < 0) backwards = true;
    if (backwards) {
      d.strides = ir::default_strides(d.shape);
      d.total_size = ir::product(d.shape);
      d.start_offset = sym::integer(0);
      for (sym::Expr& o : d.offset) o = sym::integer(0);
    }
    std::string name = new_data_name(sdfg, "gpu_" + n);
    sdfg.arrays.emplace(name, std::move(d));
    cloned[n] = name;
  };
  for (const std::string& n : inputs) {
    const ir::DataDescriptor& d = sdfg.arrays.at(n);
    if (d.storage == StorageType::GPU_Global) on_gpu.insert(n);
    else if (d.kind != ir::DataKind::Scalar && !cloned.count(n)) clone(n);
  }
  for (const std::string& n : outputs) {
    const ir::DataDescriptor& d = sdfg.arrays.at(n);
    if (d.storage == StorageType::GPU_Global) {
      on_gpu.insert(n);
      continue;
    }
    if (cloned.count(n)) continue;
    clone(n);
    // A partly written array goes in too, so that the copy back keeps what was not written.
    if (!fully_written(sdfg, n)) add_once(inputs, n);
  }
  std::vector<ir::ControlFlowRegion*> regions;
  regions_of(sdfg, regions);
  for (ir::ControlFlowRegion* r : regions)
    for (int e : r->edge_slots())
      for (const std::string& n : edge_reads(*r->edge(e))) {
        auto it = sdfg.arrays.find(n);
        if (it != sdfg.arrays.end() && it->second.storage == StorageType::GPU_Global) on_gpu.insert(n);
      }
  for (ir::State* st : states) {
    for (int n : st->node_ids())
      if (ir::Node* node = st->node(n); node->kind == ir::NodeKind::Access) {
        auto* a = static_cast<ir::AccessNode*>(node);
        if (auto it = cloned.find(a->data); it != cloned.end()) {
          a->data = it->second;
          if (a->label == it->first) a->label = it->second;
        }
      }
    for (int e : st->edge_ids())
      if (auto it = cloned.find(st->edge(e)->memlet.data); it != cloned.end()) st->edge(e)->memlet.data = it->second;
  }
  // Steps 2 and 3: copy-in before the start block, copy-out after the sinks.
  const std::set<std::string> no_copyin = split_names(opt.exclude_copyin), no_copyout = split_names(opt.exclude_copyout);
  std::vector<int> sinks = sink_blocks(sdfg);
  {
    int entry = entry_block(sdfg);
    if (entry < 0) return make_error(Code::Unsupported, "GPUTransformSDFG: sdfg \"" + sdfg.name + "\" has no start block");
    ir::add_state_before(sdfg, sdfg, entry, sdfg.name + "_copyin");
    const int copyin = entry_block(sdfg);  // add_state_before made the new state the start block
    auto& in_state = static_cast<ir::State&>(*sdfg.block(copyin));
    for (const std::string& n : inputs)
      if (cloned.count(n) && !no_copyin.count(n)) add_copy(in_state, n, cloned.at(n), n, sdfg.arrays.at(n));
    int out_slot = -1;
    ir::State& out_state = new_state(sdfg, sdfg, sdfg.name + "_copyout", &out_slot);
    for (int s : sinks) {
      ir::InterstateEdge e;
      e.src = s;
      e.dst = out_slot;
      sdfg.add_edge(std::move(e));
    }
    for (const std::string& n : outputs)
      if (cloned.count(n) && !no_copyout.count(n)) add_copy(out_state, cloned.at(n), n, n, sdfg.arrays.at(n));
  }
  // Step 4: schedules; outputs of GPU scopes and nodes to GPU_Global.
  for (ir::State* st : states) {
    const std::vector<int> parents = st->scope_parents();
    for (int n : st->node_ids()) {
      ir::Node* node = st->node(n);
      const bool top = parents[n] < 0;
      std::vector<int> outs;
      if (top && node->kind == ir::NodeKind::MapEntry) {
        static_cast<ir::MapEntry*>(node)->map.schedule = ir::ScheduleType::GPU_Device;
        outs = st->out_edges(st->exit_of(n));
      } else if (top && node->kind == ir::NodeKind::ConsumeEntry) {
        return make_error(Code::Unsupported, "GPUTransformSDFG: " + ir::path_of(sdfg, *st) + ": consume scopes cannot move to the GPU");
      } else if (top && node->kind == ir::NodeKind::Library) {
        static_cast<ir::LibraryNode*>(node)->schedule = ir::ScheduleType::GPU_Default;
        outs = st->out_edges(n);
      } else if (top && node->kind == ir::NodeKind::NestedSDFG) {
        static_cast<ir::NestedSDFGNode*>(node)->schedule = ir::ScheduleType::GPU_Default;
        outs = st->out_edges(n);
      } else if (!top && opt.sequential_innermaps) {
        if (node->kind == ir::NodeKind::MapEntry) static_cast<ir::MapEntry*>(node)->map.schedule = ir::ScheduleType::Sequential;
        if (node->kind == ir::NodeKind::Library) static_cast<ir::LibraryNode*>(node)->schedule = ir::ScheduleType::Sequential;
        if (node->kind == ir::NodeKind::NestedSDFG) sequential_everywhere(*static_cast<ir::NestedSDFGNode*>(node)->sdfg);
      }
      for (int e : outs)
        if (const ir::AccessNode* a = access(*st, st->edge(e)->dst)) sdfg.arrays.at(a->data).storage = StorageType::GPU_Global;
    }
  }
  // Step 5: tasklets outside maps that must run on the GPU, to a fixed point.
  std::set<std::string> gpu_scalars;
  std::map<ir::State*, std::vector<int>> to_wrap;
  const std::set<std::string> keep_on_host = split_names(opt.exclude_tasklets);
  for (bool changed = true; changed;) {
    changed = false;
    for (ir::State* st : states) {
      const std::vector<int> parents = st->scope_parents();
      for (int n : st->node_ids()) {
        if (st->node(n)->kind != ir::NodeKind::Tasklet || parents[n] >= 0) continue;
        std::vector<int>& marked = to_wrap[st];
        if (std::find(marked.begin(), marked.end(), n) != marked.end()) continue;
        std::set<std::string> scalars;
        bool host_only = true;
        scalar_reach(sdfg, *st, n, true, gpu_scalars, scalars, host_only);
        scalar_reach(sdfg, *st, n, false, gpu_scalars, scalars, host_only);
        // In the body of a GPU_Default nested SDFG every free tasklet runs in a kernel.
        if (host_only && !gpu_default_body) continue;
        marked.push_back(n);
        gpu_scalars.insert(scalars.begin(), scalars.end());
        changed = true;
      }
    }
  }
  // Then the bodies of top-level nested SDFGs (DaCe does this at the end of step 5).
  for (ir::State* st : states) {
    const std::vector<int> parents = st->scope_parents();
    for (int n : st->node_ids())
      if (parents[n] < 0 && st->node(n)->kind == ir::NodeKind::NestedSDFG) DACE_TRY(move_nested_to_gpu(sdfg, *st, n));
  }
  // Step 6: transient storage. Top-level GPU transients sized by symbols the SDFG does not
  // assign live for the whole SDFG (allocated once, outside loops and kernels).
  const std::set<std::string> assigned = assigned_symbols(sdfg);
  auto constant_size = [&](const ir::DataDescriptor& d) {
    std::vector<sym::Expr> parts = d.shape;
    parts.insert(parts.end(), d.strides.begin(), d.strides.end());
    parts.push_back(d.total_size);
    for (const sym::Expr& e : parts)
      if (e)
        for (const std::string& n : sym::free_symbols(e))
          if (assigned.count(n)) return false;
    return true;
  };
  for (ir::State* st : states) {
    const std::vector<int> parents = st->scope_parents();
    for (int n : st->node_ids()) {
      const ir::AccessNode* a = access(*st, n);
      if (!a) continue;
      ir::DataDescriptor& d = sdfg.arrays.at(a->data);
      if (!d.transient || feeds_map_range(*st, n)) continue;
      if (parents[n] < 0 && !gpu_storage(d.storage)) {
        if (d.kind == ir::DataKind::Scalar && !gpu_scalars.count(a->data)) continue;
        d.storage = StorageType::GPU_Global;
        if (opt.toplevel_trans && d.kind != ir::DataKind::Stream && d.kind != ir::DataKind::View && constant_size(d))
          d.lifetime = ir::Lifetime::SDFG;
      } else if (parents[n] >= 0 && !gpu_storage(d.storage) && opt.register_trans) {
        d.storage = StorageType::Register;
      }
    }
  }
  // Step 7: wrap the tasklets found in step 5.
  for (ir::State* st : states) {
    auto it = to_wrap.find(st);
    if (it == to_wrap.end()) continue;
    std::vector<int> ts = it->second;
    std::sort(ts.begin(), ts.end());
    for (int t : ts)
      if (!keep_on_host.count(st->node(t)->label)) wrap_in_gpu_map(*st, t);
  }
  // Step 8: interstate edges reading device data get a copy to the host before them.
  std::set<std::string> device_data(gpu_scalars.begin(), gpu_scalars.end());
  for (const auto& [host, dev] : cloned) device_data.insert(host);
  device_data.insert(on_gpu.begin(), on_gpu.end());
  std::map<std::string, std::string> host_copy;  // device scalar / data -> host transient
  for (ir::ControlFlowRegion* r : regions) {
    for (int b : r->block_slots()) {
      ir::ControlFlowBlock* blk = r->block(b);
      if (blk->kind == ir::BlockKind::Loop || blk->kind == ir::BlockKind::Conditional) {
        std::set<std::string> reads;
        if (blk->kind == ir::BlockKind::Loop) {
          auto* loop = static_cast<ir::LoopRegion*>(blk);
          for (const std::string* code : {&loop->loop_condition.code, &loop->init_statement.code, &loop->update_statement.code}) {
            Result<std::shared_ptr<const tasklet::Program>> p = tasklet::parse_code_cached(*code);
            if (p) for (const std::string& n : tasklet::names_read(**p)) reads.insert(n);
          }
        } else {
          for (auto& [cond, branch] : static_cast<ir::ConditionalBlock*>(blk)->branches)
            if (cond)
              if (Result<tasklet::ExprPtr> x = tasklet::parse_expression_cached(cond->code); x)
                for (const std::string& n : tasklet::names_read(**x)) reads.insert(n);
        }
        for (const std::string& n : reads)
          if (device_data.count(n))
            return make_error(Code::Unsupported, "GPUTransformSDFG: " + ir::path_of(sdfg, *blk) + " reads \"" + n +
                                                     "\" in its header, and \"" + n + "\" moves to the GPU");
      }
      std::set<std::string> used;
      for (int e : r->out_edges(b))
        for (const std::string& n : edge_reads(*r->edge(e)))
          if (device_data.count(n)) used.insert(n);
      if (used.empty()) continue;
      int co = -1;
      ir::State& co_state = new_state(sdfg, *r, blk->label + "_icopyout", &co);
      std::vector<ir::InterstateEdge> moved;
      for (int e : r->out_edges(b)) moved.push_back(*r->edge(e));
      for (int e : r->out_edges(b)) r->remove_edge(e);
      std::map<std::string, std::string> rename;
      for (const std::string& n : used) {
        std::string host = n, dev = n;
        if (cloned.count(n)) {
          dev = cloned.at(n);
        } else {
          if (!host_copy.count(n)) {
            ir::DataDescriptor d = sdfg.arrays.at(n);
            d.storage = StorageType::CPU_Heap;
            d.transient = true;
            std::string hn = new_data_name(sdfg, "host_" + n);
            sdfg.arrays.emplace(hn, std::move(d));
            host_copy[n] = hn;
          }
          host = host_copy.at(n);
          rename[n] = host;
        }
        add_copy(co_state, dev, host, host, sdfg.arrays.at(host));
      }
      for (ir::InterstateEdge& e : moved) {
        e.src = co;
        if (!rename.empty()) {
          Result<std::string> c = tasklet::substitute_in_expression(e.condition.code, rename);
          if (c) e.condition.code = *c;
          for (auto& [lhs, rhs] : e.assignments)
            if (Result<std::string> v = tasklet::substitute_in_expression(rhs, rename); v) rhs = *v;
        }
        r->add_edge(std::move(e));
      }
      ir::InterstateEdge to_co;
      to_co.src = b;
      to_co.dst = co;
      r->add_edge(std::move(to_co));
    }
  }
  return Status::success();
}

}  // namespace

void GPUTransformSDFG::region_matches(const ir::ControlFlowRegion& region, std::vector<std::vector<int>>& out) {
  if (region.kind == ir::BlockKind::SDFG && !static_cast<const ir::SDFG&>(region).parent_node) out.push_back({});
}

GPUTransformSDFG::Options GPUTransformSDFG::options() const {
  Options o;
  o.toplevel_trans = toplevel_trans_;
  o.register_trans = register_trans_;
  o.sequential_innermaps = sequential_innermaps_;
  o.exclude_copyin = exclude_copyin_;
  o.exclude_tasklets = exclude_tasklets_;
  o.exclude_copyout = exclude_copyout_;
  return o;
}

bool GPUTransformSDFG::can_apply(const Site& site, const std::vector<int>&) {
  ir::SDFG& sdfg = site.sdfg;
  if (std::string why = refusal_of(sdfg); !why.empty()) return refuse(why);
  // Rehearse on a copy: what cannot move (loop headers reading moved data) is refused here.
  std::unique_ptr<ir::SDFG> copy = sdfg.clone_sdfg();
  if (Status s = move_sdfg_to_gpu(*copy, options()); !s.ok()) return refuse(s.error().message);
  return true;
}

Status GPUTransformSDFG::apply_at(const Site& site, const std::vector<int>&) {
  DACE_TRY(move_sdfg_to_gpu(site.sdfg, options()));
  site.am.invalidate(Modifies::Everything);
  if (simplify_) {
    // Part of this step, not steps of their own: the pipeline's history entries (and the
    // original it would store as a first step) are dropped, so that the history holds one
    // GPUTransformSDFG entry, which DaCe replays with its own simplify.
    const auto kept = site.sdfg.extra;
    Result<bool> s = make_simplify_pipeline()->apply(site.sdfg, site.am);
    site.sdfg.extra = kept;
    if (!s) return s.take_error();
  }
  return Status::success();
}

}  // namespace dace::transform
