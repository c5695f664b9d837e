#include "lowering/persistent.h"

#include <llvm/IR/Module.h>

#include "codegen/loops.h"
#include "codegen/map_emit.h"
#include "lowering/cooperative.h"
#include "lowering/device_module.h"
#include "lowering/kernel.h"
#include "lowering/thread_index.h"
#include "lowering/thread_stack.h"

namespace dace::cuda {

namespace {

using codegen::Frame;
using codegen::StateEmitter;

// The host's grid stride (grid x block), a kernel parameter like any host value the body reads.
constexpr const char* kStrideSymbol = "__dace_persistent_stride";

bool is_gpu_schedule(ir::ScheduleType s) {
  return s == ir::ScheduleType::GPU_Device || s == ir::ScheduleType::GPU_Persistent ||
         s == ir::ScheduleType::GPU_ThreadBlock || s == ir::ScheduleType::GPU_ThreadBlock_Dynamic;
}

}  // namespace

std::optional<std::string> gpu_map_among(const ir::State& state, const std::function<bool(int)>& counts) {
  for (int id : state.node_ids()) {
    if (!counts(id)) continue;
    const ir::Node* n = state.node(id);
    if (n->kind == ir::NodeKind::MapEntry && is_gpu_schedule(static_cast<const ir::MapEntry&>(*n).map.schedule))
      return "map \"" + n->label + "\"";
    if (n->kind != ir::NodeKind::NestedSDFG) continue;
    const auto& nested = static_cast<const ir::NestedSDFGNode&>(*n);
    if (!nested.sdfg) continue;
    for (const ir::State* inner : nested.sdfg->all_states())
      if (std::optional<std::string> found = gpu_map_among(*inner, [](int) { return true; })) return found;
  }
  return std::nullopt;
}

llvm::Value* linear_point_count(llvm::IRBuilder<>& b, const std::vector<Dim>& dims) {
  llvm::Value* total = b.getInt64(1);
  for (const Dim& d : dims) total = b.CreateMul(total, d.count);
  return total;
}

void bind_linear_point(StateEmitter& se, Frame& f, const ir::MapScope& map, const std::vector<Dim>& dims, llvm::Value* linear) {
  llvm::IRBuilder<>& b = f.b;
  llvm::Value* rest = linear;
  for (size_t d = dims.size(); d-- > 0;) {
    llvm::Value* index = d == 0 ? rest : b.CreateURem(rest, dims[d].count);
    if (d > 0) rest = b.CreateUDiv(rest, dims[d].count);
    llvm::Value* p = b.CreateAdd(dims[d].start, b.CreateMul(index, dims[d].step), map.params[d]);
    f.bind_symbol(map.params[d], codegen::SymbolBinding{p, ir::ScalarType::Int64, false});
    se.scope_symbols[map.params[d]] = ir::ScalarType::Int64;
  }
}

Status lower_persistent_map(codegen::ScopeContext& context) {
  StateEmitter& se = context.se;
  const ir::MapScope& map = context.map;
  const int entry = context.entry;
  Frame& outer = *se.f;
  const std::string where = se.where(entry);
  if (Status placed = check_kernel_map(context, "GPU_Persistent"); !placed.ok()) return placed;
  auto inside = [&](int id) {
    for (int p = se.parents[static_cast<size_t>(id)]; p >= 0; p = se.parents[static_cast<size_t>(p)])
      if (p == entry) return true;
    return false;
  };
  Result<CooperativeScope> scope = cooperative_scope(se, entry);
  if (!scope) return scope.take_error();
  const bool cooperative = scope->cooperative;
  // A thread that leaves the kernel at a failed check would leave the other blocks waiting
  // at the next grid barrier for ever: a hang instead of the check's status.
  if (cooperative && outer.mc.options.bounds_check)
    return make_error(Code::Unsupported, where + ": a GPU_Persistent map holding GPU_Device maps (grid barriers) cannot be "
                                                 "compiled with bounds checks yet: a thread leaving at a failed check "
                                                 "would leave the other blocks waiting at the barrier");
  if (!cooperative)
    if (std::optional<std::string> inner = gpu_map_among(se.state, inside))
      return make_error(Code::Unsupported, where + ": " + *inner + " inside a GPU_Persistent map cannot be compiled yet "
                                                   "(only GPU_Device maps directly in its scope)");
  KernelState ks;
  ks.where = where;
  ks.cooperative = cooperative;
  Result<std::array<int64_t, 3>> block = point_kernel_block(se, entry, where);
  if (!block) return block.take_error();
  if (!map.gpu_block_size.empty() && ((*block)[1] != 1 || (*block)[2] != 1))
    return make_error(Code::Unsupported, where + ": a GPU_Persistent map needs a 1-D block (gpu_block_size [B, 1, 1])");
  ks.block = {(*block)[0] * (*block)[1] * (*block)[2], 1, 1};  // the points are walked linearly
  if (cooperative && map.gpu_block_size.empty()) {
    // The inner maps share the threads: the largest of their own blocks, flattened (maps in
    // nested states: the default block of element-wise maps).
    ks.block[0] = scope->maps.empty() ? kDefaultBlock1D : 1;
    for (int m : scope->maps) {
      Result<std::array<int64_t, 3>> own = point_kernel_block(se, m, se.where(m));
      if (!own) return own.take_error();
      ks.block[0] = std::max(ks.block[0], (*own)[0] * (*own)[1] * (*own)[2]);
    }
  }
  const int64_t threads = ks.block[0];

  // Host: the resident blocks, capped by what the points need, and the stride.
  llvm::IRBuilder<>& hb = outer.b;
  Result<std::vector<Dim>> host_dims = codegen::map_dimensions(outer, map, map.params.size());
  if (!host_dims) return host_dims.take_error();
  llvm::Value* points = linear_point_count(hb, *host_dims);
  llvm::FunctionCallee resident = outer.mc.module.getOrInsertFunction(
      "dace_cuda_persistent_blocks", llvm::FunctionType::get(hb.getInt64Ty(), {hb.getInt64Ty()}, false));
  llvm::Value* blocks = hb.CreateCall(resident, {hb.getInt64(threads)}, "resident.blocks");
  record_runtime_failure(outer, hb.CreateICmpSLE(blocks, hb.getInt64(0)), /*leave=*/true,
                         where + ": resident blocks of the persistent kernel (dace_cuda_persistent_blocks)");
  // A cooperative kernel's inner maps decide how many points there are: all resident blocks.
  llvm::Value* needed =
      cooperative ? blocks : hb.CreateSDiv(hb.CreateAdd(points, hb.getInt64(threads - 1)), hb.getInt64(threads));
  llvm::Value* grid = hb.CreateSelect(hb.CreateICmpSLT(needed, blocks), needed, blocks, "persistent.grid");
  outer.push_scope();
  outer.bind_symbol(kStrideSymbol, codegen::SymbolBinding{hb.CreateMul(grid, hb.getInt64(threads)), ir::ScalarType::Int64, false});

  auto emit_body = [&](Frame& body, DeviceModule& dm) -> Status {
    if (cooperative) return emit_cooperative_kernel(se, entry);
    llvm::IRBuilder<>& b = body.b;
    se.parallel_params = map.params;
    Result<std::vector<Dim>> dims = codegen::map_dimensions(body, map, map.params.size());
    if (!dims) return dims.take_error();
    llvm::Value* total = linear_point_count(b, *dims);
    Result<llvm::Value*> stride = body.symbol_i64(kStrideSymbol);
    if (!stride) return stride.take_error();
    Result<llvm::Value*> bx = special_index(body, dm, Special::BlockIndex, 0);
    if (!bx) return bx.take_error();
    ThreadLoop thread_loop;
    if (dm.emulate) thread_loop = begin_thread_loop(body, dm);
    Result<llvm::Value*> tid = special_index(body, dm, Special::ThreadIndex, 0);
    if (!tid) return tid.take_error();
    llvm::Value* first = b.CreateAdd(b.CreateMul(*bx, b.getInt64(threads)), *tid);
    codegen::CountedLoop points_loop = codegen::begin_loop(b, first, total, "persistent.point", *stride);
    body.push_scope();
    bind_linear_point(se, body, map, *dims, points_loop.iv);
    std::array<llvm::Value*, 3> block_index{*bx, b.getInt64(0), b.getInt64(0)};
    std::array<llvm::Value*, 3> thread_index{*tid, b.getInt64(0), b.getInt64(0)};
    bind_builtins(body, ks, &block_index, &thread_index);
    bind_grid_dim(body, dm);
    Status s = codegen::emit_map_body(se, entry);
    body.pop_scope();
    if (!s.ok()) return s;
    codegen::end_loop(b, points_loop);
    if (dm.emulate) end_thread_loop(body, dm, thread_loop);
    return Status::success();
  };
  auto grid_of = [&](Frame& host) -> Result<std::array<llvm::Value*, 3>> {
    return std::array<llvm::Value*, 3>{grid, host.b.getInt64(1), host.b.getInt64(1)};
  };
  Status s = reserve_thread_stack(se, entry, where);
  if (s.ok()) s = launch_kernel(se, entry, ks, se.state.node(entry)->label, where, emit_body, grid_of);
  outer.pop_scope();
  return s;
}

}  // namespace dace::cuda
