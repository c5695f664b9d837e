#include "lowering/cooperative.h"

#include <algorithm>

#include "codegen/loops.h"
#include "codegen/map_emit.h"
#include "lowering/grid_barrier.h"
#include "lowering/persistent.h"
#include "lowering/thread_index.h"

namespace dace::cuda {

namespace {

using codegen::Frame;
using codegen::StateEmitter;

bool inside(const StateEmitter& se, int id, int entry) {
  for (int p = se.parents[static_cast<size_t>(id)]; p >= 0; p = se.parents[static_cast<size_t>(p)])
    if (p == entry) return true;
  return false;
}

}  // namespace

Result<std::vector<int>> cooperative_maps(const StateEmitter& se, int entry) {
  const ir::State& state = se.state;
  std::vector<int> maps;
  for (int id : state.node_ids()) {
    if (se.parents[static_cast<size_t>(id)] != entry) continue;
    const ir::Node* n = state.node(id);
    if (n->kind == ir::NodeKind::MapEntry &&
        static_cast<const ir::MapEntry&>(*n).map.schedule == ir::ScheduleType::GPU_Device)
      maps.push_back(id);
  }
  if (maps.empty()) return maps;
  const std::string where = se.where(entry);
  for (int id : state.node_ids()) {
    if (se.parents[static_cast<size_t>(id)] != entry) continue;
    const ir::Node* n = state.node(id);
    if (n->kind == ir::NodeKind::MapExit || (n->kind == ir::NodeKind::MapEntry && std::count(maps.begin(), maps.end(), id)))
      continue;
    if (n->kind == ir::NodeKind::Access) {
      for (int e : state.out_edges(id))
        if (state.node(state.edge(e)->dst)->kind == ir::NodeKind::Access)
          return make_error(Code::Unsupported, where + ": the copy from \"" + n->label + "\" to \"" +
                                                   state.node(state.edge(e)->dst)->label +
                                                   "\" in a GPU_Persistent map's scope cannot be compiled yet");
      continue;
    }
    return make_error(Code::Unsupported, where + ": " + std::string(ir::to_string(n->kind)) + " \"" + n->label +
                                             "\" beside the GPU_Device maps of a GPU_Persistent map cannot be compiled "
                                             "yet (only GPU_Device maps and access nodes may sit in its scope)");
  }
  for (int m : maps) {
    if (std::optional<std::string> inner = gpu_map_among(state, [&](int id) { return inside(se, id, m); }))
      return make_error(Code::Unsupported, se.where(m) + ": " + *inner + " inside a GPU_Device map of a GPU_Persistent "
                                                                           "map cannot be compiled yet");
    const ir::MapScope& inner = static_cast<const ir::MapEntry&>(*state.node(m)).map;
    if (inner.params.empty()) return make_error(Code::InvalidSdfg, se.where(m) + ": GPU_Device map without parameters");
    if (inner.range.dims.size() < inner.params.size())
      return make_error(Code::InvalidSdfg, se.where(m) + ": map has fewer ranges than parameters");
  }
  return maps;
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
