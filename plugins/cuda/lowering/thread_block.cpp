#include "lowering/thread_block.h"

#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <functional>

#include "codegen/map_emit.h"
#include "lowering/device_module.h"
#include "lowering/thread_index.h"

namespace dace::cuda {

namespace {

struct Layout {
  bool found = false;
  std::array<int64_t, 3> block{1, 1, 1};
};

Status account(const ir::MapEntry& node, Layout& layout) {
  const std::string where = "GPU_ThreadBlock map \"" + node.label + "\"";
  std::optional<std::array<int64_t, 3>> e = constant_extent(node.map);
  if (!e) return make_error(Code::Unsupported, where + ": its range must be constant (it gives the block its size)");
  for (size_t i = 0; i < 3; ++i) layout.block[i] = std::max(layout.block[i], (*e)[i]);
  if (layout.block[0] * layout.block[1] * layout.block[2] > 1024)
    return make_error(Code::Unsupported, where + ": the block would have more than 1024 threads");
  layout.found = true;
  return Status::success();
}

Status scan(const ir::State& st, const std::function<bool(int)>& in_kernel, Layout& layout) {
  for (int id : st.node_ids()) {
    if (!in_kernel(id)) continue;
    const ir::Node* n = st.node(id);
    if (n->kind == ir::NodeKind::MapEntry) {
      const auto& me = static_cast<const ir::MapEntry&>(*n);
      if (me.map.schedule == ir::ScheduleType::GPU_ThreadBlock) DACE_TRY(account(me, layout));
      if (me.map.schedule == ir::ScheduleType::GPU_ThreadBlock_Dynamic)
        return make_error(Code::Unsupported, "map \"" + me.label + "\": schedule GPU_ThreadBlock_Dynamic cannot be compiled yet");
    } else if (n->kind == ir::NodeKind::NestedSDFG) {
      const auto& nested = static_cast<const ir::NestedSDFGNode&>(*n);
      if (!nested.sdfg) continue;
      for (const ir::State* inner : nested.sdfg->all_states())
        DACE_TRY(scan(*inner, [](int) { return true; }, layout));
    }
  }
  return Status::success();
}

}  // namespace

Result<bool> thread_block_layout(const ir::State& state, int device_entry, std::array<int64_t, 3>& block) {
  const std::vector<int> parents = state.scope_parents();
  auto in_kernel = [&](int id) {
    for (int p = parents[static_cast<size_t>(id)]; p >= 0; p = parents[static_cast<size_t>(p)])
      if (p == device_entry) return true;
    return false;
  };
  Layout layout;
  DACE_TRY(scan(state, in_kernel, layout));
  if (layout.found) block = layout.block;
  return layout.found;
}

Status lower_thread_block_map(codegen::ScopeContext& context) {
  codegen::StateEmitter& se = context.se;
  const ir::MapScope& map = context.map;
  codegen::Frame& f = *se.f;
  const std::string where = se.where(context.entry);
  DeviceModule* dm = device_module_of(f.mc);
  if (!dm || !dm->kernel)
    return make_error(Code::Unsupported, where + ": a GPU_ThreadBlock map must be inside a GPU_Device map");
  KernelState& ks = *dm->kernel;
  if (ks.in_thread_block)
    return make_error(Code::Unsupported, where + ": a GPU_ThreadBlock map inside another cannot be compiled yet");
  if (!ks.thread_blocks) return make_error(Code::Internal, where + ": GPU_ThreadBlock map missed by the kernel's layout");
  if (map.params.empty()) return make_error(Code::InvalidSdfg, where + ": GPU_ThreadBlock map without parameters");
  if (map.range.dims.size() < map.params.size())
    return make_error(Code::InvalidSdfg, where + ": map has fewer ranges than parameters");
  Result<std::vector<Dim>> dims = codegen::map_dimensions(f, map, map.params.size());
  if (!dims) return dims.take_error();
  llvm::IRBuilder<>& b = f.b;
  std::array<llvm::Value*, 3> extent = grid_extent(b, *dims);
  ThreadLoop threads;
  if (dm->emulate) threads = begin_thread_loop(f, *dm);
  std::array<llvm::Value*, 3> t{};
  for (int axis = 0; axis < 3; ++axis) {
    Result<llvm::Value*> v = special_index(f, *dm, Special::ThreadIndex, axis);
    if (!v) return v.take_error();
    t[static_cast<size_t>(axis)] = *v;
  }
  llvm::BasicBlock* work = llvm::BasicBlock::Create(f.mc.ctx, "block.work", f.fn);
  llvm::BasicBlock* skip = llvm::BasicBlock::Create(f.mc.ctx, "block.skip", f.fn);
  b.CreateCondBr(within(b, t, extent), work, skip);
  b.SetInsertPoint(work);
  f.push_scope();
  auto saved_params = se.parallel_params;
  auto saved_symbols = se.scope_symbols;
  // Threads of one block write concurrently too: WCR that a thread's point does not
  // determine needs atomics.
  se.parallel_params.insert(se.parallel_params.end(), map.params.begin(), map.params.end());
  bind_point(se, f, map, *dims, t);
  ks.in_thread_block = true;
  Status s = codegen::emit_map_body(se, context.entry);
  ks.in_thread_block = false;
  se.parallel_params = saved_params;
  se.scope_symbols = saved_symbols;
  f.pop_scope();
  if (!s.ok()) return s;
  b.CreateBr(skip);
  b.SetInsertPoint(skip);
  if (dm->emulate) {
    end_thread_loop(f, *dm, threads);  // every thread is done: the barrier
  } else {
    b.CreateCall(llvm::Intrinsic::getDeclaration(&f.mc.module, llvm::Intrinsic::nvvm_barrier0));
  }
  return Status::success();
}

}  // namespace dace::cuda
