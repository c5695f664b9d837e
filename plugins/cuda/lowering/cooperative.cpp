#include "lowering/cooperative.h"

#include "codegen/loops.h"
#include "codegen/map_emit.h"
#include "lowering/cooperative_control.h"
#include "lowering/grid_barrier.h"
#include "lowering/persistent.h"
#include "lowering/thread_index.h"

namespace dace::cuda {

namespace {

using codegen::Frame;
using codegen::StateEmitter;

bool is_device_map(const ir::Node& n) {
  return n.kind == ir::NodeKind::MapEntry && static_cast<const ir::MapEntry&>(n).map.schedule == ir::ScheduleType::GPU_Device;
}

// Whether some state of the SDFG nested at `n` holds a GPU_Device map at its top level.
bool holds_device_maps(const ir::Node& n) {
  if (n.kind != ir::NodeKind::NestedSDFG) return false;
  const auto& nested = static_cast<const ir::NestedSDFGNode&>(n);
  if (!nested.sdfg) return false;
  for (const ir::State* st : nested.sdfg->all_states()) {
    const std::vector<int> parents = st->scope_parents();
    for (int id : st->node_ids())
      if (parents[static_cast<size_t>(id)] == -1 && is_device_map(*st->node(id))) return true;
  }
  return false;
}

// Checks the direct children of `scope` (-1: the state's top level) in `st`: GPU_Device maps
// (collected into `maps`, without GPU maps inside), access nodes without copies between them
// and, where `nested_ok`, SDFGs whose states hold the same (DaCe's persistent states).
Status check_phases(const ir::State& st, const std::vector<int>& parents, int scope, const std::string& where,
                    bool nested_ok, std::vector<int>& maps) {
  auto inside = [&](int id, int entry) {
    for (int p = parents[static_cast<size_t>(id)]; p >= 0; p = parents[static_cast<size_t>(p)])
      if (p == entry) return true;
    return false;
  };
  for (int id : st.node_ids()) {
    if (parents[static_cast<size_t>(id)] != scope) continue;
    const ir::Node* n = st.node(id);
    if (is_device_map(*n)) {
      if (std::optional<std::string> inner = gpu_map_among(st, [&](int other) { return inside(other, id); }))
        return make_error(Code::Unsupported, where + ": " + *inner + " inside the GPU_Device map \"" + n->label +
                                                 "\" of a GPU_Persistent map cannot be compiled yet");
      const ir::MapScope& m = static_cast<const ir::MapEntry&>(*n).map;
      if (m.params.empty()) return make_error(Code::InvalidSdfg, where + ": GPU_Device map \"" + n->label + "\" without parameters");
      if (m.range.dims.size() < m.params.size())
        return make_error(Code::InvalidSdfg, where + ": map \"" + n->label + "\" has fewer ranges than parameters");
      maps.push_back(id);
      continue;
    }
    if (n->kind == ir::NodeKind::MapExit) continue;
    if (n->kind == ir::NodeKind::Access) {
      for (int e : st.out_edges(id))
        if (st.node(st.edge(e)->dst)->kind == ir::NodeKind::Access)
          return make_error(Code::Unsupported, where + ": the copy from \"" + n->label + "\" to \"" +
                                                   st.node(st.edge(e)->dst)->label +
                                                   "\" in a GPU_Persistent map's scope cannot be compiled yet");
      continue;
    }
    if (nested_ok && n->kind == ir::NodeKind::NestedSDFG && static_cast<const ir::NestedSDFGNode&>(*n).sdfg) {
      const ir::SDFG& g = *static_cast<const ir::NestedSDFGNode&>(*n).sdfg;
      for (const ir::State* inner : g.all_states()) {
        std::vector<int> ignored;
        DACE_TRY(check_phases(*inner, inner->scope_parents(), -1,
                              where + ", state \"" + inner->label + "\" of nested SDFG \"" + n->label + "\"", false, ignored));
      }
      continue;
    }
    return make_error(Code::Unsupported, where + ": " + std::string(ir::to_string(n->kind)) + " \"" + n->label +
                                             "\" beside the GPU_Device maps of a GPU_Persistent map cannot be compiled "
                                             "yet (only GPU_Device maps, access nodes and SDFGs of such states may sit "
                                             "in its scope)");
  }
  return Status::success();
}

}  // namespace

Result<CooperativeScope> cooperative_scope(const StateEmitter& se, int entry) {
  CooperativeScope scope;
  for (int id : se.state.node_ids()) {
    if (se.parents[static_cast<size_t>(id)] != entry) continue;
    const ir::Node* n = se.state.node(id);
    scope.cooperative = scope.cooperative || is_device_map(*n) || holds_device_maps(*n);
  }
  if (!scope.cooperative) return scope;
  DACE_TRY(check_phases(se.state, se.parents, entry, se.where(entry), true, scope.maps));
  DACE_TRY(check_uniform_control_flow(se, entry));
  return scope;
}

Status emit_cooperative_kernel(StateEmitter& se, int entry) {
  Frame& body = *se.f;
  llvm::IRBuilder<>& b = body.b;
  const ir::MapScope& map = static_cast<const ir::MapEntry&>(*se.state.node(entry)).map;
  Result<std::vector<Dim>> dims = codegen::map_dimensions(body, map, map.params.size());
  if (!dims) return dims.take_error();
  // The persistent map's points, in order, in every thread (uniform: the barriers of the
  // inner maps are reached by all threads the same number of times).
  codegen::CountedLoop points = codegen::begin_loop(b, b.getInt64(0), linear_point_count(b, *dims), "persistent.step");
  body.push_scope();
  bind_linear_point(se, body, map, *dims, points.iv);
  se.parallel_params.clear();
  Status s = codegen::emit_map_body(se, entry);
  body.pop_scope();
  if (!s.ok()) return s;
  codegen::end_loop(b, points);
  return Status::success();
}

Status lower_grid_strided_map(codegen::ScopeContext& context, DeviceModule& dm) {
  StateEmitter& se = context.se;
  const ir::MapScope& map = context.map;
  KernelState& ks = *dm.kernel;
  Frame& f = *se.f;
  llvm::IRBuilder<>& b = f.b;
  const int64_t threads = ks.block[0];
  Result<std::vector<Dim>> dims = codegen::map_dimensions(f, map, map.params.size());
  if (!dims) return dims.take_error();
  llvm::Value* total = linear_point_count(b, *dims);
  // The stride is the grid the kernel runs with, which the runtime may have made smaller than
  // the host asked for (no more blocks than can be resident at once).
  llvm::Value* stride = b.CreateMul(grid_blocks(f, dm), b.getInt64(threads), "grid.stride");
  Result<llvm::Value*> bx = special_index(f, dm, Special::BlockIndex, 0);
  if (!bx) return bx.take_error();
  ThreadLoop thread_loop;
  if (dm.emulate) thread_loop = begin_thread_loop(f, dm);
  Result<llvm::Value*> tid = special_index(f, dm, Special::ThreadIndex, 0);
  if (!tid) return tid.take_error();
  llvm::Value* first = b.CreateAdd(b.CreateMul(*bx, b.getInt64(threads)), *tid);
  codegen::CountedLoop walk = codegen::begin_loop(b, first, total, "strided.point", stride);
  f.push_scope();
  auto saved_params = se.parallel_params;
  auto saved_symbols = se.scope_symbols;
  se.parallel_params = map.params;
  bind_linear_point(se, f, map, *dims, walk.iv);
  std::array<llvm::Value*, 3> block_index{*bx, b.getInt64(0), b.getInt64(0)};
  std::array<llvm::Value*, 3> thread_index{*tid, b.getInt64(0), b.getInt64(0)};
  bind_builtins(f, ks, &block_index, &thread_index);
  bind_grid_dim(f, dm);
  Status s = codegen::emit_map_body(se, context.entry);
  se.parallel_params = saved_params;
  se.scope_symbols = saved_symbols;
  f.pop_scope();
  if (!s.ok()) return s;
  codegen::end_loop(b, walk);
  if (dm.emulate) end_thread_loop(f, dm, thread_loop);
  // The next map (or the next persistent point) may read what any thread wrote here.
  emit_grid_barrier(f, dm);
  return Status::success();
}

}  // namespace dace::cuda
