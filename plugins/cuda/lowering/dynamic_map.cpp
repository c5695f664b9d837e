#include "lowering/dynamic_map.h"

#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

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

// A thread's place in the block's linear order (x fastest), and back.
llvm::Value* linear_thread(llvm::IRBuilder<>& b, const KernelState& ks, const std::array<llvm::Value*, 3>& t) {
  return b.CreateAdd(t[0], b.CreateMul(b.getInt64(ks.block[0]), b.CreateAdd(t[1], b.CreateMul(b.getInt64(ks.block[1]), t[2]))));
}

std::array<llvm::Value*, 3> thread_at(llvm::IRBuilder<>& b, const KernelState& ks, llvm::Value* linear) {
  llvm::Value* bx = b.getInt64(ks.block[0]);
  llvm::Value* by = b.getInt64(ks.block[1]);
  return {b.CreateURem(linear, bx), b.CreateURem(b.CreateUDiv(linear, bx), by), b.CreateUDiv(linear, b.CreateMul(bx, by))};
}

Result<std::array<llvm::Value*, 3>> thread_index3(Frame& f, DeviceModule& dm) {
  std::array<llvm::Value*, 3> t{};
  for (int axis = 0; axis < 3; ++axis) {
    Result<llvm::Value*> v = special_index(f, dm, Special::ThreadIndex, axis);
    if (!v) return v.take_error();
    t[static_cast<size_t>(axis)] = *v;
  }
  return t;
}

}  // namespace

Result<int> dynamic_map_of(const StateEmitter& se, int device_entry) {
  const std::vector<int> children = se.scope_order(device_entry);
  int found = -1;
  for (int id : children)
    if (is_dynamic_entry(se, id)) found = id;
  if (found < 0) return -1;
  const std::string where = se.where(found);
  for (int id : children)
    if (id != found)
      return make_error(Code::Unsupported, where + ": a GPU_ThreadBlock_Dynamic map must be alone in the scope of its "
                                                   "GPU_Device map; " + se.where(id) + " is beside it");
  if (map_at(se, found).params.size() != 1)
    return make_error(Code::Unsupported, where + ": a GPU_ThreadBlock_Dynamic map must have one parameter (DaCe's too)");
  if (map_at(se, found).range.dims.empty()) return make_error(Code::InvalidSdfg, where + ": map without a range");
  return found;
}

Status emit_dynamic_kernel(StateEmitter& se, DeviceModule& dm, int device_entry, int dynamic_entry) {
  Frame& f = *se.f;
  llvm::IRBuilder<>& b = f.b;
  KernelState& ks = *dm.kernel;
  const ir::MapScope& device = map_at(se, device_entry);
  const ir::MapScope& dynamic = map_at(se, dynamic_entry);
  const int64_t threads = ks.block[0] * ks.block[1] * ks.block[2];
  se.parallel_params = device.params;
  // Iterations of one owner run on many threads: WCR the iteration does not determine is atomic.
  se.parallel_params.insert(se.parallel_params.end(), dynamic.params.begin(), dynamic.params.end());
  const auto saved_symbols = se.scope_symbols;

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
                                                "GPU_ThreadBlock_Dynamic map " + se.where(dynamic_entry));
    if (!a) return a.take_error();
    ranges[k] = *a;
  }
  llvm::Value* starts = ranges[0];
  llvm::Value* steps = ranges[1];
  llvm::Value* counts = ranges[2];
  auto slot = [&](llvm::Value* array, llvm::Value* t) { return b.CreateInBoundsGEP(i64, array, t); };

  // Phase 1: every thread (also one past the map's end, which must reach the barrier) its own
  // range; one past the end counts none and reads its inputs at the map's first point.
  ThreadLoop loop;
  if (dm.emulate) loop = begin_thread_loop(f, dm);
  Result<std::array<llvm::Value*, 3>> t3 = thread_index3(f, dm);
  if (!t3) return t3.take_error();
  llvm::Value* tid = linear_thread(b, ks, *t3);
  std::array<llvm::Value*, 3> own = owned_point(b, ks, block, *t3);
  llvm::Value* inside = within(b, own, extent);
  std::array<llvm::Value*, 3> clamped{};
  for (size_t a = 0; a < 3; ++a) clamped[a] = b.CreateSelect(inside, own[a], b.getInt64(0));
  std::array<llvm::Value*, 3> thread_index = *t3;
  f.push_scope();
  bind_point(se, f, device, *dims, clamped);
  bind_builtins(f, ks, &block, &thread_index);
  Status s = codegen::bind_dynamic_map_inputs(se, dynamic_entry);
  Result<std::vector<Dim>> range = s.ok() ? codegen::map_dimensions(f, dynamic, 1) : Result<std::vector<Dim>>(s.error());
  f.pop_scope();
  se.scope_symbols = saved_symbols;
  if (!range) return range.take_error();
  b.CreateStore((*range)[0].start, slot(starts, tid));
  b.CreateStore((*range)[0].step, slot(steps, tid));
  b.CreateStore(b.CreateSelect(inside, (*range)[0].count, b.getInt64(0)), slot(counts, tid));
  if (dm.emulate) end_thread_loop(f, dm, loop);  // all threads' ranges are written: the barrier
  else b.CreateCall(llvm::Intrinsic::getDeclaration(&f.mc.module, llvm::Intrinsic::nvvm_barrier0));

  // Phase 2: the block goes through the owners' ranges in turn, each block-strided.
  if (dm.emulate) loop = begin_thread_loop(f, dm);
  t3 = thread_index3(f, dm);
  if (!t3) return t3.take_error();
  tid = linear_thread(b, ks, *t3);
  thread_index = *t3;
  Result<std::vector<llvm::Value*>> locals = se.allocate_scope_locals(device_entry);
  if (!locals) return locals.take_error();
  codegen::CountedLoop owners = codegen::begin_loop(b, b.getInt64(0), b.getInt64(threads), "dynmap.owner");
  llvm::Value* start = b.CreateLoad(i64, slot(starts, owners.iv), "dynmap.start");
  llvm::Value* step = b.CreateLoad(i64, slot(steps, owners.iv), "dynmap.step");
  llvm::Value* count = b.CreateLoad(i64, slot(counts, owners.iv), "dynmap.count");
  codegen::CountedLoop iterations = codegen::begin_loop(b, tid, count, "dynmap.k", b.getInt64(threads));
  f.push_scope();
  bind_point(se, f, device, *dims, owned_point(b, ks, block, thread_at(b, ks, owners.iv)));
  bind_builtins(f, ks, &block, &thread_index);
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
                                           ": a GPU_ThreadBlock_Dynamic map must be directly inside a GPU_Device map "
                                           "(the only node of its scope)");
}

}  // namespace dace::cuda
