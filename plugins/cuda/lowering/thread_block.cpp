#include "lowering/thread_block.h"

#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <optional>
#include <set>

#include "codegen/map_emit.h"
#include "lowering/device_module.h"
#include "lowering/thread_index.h"
#include "lowering/warp_collective.h"

namespace dace::cuda {

namespace {

struct Layout {
  bool found = false;
  std::array<int64_t, 3> block{1, 1, 1};
};

// libdace's block for a GPU_ThreadBlock map whose range has no constant bound and which names no
// gpu_block_size of its own: 32, the size of DaCe's compiler.cuda.default_block_size (which
// DaCe itself uses only for kernels without thread-block maps; for `0:N` it launches N threads,
// a run-time block size that the constant blocks here cannot express).
constexpr std::array<int64_t, 3> kStridedDefaultBlock{32, 1, 1};

// The block a GPU_ThreadBlock map of unbounded symbolic range strides over: its
// gpu_block_size (positive constants; missing entries 1: a libdace extension, DaCe reads no
// gpu_block_size on thread-block maps) or kStridedDefaultBlock.
Result<std::array<int64_t, 3>> strided_block(const ir::MapScope& map, const std::string& where) {
  if (map.gpu_block_size.empty()) return kStridedDefaultBlock;
  std::array<int64_t, 3> block{1, 1, 1};
  for (size_t i = 0; i < map.gpu_block_size.size() && i < 3; ++i) {
    std::optional<int64_t> v = sym::as_integer(sym::simplify(map.gpu_block_size[i]));
    if (!v || *v <= 0)
      return make_error(Code::Unsupported, where + ": gpu_block_size entry " + std::to_string(i) + " must be a positive "
                                                   "constant (it gives the block of a range without a constant bound "
                                                   "its size, fixed when the kernel is compiled)");
    block[i] = *v;
  }
  return block;
}

Status account(const ir::MapEntry& node, Layout& layout) {
  const std::string where = "GPU_ThreadBlock map \"" + node.label + "\"";
  // Block sizes are compile-time constants (shared memory, emulated thread loops and
  // blockDim depend on them). A symbolic range bounded by a constant gives the block that
  // bound (the threads past the range's run-time extent skip the map); one without a bound
  // contributes its gpu_block_size or kStridedDefaultBlock, and its threads stride over the range.
  std::optional<std::array<int64_t, 3>> e = bounded_extent(node.map);
  if (!e) {
    Result<std::array<int64_t, 3>> strided = strided_block(node.map, where);
    if (!strided) return strided.take_error();
    e = *strided;
  }
  for (size_t i = 0; i < 3; ++i) layout.block[i] = std::max(layout.block[i], (*e)[i]);
  if (layout.block[0] * layout.block[1] * layout.block[2] > 1024)
    return make_error(Code::Unsupported, where + ": the block would have more than 1024 threads");
  layout.found = true;
  return Status::success();
}

bool is_thread_block_map(const ir::Node& n) {
  return n.kind == ir::NodeKind::MapEntry &&
         static_cast<const ir::MapEntry&>(n).map.schedule == ir::ScheduleType::GPU_ThreadBlock;
}

// GPU_ThreadBlock maps inside another (`under_thread_block`: the state is nested in one) run
// as loops in each thread of the outer one (lower_thread_block_map) and give the block nothing.
Status scan(const ir::State& st, const std::function<bool(int)>& in_kernel, Layout& layout, bool under_thread_block) {
  const std::vector<int> parents = st.scope_parents();
  auto nested_in_thread_block = [&](int id) {
    if (under_thread_block) return true;
    for (int p = parents[static_cast<size_t>(id)]; p >= 0; p = parents[static_cast<size_t>(p)])
      if (is_thread_block_map(*st.node(p))) return true;
    return false;
  };
  for (int id : st.node_ids()) {
    if (!in_kernel(id)) continue;
    const ir::Node* n = st.node(id);
    if (is_thread_block_map(*n)) {
      if (!nested_in_thread_block(id)) DACE_TRY(account(static_cast<const ir::MapEntry&>(*n), layout));
    } else if (n->kind == ir::NodeKind::NestedSDFG) {
      const auto& nested = static_cast<const ir::NestedSDFGNode&>(*n);
      if (!nested.sdfg) continue;
      for (const ir::State* inner : nested.sdfg->all_states())
        DACE_TRY(scan(*inner, [](int) { return true; }, layout, nested_in_thread_block(id)));
    }
  }
  return Status::success();
}

}  // namespace

Result<bool> thread_block_layout(const ir::State& state, const std::vector<int>& parents, int device_entry,
                                 std::array<int64_t, 3>& block) {
  auto in_kernel = [&](int id) {
    for (int p = parents[static_cast<size_t>(id)]; p >= 0; p = parents[static_cast<size_t>(p)])
      if (p == device_entry) return true;
    return false;
  };
  Layout layout;
  DACE_TRY(scan(state, in_kernel, layout, false));
  if (layout.found) block = layout.block;
  return layout.found;
}

namespace {

// The scope's direct children cut at its warp collectives: each part is either plain nodes
// or one collective.
struct Part {
  std::vector<int> nodes;
  std::optional<WarpReduce> warp;
};

Result<std::vector<Part>> cut_at_collectives(codegen::StateEmitter& se, int entry) {
  std::vector<Part> parts(1);
  for (int n : se.scope_order(entry)) {
    Result<std::optional<WarpReduce>> w = match_warp_reduce(se, n);
    if (!w) return w.take_error();
    if (!*w) {
      parts.back().nodes.push_back(n);
      continue;
    }
    parts.push_back(Part{{}, *w});
    parts.emplace_back();
  }
  return parts;
}

// A warp collective needs every lane of every warp in the map: the block is exactly the
// map's points, a multiple of 32.
Status check_full_warps(const ir::MapScope& map, const KernelState& ks, const std::string& where) {
  std::optional<std::array<int64_t, 3>> e = constant_extent(map);
  const int64_t threads = ks.block[0] * ks.block[1] * ks.block[2];
  if (!e || *e != ks.block || threads % 32 != 0)
    return make_error(Code::Unsupported, where + ": a warpReduce needs the GPU_ThreadBlock map to cover the whole block "
                                                 "in full warps of 32 threads (block " + std::to_string(threads) + ")");
  return Status::success();
}

// Whether tasklets under `entry` (nested SDFGs included) read CUDA's built-ins (threadIdx,
// blockDim), which DaCe's generated code takes as the point of a GPU_ThreadBlock map.
bool reads_thread_builtins(const ir::State& st, const std::function<bool(int)>& under) {
  for (int id : st.node_ids()) {
    if (!under(id)) continue;
    const ir::Node* n = st.node(id);
    if (n->kind == ir::NodeKind::Tasklet) {
      const std::string& code = static_cast<const ir::Tasklet&>(*n).code.code;
      if (code.find("threadIdx") != std::string::npos || code.find("blockDim") != std::string::npos) return true;
    } else if (n->kind == ir::NodeKind::NestedSDFG) {
      const auto& nested = static_cast<const ir::NestedSDFGNode&>(*n);
      if (!nested.sdfg) continue;
      for (const ir::State* inner : nested.sdfg->all_states())
        if (reads_thread_builtins(*inner, [](int) { return true; })) return true;
    }
  }
  return false;
}

Status check_no_thread_builtins(const codegen::StateEmitter& se, int entry, const std::string& where) {
  auto under = [&](int id) {
    for (int p = se.parents[static_cast<size_t>(id)]; p >= 0; p = se.parents[static_cast<size_t>(p)])
      if (p == entry) return true;
    return false;
  };
  if (!reads_thread_builtins(se.state, under)) return Status::success();
  return make_error(Code::Unsupported, where + ": its range has no constant bound, so the block's threads stride over "
                                               "it, and code inside reads threadIdx or blockDim as if each thread ran "
                                               "one point");
}

// Emulation: the thread-private scalars (Register or Default storage, transient) that the
// cut scope's nodes access get one element per thread of the block, so a value written
// before a collective is read after it by the same thread. One already bound outside the
// scope (kernel-level code, which emulation runs once per block as thread 0) is copied into
// every thread's element first and back from thread 0's element after the scope.
struct Privatized {
  std::string name;
  const ir::DataDescriptor* desc;
  llvm::Value* base;
  int64_t bytes;
  std::optional<codegen::DataBinding> outer;  // the binding outside the scope, if any
};

Result<std::vector<Privatized>> privatize(codegen::StateEmitter& se, int entry, const KernelState& ks,
                                          const std::string& where) {
  std::vector<Privatized> out;
  codegen::Frame& f = *se.f;
  const int64_t threads = ks.block[0] * ks.block[1] * ks.block[2];
  std::set<std::string> names;
  for (int id : se.state.node_ids()) {
    bool inside = false;
    for (int p = se.parents[static_cast<size_t>(id)]; p >= 0 && !inside; p = se.parents[static_cast<size_t>(p)])
      inside = p == entry;
    if (inside && se.state.node(id)->kind == ir::NodeKind::Access) names.insert(se.access_data(id));
  }
  if (auto it = se.scope_locals.find(entry); it != se.scope_locals.end())
    for (const std::string& name : it->second) {
      const ir::DataDescriptor& d = se.sdfg.arrays.at(name);
      if (d.kind != ir::DataKind::Scalar)
        return make_error(Code::Unsupported, where + ": \"" + name + "\" is private to the threads of a scope cut at a "
                                                     "warpReduce; only scalars can be (emulated device)");
    }
  for (const std::string& name : names) {
    auto it = se.sdfg.arrays.find(name);
    if (it == se.sdfg.arrays.end()) continue;
    const ir::DataDescriptor& d = it->second;
    const bool thread_private = d.storage == ir::StorageType::Register || d.storage == ir::StorageType::Default;
    if (d.kind != ir::DataKind::Scalar || !d.transient || !thread_private) continue;
    llvm::Type* ty = codegen::storage_type(f.mc.ctx, d.dtype.scalar);
    const int64_t bytes = static_cast<int64_t>(f.mc.module.getDataLayout().getTypeAllocSize(ty));
    llvm::AllocaInst* a = f.entry_alloca(llvm::ArrayType::get(ty, static_cast<uint64_t>(threads)), name + ".per_thread");
    const codegen::DataBinding* outer = f.find_data(name);
    out.push_back(Privatized{name, &d, a, bytes, outer ? std::optional<codegen::DataBinding>(*outer) : std::nullopt});
  }
  return out;
}

// Copies each privatized container bound outside the scope into every thread's element
// (`in`) or thread 0's element back out.
void copy_privatized(codegen::Frame& f, const std::vector<Privatized>& priv, int64_t threads, bool in) {
  llvm::IRBuilder<>& b = f.b;
  for (const Privatized& p : priv) {
    if (!p.outer) continue;
    llvm::Type* ty = codegen::storage_type(f.mc.ctx, p.desc->dtype.scalar);
    if (!in) {
      b.CreateStore(b.CreateLoad(ty, p.base), p.outer->base);
      continue;
    }
    llvm::Value* v = b.CreateLoad(ty, p.outer->base);
    codegen::CountedLoop all = codegen::begin_loop(b, b.getInt64(0), b.getInt64(threads), "copy.in");
    b.CreateStore(v, b.CreateGEP(ty, p.base, all.iv));
    codegen::end_loop(b, all);
  }
}

// One pass of the block's threads (emulation: a thread loop; device: the thread itself)
// that runs `emit` for those within the map's range, with the thread's point, the
// built-ins and the private containers bound; `emit` gets the thread's linear index.
//
// `strided` (a range without a constant bound, wider than the block perhaps): each thread
// runs the points t, t + B, ... along every axis instead of at most the one under it.
Status for_each_thread(codegen::StateEmitter& se, const codegen::ScopeContext& context, DeviceModule& dm,
                       const std::vector<Dim>& dims, const std::vector<Privatized>& priv,
                       const std::function<Status(llvm::Value*)>& emit, bool strided = false) {
  codegen::Frame& f = *se.f;
  llvm::IRBuilder<>& b = f.b;
  KernelState& ks = *dm.kernel;
  ThreadLoop threads;
  if (dm.emulate) threads = begin_thread_loop(f, dm);
  Result<ThreadPosition> thread = thread_position(f, dm);
  if (!thread) return thread.take_error();
  const std::array<llvm::Value*, 3>& t = thread->index;
  llvm::Value* const linear = thread->linear;
  llvm::BasicBlock* work = llvm::BasicBlock::Create(f.mc.ctx, "block.work", f.fn);
  llvm::BasicBlock* skip = llvm::BasicBlock::Create(f.mc.ctx, "block.skip", f.fn);
  const std::array<llvm::Value*, 3> extent = grid_extent(b, dims);
  b.CreateCondBr(within(b, t, extent), work, skip);
  b.SetInsertPoint(work);
  std::array<llvm::Value*, 3> point = t;
  std::array<codegen::CountedLoop, 3> strides;
  if (strided)
    for (size_t a = 3; a-- > 0;) {  // z outermost, x innermost
      strides[a] = codegen::begin_loop(b, t[a], extent[a], "block.stride", b.getInt64(ks.block[a]));
      point[a] = strides[a].iv;
    }
  f.push_scope();
  bind_point(se, f, context.map, dims, point);
  bind_builtins(f, ks, nullptr, &t);
  for (const Privatized& p : priv)
    f.bind_data(p.name, codegen::DataBinding{b.CreateGEP(b.getInt8Ty(), p.base, b.CreateMul(linear, b.getInt64(p.bytes))),
                                             p.desc, true});
  Status s = emit(linear);
  f.pop_scope();
  if (!s.ok()) return s;
  if (strided)
    for (size_t a = 0; a < 3; ++a) codegen::end_loop(b, strides[a]);
  b.CreateBr(skip);
  b.SetInsertPoint(skip);
  if (dm.emulate) end_thread_loop(f, dm, threads);  // every thread is done: the barrier
  return Status::success();
}

// Emulation of a scope cut at warp collectives: a thread loop per part of plain nodes; per
// collective a loop that gathers each thread's input, the combination per warp, and a loop
// that hands each thread its result.
Status emulate_cut_scope(codegen::StateEmitter& se, const codegen::ScopeContext& context, DeviceModule& dm,
                         const std::vector<Part>& parts, const std::vector<Dim>& dims, const std::string& where) {
  codegen::Frame& f = *se.f;
  llvm::IRBuilder<>& b = f.b;
  const KernelState& ks = *dm.kernel;
  const int64_t threads = ks.block[0] * ks.block[1] * ks.block[2];
  Result<std::vector<Privatized>> priv = privatize(se, context.entry, ks, where);
  if (!priv) return priv.take_error();
  copy_privatized(f, *priv, threads, true);
  for (const Part& part : parts) {
    if (!part.warp) {
      if (part.nodes.empty()) continue;
      DACE_TRY(for_each_thread(se, context, dm, dims, *priv, [&](llvm::Value*) { return se.emit_nodes(part.nodes); }));
      continue;
    }
    const WarpReduce& w = *part.warp;
    llvm::Type* ty = codegen::storage_type(f.mc.ctx, w.type);
    llvm::Value* buffer = f.entry_alloca(llvm::ArrayType::get(ty, static_cast<uint64_t>(threads)), "warp.values");
    auto slot = [&](llvm::Value* i) { return b.CreateGEP(ty, buffer, i); };
    DACE_TRY(for_each_thread(se, context, dm, dims, *priv, [&](llvm::Value* lane) -> Status {
      Result<llvm::Value*> v = load_warp_input(se, w);
      if (!v) return v.take_error();
      b.CreateStore(*v, slot(lane));
      return Status::success();
    }));
    codegen::CountedLoop warps = codegen::begin_loop(b, b.getInt64(0), b.getInt64(threads / 32), "warp");
    llvm::Value* first = b.CreateMul(warps.iv, b.getInt64(32));
    llvm::Value* r = b.CreateLoad(ty, slot(first));
    for (int64_t l = 1; l < 32; ++l) r = warp_combine(b, w, r, b.CreateLoad(ty, slot(b.CreateAdd(first, b.getInt64(l)))));
    for (int64_t l = 0; l < 32; ++l) b.CreateStore(r, slot(b.CreateAdd(first, b.getInt64(l))));
    codegen::end_loop(b, warps);
    DACE_TRY(for_each_thread(se, context, dm, dims, *priv, [&](llvm::Value* lane) {
      return store_warp_output(se, w, b.CreateLoad(ty, slot(lane)));
    }));
  }
  copy_privatized(f, *priv, threads, false);
  return Status::success();
}

}  // namespace

Status lower_thread_block_map(codegen::ScopeContext& context) {
  codegen::StateEmitter& se = context.se;
  const ir::MapScope& map = context.map;
  codegen::Frame& f = *se.f;
  const std::string where = se.where(context.entry);
  DeviceModule* dm = device_module_of(f.mc);
  if (!dm || !dm->kernel)
    return make_error(Code::Unsupported, where + ": a GPU_ThreadBlock map must be inside a GPU_Device map");
  KernelState& ks = *dm->kernel;
  if (ks.in_thread_block) {
    // Inside another GPU_ThreadBlock map: each thread of the outer map runs this one's points
    // as loops (any order of a map's points is valid), with no barrier after it — threads
    // past the outer map's extent never get here, and the outer map's barrier follows.
    if (map.params.empty()) return make_error(Code::InvalidSdfg, where + ": GPU_ThreadBlock map without parameters");
    if (map.range.dims.size() < map.params.size())
      return make_error(Code::InvalidSdfg, where + ": map has fewer ranges than parameters");
    return codegen::emit_map_loops(se, map, 0, [&] { return codegen::emit_map_body(se, context.entry); });
  }
  if (!ks.thread_blocks) return make_error(Code::Internal, where + ": GPU_ThreadBlock map missed by the kernel's layout");
  if (map.params.empty()) return make_error(Code::InvalidSdfg, where + ": GPU_ThreadBlock map without parameters");
  if (map.range.dims.size() < map.params.size())
    return make_error(Code::InvalidSdfg, where + ": map has fewer ranges than parameters");
  Result<std::vector<Part>> parts = cut_at_collectives(se, context.entry);
  if (!parts) return parts.take_error();
  const bool collectives = parts->size() > 1;
  if (collectives) DACE_TRY(check_full_warps(map, ks, where));
  // A range without a constant bound: the block's threads stride over it (thread_block_layout
  // gave the block its gpu_block_size or kStridedDefaultBlock), so a thread's index is no point of
  // the map; code reading the CUDA built-ins would assume it is.
  const bool strided = !bounded_extent(map);
  if (strided) DACE_TRY(check_no_thread_builtins(se, context.entry, where));
  Result<std::vector<Dim>> dims = codegen::map_dimensions(f, map, map.params.size());
  if (!dims) return dims.take_error();
  auto saved_params = se.parallel_params;
  auto saved_symbols = se.scope_symbols;
  // Threads of one block write concurrently too: WCR that a thread's point does not
  // determine needs atomics.
  se.parallel_params.insert(se.parallel_params.end(), map.params.begin(), map.params.end());
  ks.in_thread_block = true;
  Status s = Status::success();
  if (!collectives) {
    s = for_each_thread(
        se, context, *dm, *dims, {}, [&](llvm::Value*) { return codegen::emit_map_body(se, context.entry); }, strided);
  } else if (dm->emulate) {
    s = emulate_cut_scope(se, context, *dm, *parts, *dims, where);
  } else {
    // On the device the lanes run the collective together (warp shuffles).
    s = for_each_thread(se, context, *dm, *dims, {}, [&](llvm::Value*) -> Status {
      Result<std::vector<llvm::Value*>> locals = se.allocate_scope_locals(context.entry);
      if (!locals) return locals.take_error();
      for (const Part& part : *parts) DACE_TRY(part.warp ? emit_warp_reduce_device(se, *part.warp) : se.emit_nodes(part.nodes));
      se.free_all(*locals);
      return Status::success();
    });
  }
  ks.in_thread_block = false;
  se.parallel_params = saved_params;
  se.scope_symbols = saved_symbols;
  if (!s.ok()) return s;
  if (!dm->emulate) f.b.CreateCall(llvm::Intrinsic::getDeclaration(&f.mc.module, llvm::Intrinsic::nvvm_barrier0));
  return Status::success();
}

}  // namespace dace::cuda
