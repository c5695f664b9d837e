#include "lowering/dynamic_map.h"

#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <set>
#include <string>
#include <vector>

#include "codegen/addressing.h"
#include "codegen/loops.h"
#include "codegen/map_emit.h"
#include "codegen/types.h"
#include "lowering/shared_storage.h"
#include "lowering/thread_index.h"

namespace dace::cuda {

namespace {

using codegen::Frame;
using codegen::StateEmitter;

const ir::MapScope& map_at(const StateEmitter& se, int entry) {
  return static_cast<const ir::MapEntry&>(*se.state.node(entry)).map;
}

bool is_dynamic_entry(const StateEmitter& se, int id) {
  const ir::Node* n = se.state.node(id);
  return n->kind == ir::NodeKind::MapEntry &&
         static_cast<const ir::MapEntry&>(*n).map.schedule == ir::ScheduleType::GPU_ThreadBlock_Dynamic;
}

// The point of the GPU_Device map that the thread at `thread` (x, y, z) of this block owns.
std::array<llvm::Value*, 3> owned_point(llvm::IRBuilder<>& b, const KernelState& ks, const std::array<llvm::Value*, 3>& block,
                                        const std::array<llvm::Value*, 3>& thread) {
  std::array<llvm::Value*, 3> point{};
  for (size_t a = 0; a < 3; ++a) point[a] = b.CreateAdd(b.CreateMul(block[a], b.getInt64(ks.block[a])), thread[a]);
  return point;
}

// A thread at its place in the block's linear order (x fastest; thread_position gives the
// place of the running thread).
std::array<llvm::Value*, 3> thread_at(llvm::IRBuilder<>& b, const KernelState& ks, llvm::Value* linear) {
  llvm::Value* bx = b.getInt64(ks.block[0]);
  llvm::Value* by = b.getInt64(ks.block[1]);
  return {b.CreateURem(linear, bx), b.CreateURem(b.CreateUDiv(linear, bx), by), b.CreateUDiv(linear, b.CreateMul(bx, by))};
}

// The nodes of the kernel's scope beside the dynamic map: every thread runs them for its own
// point in phase 1, before it evaluates its range. Refused, naming the map and the node: code
// after the map (it would need the iterations' results, made by many threads, back in the
// owner's thread), and a value handed to the map straight from a node that is not an access
// node (a tasklet's result lives in the owner's registers only; a container can be shared).
Result<std::vector<int>> nodes_beside(const StateEmitter& se, int device_entry, int dynamic_entry) {
  const std::string where = se.where(dynamic_entry);
  const int dynamic_exit = se.state.exit_of(dynamic_entry);
  const int device_exit = se.state.exit_of(device_entry);
  if (dynamic_exit >= 0)
    for (int e : se.state.out_edges(dynamic_exit))
      if (int dst = se.state.edge(e)->dst; dst != device_exit)
        return make_error(Code::Unsupported, where + ": " + se.where(dst) + " runs after this GPU_ThreadBlock_Dynamic "
                                                     "map in its kernel's scope, and would need the iterations' results, "
                                                     "made by all the block's threads, in the thread that owns them");
  for (int e : se.state.in_edges(dynamic_entry)) {
    const ir::DataflowEdge& edge = *se.state.edge(e);
    if (edge.src == device_entry || edge.memlet.data.empty() || se.state.node(edge.src)->kind == ir::NodeKind::Access)
      continue;
    return make_error(Code::Unsupported, where + ": " + se.where_edge(e) + " hands it a value straight from " +
                                             se.where(edge.src) + "; a value computed beside a GPU_ThreadBlock_Dynamic "
                                             "map reaches the threads that run its iterations only through a container");
  }
  std::vector<int> beside;
  for (int id : se.scope_order(device_entry))
    if (id != dynamic_entry) beside.push_back(id);
  return beside;
}

// The containers of the kernel's scope (allocated there, per thread) that the dynamic map
// reads: written beside it by the owner's thread, they reach the threads running the owner's
// iterations through one shared-memory slot per thread. Only thread-private scalars can;
// anything else is refused naming it and the map.
Result<std::vector<std::string>> crossing_containers(const StateEmitter& se, int device_entry, int dynamic_entry) {
  std::set<std::string> read;
  auto inside_dynamic = [&](int id) {
    for (int p = id; p >= 0; p = se.parents[static_cast<size_t>(p)])
      if (p == dynamic_entry) return true;
    return false;
  };
  for (int e : se.state.edge_ids()) {
    const ir::DataflowEdge& edge = *se.state.edge(e);
    if (!edge.memlet.data.empty() && (edge.dst == dynamic_entry || inside_dynamic(edge.src) || inside_dynamic(edge.dst)))
      read.insert(edge.memlet.data);
  }
  // Written by the iterations: all threads running one owner's iterations would share that
  // owner's one slot (a race, and later iterations would read another's value, not the owner's).
  std::set<std::string> written;
  const int dynamic_exit = se.state.exit_of(dynamic_entry);
  for (int e : se.state.edge_ids()) {
    const ir::DataflowEdge& edge = *se.state.edge(e);
    const ir::Node* dst = se.state.node(edge.dst);
    if (dst && dst->kind == ir::NodeKind::Access && inside_dynamic(edge.dst))
      written.insert(static_cast<const ir::AccessNode&>(*dst).data);
    if (edge.dst == dynamic_exit && !edge.memlet.data.empty()) written.insert(edge.memlet.data);
  }
  std::vector<std::string> out;
  auto locals = se.scope_locals.find(device_entry);
  if (locals == se.scope_locals.end()) return out;
  for (const std::string& name : locals->second) {
    if (!read.count(name)) continue;
    const ir::DataDescriptor& d = se.sdfg.arrays.at(name);
    const bool thread_private = d.storage == ir::StorageType::Register || d.storage == ir::StorageType::Default;
    if (d.kind != ir::DataKind::Scalar || !thread_private)
      return make_error(Code::Unsupported, se.where(dynamic_entry) + ": \"" + name + "\", written beside this "
                                           "GPU_ThreadBlock_Dynamic map in its kernel's scope, is read by its iterations, "
                                           "which other threads run; only thread-private scalars can be passed to them");
    if (written.count(name))
      return make_error(Code::Unsupported, se.where(dynamic_entry) + ": its iterations write \"" + name + "\", which "
                                           "the code beside this GPU_ThreadBlock_Dynamic map in its kernel's scope "
                                           "hands to them; the threads running one owner's iterations would share "
                                           "that owner's one copy");
    out.push_back(name);
  }
  return out;
}

}  // namespace

Result<int> dynamic_map_of(const StateEmitter& se, int device_entry) {
  const std::vector<int> children = se.scope_order(device_entry);
  int found = -1;
  for (int id : children) {
    if (!is_dynamic_entry(se, id)) continue;
    if (found >= 0)
      return make_error(Code::Unsupported, se.where(id) + ": a second GPU_ThreadBlock_Dynamic map in the scope of one "
                                                          "GPU_Device map (" + se.where(found) + " is the first)");
    found = id;
  }
  if (found < 0) return -1;
  const std::string where = se.where(found);
  if (map_at(se, found).params.size() != 1)
    return make_error(Code::Unsupported, where + ": a GPU_ThreadBlock_Dynamic map must have one parameter (DaCe's too)");
  if (map_at(se, found).range.dims.empty()) return make_error(Code::InvalidSdfg, where + ": map without a range");
  Result<std::vector<int>> beside = nodes_beside(se, device_entry, found);
  if (!beside) return beside.take_error();
  Result<std::vector<std::string>> crossing = crossing_containers(se, device_entry, found);
  if (!crossing) return crossing.take_error();
  return found;
}

namespace {

// Binds each crossing container to the slot of thread `t` in its shared array.
void bind_crossing(codegen::Frame& f, const std::vector<std::string>& names, const std::vector<llvm::Value*>& arrays,
                   llvm::Value* t, bool own) {
  llvm::IRBuilder<>& b = f.b;
  for (size_t k = 0; k < names.size(); ++k) {
    const ir::DataDescriptor& d = f.sc.sdfg.arrays.at(names[k]);
    llvm::Type* ty = codegen::storage_type(f.mc.ctx, d.dtype.scalar);
    f.bind_data(names[k], codegen::DataBinding{b.CreateInBoundsGEP(ty, arrays[k], t), &d, own});
  }
}

}  // namespace

Status emit_dynamic_kernel(StateEmitter& se, DeviceModule& dm, int device_entry, int dynamic_entry) {
  Frame& f = *se.f;
  llvm::IRBuilder<>& b = f.b;
  KernelState& ks = *dm.kernel;
  const ir::MapScope& device = map_at(se, device_entry);
  const ir::MapScope& dynamic = map_at(se, dynamic_entry);
  const int64_t threads = ks.block[0] * ks.block[1] * ks.block[2];
  const std::string where = se.where(dynamic_entry);
  const auto saved_symbols = se.scope_symbols;
  Result<std::vector<int>> beside = nodes_beside(se, device_entry, dynamic_entry);
  if (!beside) return beside.take_error();
  Result<std::vector<std::string>> crossing = crossing_containers(se, device_entry, dynamic_entry);
  if (!crossing) return crossing.take_error();

  Result<std::vector<Dim>> dims = codegen::map_dimensions(f, device, device.params.size());
  if (!dims) return dims.take_error();
  const std::array<llvm::Value*, 3> extent = grid_extent(b, *dims);
  std::array<llvm::Value*, 3> block{};
  for (int axis = 0; axis < 3; ++axis) {
    Result<llvm::Value*> v = special_index(f, dm, Special::BlockIndex, axis);
    if (!v) return v.take_error();
    block[static_cast<size_t>(axis)] = *v;
  }
  // Each thread's range (start, step, trip count) where every thread of the block reads it.
  llvm::Type* i64 = b.getInt64Ty();
  auto* per_thread = llvm::ArrayType::get(i64, static_cast<uint64_t>(threads));
  std::array<llvm::Value*, 3> ranges{};  // starts, steps, trip counts
  const char* range_names[3] = {"dynmap_start", "dynmap_step", "dynmap_count"};
  for (size_t k = 0; k < 3; ++k) {
    Result<llvm::Value*> a = block_shared_array(f, dm, per_thread, threads * 8, range_names[k],
                                                "the thread ranges (" + std::string(range_names[k]) + ") of the "
                                                "GPU_ThreadBlock_Dynamic map " + where);
    if (!a) return a.take_error();
    ranges[k] = *a;
  }
  // And each thread's values of the scalars computed beside the map that its iterations read.
  std::vector<llvm::Value*> crossing_arrays;
  for (const std::string& name : *crossing) {
    llvm::Type* ty = codegen::storage_type(f.mc.ctx, se.sdfg.arrays.at(name).dtype.scalar);
    const int64_t bytes = static_cast<int64_t>(f.mc.module.getDataLayout().getTypeAllocSize(ty)) * threads;
    Result<llvm::Value*> a = block_shared_array(f, dm, llvm::ArrayType::get(ty, static_cast<uint64_t>(threads)), bytes,
                                                "dynmap_" + name, "the per-thread values of \"" + name + "\" that the "
                                                "GPU_ThreadBlock_Dynamic map " + where + " reads");
    if (!a) return a.take_error();
    crossing_arrays.push_back(*a);
  }
  llvm::Value* starts = ranges[0];
  llvm::Value* steps = ranges[1];
  llvm::Value* counts = ranges[2];
  auto slot = [&](llvm::Value* array, llvm::Value* t) { return b.CreateInBoundsGEP(i64, array, t); };

  // Phase 1: every thread within the map runs the code beside the dynamic map for its own
  // point, then evaluates its range; one past the map's end counts no iterations but still
  // reaches the barrier.
  ThreadLoop loop;
  if (dm.emulate) loop = begin_thread_loop(f, dm);
  Result<ThreadPosition> t3 = thread_position(f, dm);
  if (!t3) return t3.take_error();
  llvm::Value* tid = t3->linear;
  std::array<llvm::Value*, 3> own = owned_point(b, ks, block, t3->index);
  b.CreateStore(b.getInt64(0), slot(starts, tid));
  b.CreateStore(b.getInt64(1), slot(steps, tid));
  b.CreateStore(b.getInt64(0), slot(counts, tid));
  llvm::BasicBlock* work = llvm::BasicBlock::Create(f.mc.ctx, "dynmap.own", f.fn);
  llvm::BasicBlock* ranged = llvm::BasicBlock::Create(f.mc.ctx, "dynmap.ranged", f.fn);
  b.CreateCondBr(within(b, own, extent), work, ranged);
  b.SetInsertPoint(work);
  std::array<llvm::Value*, 3> thread_index = t3->index;
  f.push_scope();
  bind_point(se, f, device, *dims, own);
  bind_builtins(f, ks, &block, &thread_index);
  bind_grid_dim(f, dm);
  se.parallel_params = device.params;  // one point per thread here
  Status s = Status::success();
  if (!beside->empty()) {
    Result<std::vector<llvm::Value*>> locals = se.allocate_scope_locals(device_entry);
    if (!locals) s = locals.take_error();
    if (s.ok()) {
      bind_crossing(f, *crossing, crossing_arrays, tid, true);
      s = se.emit_nodes(*beside);
    }
    if (s.ok()) se.free_all(*locals);
  }
  if (s.ok()) s = codegen::bind_dynamic_map_inputs(se, dynamic_entry);
  Result<std::vector<Dim>> range = s.ok() ? codegen::map_dimensions(f, dynamic, 1) : Result<std::vector<Dim>>(s.error());
  f.pop_scope();
  se.scope_symbols = saved_symbols;
  if (!range) return range.take_error();
  b.CreateStore((*range)[0].start, slot(starts, tid));
  b.CreateStore((*range)[0].step, slot(steps, tid));
  b.CreateStore((*range)[0].count, slot(counts, tid));
  b.CreateBr(ranged);
  b.SetInsertPoint(ranged);
  if (dm.emulate) end_thread_loop(f, dm, loop);  // all threads' ranges are written: the barrier
  else b.CreateCall(llvm::Intrinsic::getDeclaration(&f.mc.module, llvm::Intrinsic::nvvm_barrier0));

  // Phase 2: the block goes through the owners' ranges in turn, each block-strided.
  // Iterations of one owner run on many threads: WCR the iteration does not determine is atomic.
  se.parallel_params = device.params;
  se.parallel_params.insert(se.parallel_params.end(), dynamic.params.begin(), dynamic.params.end());
  if (dm.emulate) loop = begin_thread_loop(f, dm);
  t3 = thread_position(f, dm);
  if (!t3) return t3.take_error();
  tid = t3->linear;
  thread_index = t3->index;
  // The kernel scope's containers: written beside the map in phase 1, only the crossing ones
  // are read here, from the owner's slots.
  Result<std::vector<llvm::Value*>> locals =
      beside->empty() ? se.allocate_scope_locals(device_entry) : Result<std::vector<llvm::Value*>>(std::vector<llvm::Value*>{});
  if (!locals) return locals.take_error();
  codegen::CountedLoop owners = codegen::begin_loop(b, b.getInt64(0), b.getInt64(threads), "dynmap.owner");
  llvm::Value* start = b.CreateLoad(i64, slot(starts, owners.iv), "dynmap.start");
  llvm::Value* step = b.CreateLoad(i64, slot(steps, owners.iv), "dynmap.step");
  llvm::Value* count = b.CreateLoad(i64, slot(counts, owners.iv), "dynmap.count");
  codegen::CountedLoop iterations = codegen::begin_loop(b, tid, count, "dynmap.k", b.getInt64(threads));
  f.push_scope();
  bind_point(se, f, device, *dims, owned_point(b, ks, block, thread_at(b, ks, owners.iv)));
  bind_builtins(f, ks, &block, &thread_index);
  bind_grid_dim(f, dm);
  bind_crossing(f, *crossing, crossing_arrays, owners.iv, false);
  s = codegen::bind_dynamic_map_inputs(se, dynamic_entry);
  if (s.ok()) {
    const std::string& p = dynamic.params[0];
    f.bind_symbol(p, codegen::SymbolBinding{b.CreateAdd(start, b.CreateMul(iterations.iv, step), p), ir::ScalarType::Int64, false});
    se.scope_symbols[p] = ir::ScalarType::Int64;
    s = codegen::emit_map_body(se, dynamic_entry);
  }
  f.pop_scope();
  se.scope_symbols = saved_symbols;
  if (!s.ok()) return s;
  codegen::end_loop(b, iterations);
  codegen::end_loop(b, owners);
  se.free_all(*locals);
  if (dm.emulate) end_thread_loop(f, dm, loop);
  return Status::success();
}

Status lower_misplaced_dynamic_map(codegen::ScopeContext& context) {
  return make_error(Code::Unsupported, context.se.where(context.entry) +
                                           ": a GPU_ThreadBlock_Dynamic map must be directly inside a GPU_Device map");
}

}  // namespace dace::cuda
