#include "codegen/allocation.h"

#include <llvm/IR/IntrinsicInst.h>

#include "codegen/loops.h"
#include "codegen/run_status.h"
#include "codegen/stream_queue.h"
#include "codegen/target_lowering.h"
#include "plugin/registry.h"
#include "ir/path.h"

namespace dace::codegen {

namespace {

// Stack slots beyond this many bytes go to the heap: threads have small stacks.
constexpr int64_t kMaxStackBytes = 4096;

std::set<std::string> shape_symbols(const ir::DataDescriptor& d) {
  std::set<std::string> out;
  auto add = [&](sym::Expr e) {
    if (!e) return;
    for (const std::string& s : sym::free_symbols(e)) out.insert(s);
  };
  for (sym::Expr e : d.shape) add(e);
  for (sym::Expr e : d.strides) add(e);
  for (sym::Expr e : d.offset) add(e);
  add(d.total_size);
  return out;
}

sym::Expr element_count(const ir::DataDescriptor& d) {
  if (d.total_size) return d.total_size;
  sym::Expr n = sym::integer(1);
  for (sym::Expr e : d.shape) n = sym::mul(n, e);
  return n;
}

std::optional<int64_t> constant_bytes(const ir::DataDescriptor& d) {
  std::optional<int64_t> n = sym::as_integer(sym::simplify(element_count(d)));
  if (!n) return std::nullopt;
  return *n * ir::element_size(d.dtype);
}

struct Usage {
  std::set<int> states;
  bool top_level_access = false;
  bool any_access = false;
};

// Streams live for the whole function (their queue headers are allocated on entry and
// their buffers freed on exit), so elements pushed in one state are there for the next.
Result<AllocKind> plan_stream(const ir::SDFG& sdfg, const std::string& name, const ir::DataDescriptor& d,
                              const Usage& u, const std::set<std::string>& assigned_symbols, bool top_level) {
  std::string where = ir::path_of_data(sdfg, name);
  if (!d.transient)
    return make_error(Code::Unsupported,
                      where + (top_level ? ": stream arguments cannot be compiled (DaCe passes a C++ stream object "
                                           "there; libdace has no host ABI for it): make the stream transient"
                                         : ": streams passed into nested SDFGs cannot be compiled yet"));
  if (!u.any_access) return AllocKind::Unused;
  if (d.lifetime == ir::Lifetime::Persistent || d.lifetime == ir::Lifetime::Global ||
      d.lifetime == ir::Lifetime::External)
    return make_error(Code::Unsupported, where + ": streams with lifetime " + ir::to_string(d.lifetime) +
                                             " (kept across calls) cannot be compiled yet");
  if (d.storage != ir::StorageType::Default && d.storage != ir::StorageType::CPU_Heap &&
      d.storage != ir::StorageType::Register)
    return make_error(Code::Unsupported, where + ": stream storage " + ir::to_string(d.storage) +
                                             " needs a plugin that is not part of the CPU lowering");
  if (!d.dtype.raw_json.empty() || !d.dtype.opaque.empty() || d.dtype.pointer_depth > 0 ||
      ir::scalar_type_size(d.dtype.scalar) <= 0)
    return make_error(Code::Unsupported, where + ": stream element type " + ir::to_string(d.dtype) +
                                             " cannot be compiled yet");
  for (const std::string& s : shape_symbols(d))
    if (assigned_symbols.count(s))
      return make_error(Code::Unsupported,
                        where + ": a stream whose shape depends on symbols assigned inside the SDFG cannot be compiled yet");
  if (!u.top_level_access)
    return make_error(Code::Unsupported,
                      where + ": streams accessed only inside scopes (one stream per scope instance) cannot be compiled yet");
  return AllocKind::FunctionHeap;
}

}  // namespace

Result<AllocationPlan> plan_allocations(const ir::SDFG& sdfg, const std::set<std::string>& assigned_symbols,
                                        bool top_level, const plugin::Registry* registry) {
  std::map<std::string, Usage> usage;
  AllocationPlan plan;
  for (const ir::State* st : sdfg.all_states()) {
    const std::vector<int>& parents = st->scope_parents();
    for (int id : st->node_ids()) {
      const ir::Node* n = st->node(id);
      if (n->kind != ir::NodeKind::Access) continue;
      const auto* a = static_cast<const ir::AccessNode*>(n);
      Usage& u = usage[a->data];
      u.any_access = true;
      u.states.insert(st->id);
      if (parents[id] < 0) u.top_level_access = true;
      if (a->setzero) plan.setzero.insert(a->data);
    }
  }
  for (const auto& [name, d] : sdfg.arrays) {
    AllocKind k;
    if (d.kind == ir::DataKind::Stream) {
      Result<AllocKind> sk = plan_stream(sdfg, name, d, usage[name], assigned_symbols, top_level);
      if (!sk) return sk.take_error();
      plan.kind[name] = *sk;
      continue;
    }
    if (!d.transient) {
      // The C ABI passes dace_dtype_t scalars; a struct argument would need the host to know
      // libdace's layout. DaCe's frontend writes struct transients only.
      if (std::optional<ir::StructLayout> layout = ir::struct_layout(d.dtype); top_level && layout)
        return make_error(Code::Unsupported, ir::path_of_data(sdfg, name) + ": struct element type " +
                                                 layout->name + " cannot be a program argument");
      k = AllocKind::External;
    } else if (d.kind == ir::DataKind::View) {
      k = AllocKind::View;
    } else if (d.kind == ir::DataKind::Reference) {
      k = AllocKind::Reference;
    } else {
      // A storage outside the host's is allocated by the plugin that registered it
      // (allocate_container): once for the whole call, or where its scope allocates it
      // (planned like a host transient), as the plugin says.
      const Usage& u = usage[name];
      bool depends_on_assigned = false;
      for (const std::string& s : shape_symbols(d))
        if (assigned_symbols.count(s)) depends_on_assigned = true;
      std::shared_ptr<const plugin::StorageLowering> owner =
          !is_host_storage(d.storage) && registry ? registry->find_storage(ir::to_string(d.storage)) : nullptr;
      if (!is_host_storage(d.storage) && !owner)
        return make_error(Code::Unsupported, ir::path_of_data(sdfg, name) + ": storage " + ir::to_string(d.storage) +
                                                 " needs a plugin that is not part of the CPU lowering");
      // A host storage a plugin registers (the CUDA plugin's CPU_Pinned: page-locked through
      // its driver) is the core's to address and the plugin's to allocate, for an array that
      // lives through the call: one used only inside scopes (thread-private in a parallel map,
      // allocated per iteration), one kept across calls or sized by symbols set inside the
      // SDFG, and every one without such a plugin, is ordinary heap memory.
      if (is_host_storage(d.storage) && registry && top_level && u.top_level_access &&
          !depends_on_assigned && d.kind == ir::DataKind::Array && d.lifetime != ir::Lifetime::Persistent &&
          d.lifetime != ir::Lifetime::Global && d.lifetime != ir::Lifetime::External) {
        owner = registry->find_storage(ir::to_string(d.storage));
        if (owner) plan.plugin_allocated.insert(name);
      }
      const bool call_wide = owner && owner->transient_placement() == plugin::StorageLowering::TransientPlacement::Call;
      if (d.dtype.pointer_depth > 0 ||
          (!d.dtype.raw_json.empty() && !ir::struct_layout(d.dtype)))
        return make_error(Code::Unsupported, ir::path_of_data(sdfg, name) + ": element type " + ir::to_string(d.dtype) +
                                                 " cannot be compiled yet");
      std::optional<int64_t> bytes = constant_bytes(d);
      bool small = bytes && *bytes <= kMaxStackBytes;
      if (call_wide) {
        // One allocation for the whole call, whatever scope uses it (even none: its storage
        // still needs the plugin that owns it).
        // Sized by symbols set inside the SDFG: held for the call, renewed by the states using
        // it, when the plugin renews blocks.
        if (depends_on_assigned && !owner->renews_blocks())
          return make_error(Code::Unsupported, ir::path_of_data(sdfg, name) + ": a " + ir::to_string(d.storage) +
                                                   " container whose size depends on symbols set inside "
                                                   "the SDFG cannot be allocated yet");
        k = depends_on_assigned ? AllocKind::LazyHeap : AllocKind::FunctionHeap;
      } else if (!u.any_access) {
        k = AllocKind::Unused;
      } else if (top_level && d.lifetime == ir::Lifetime::Persistent && !depends_on_assigned) k = AllocKind::Persistent;
      else if (u.any_access && !u.top_level_access) k = AllocKind::ScopeLocal;
      else if (d.kind == ir::DataKind::Scalar || (small && d.lifetime == ir::Lifetime::Scope)) k = AllocKind::StackSlot;
      else if (!depends_on_assigned) k = AllocKind::FunctionHeap;
      else if (u.states.size() == 1) {
        k = AllocKind::StateHeap;
        plan.state_block[name] = *u.states.begin();
      } else {
        k = AllocKind::LazyHeap;
      }
    }
    plan.kind[name] = k;
  }
  return plan;
}

namespace {

// The failures a size computation can find, in the order they are checked; the first that
// holds is reported.
struct SizeCheck {
  llvm::Value* failed;  // i1
  RunStatus code;
  std::string what;
  llvm::Value* value;  // i64
};

std::string dims_text(const ir::DataDescriptor& d) {
  std::string t;
  for (size_t i = 0; i < d.shape.size(); ++i) t += (i ? ", " : "") + (d.shape[i] ? sym::to_string(d.shape[i]) : "?");
  return "(" + t + ")";
}

std::string symbols_text(sym::Expr e) {
  std::string t;
  if (!e) return t;
  for (const std::string& s : sym::free_symbols(e)) t += (t.empty() ? "" : ", ") + s;
  return t.empty() ? "" : " (symbol" + std::string(sym::free_symbols(e).size() > 1 ? "s " : " ") + t + ")";
}

}  // namespace

Result<CheckedSize> checked_allocation_size(Frame& f, const std::string& name, const ir::DataDescriptor& desc) {
  llvm::IRBuilder<>& b = f.b;
  const std::string where = ir::path_of_data(f.sc.sdfg, name);
  std::vector<SizeCheck> checks;
  llvm::Value* overflow = b.getFalse();
  // Each extent on its own first: a negative one is named with its expression.
  std::vector<llvm::Value*> extents;
  for (size_t i = 0; i < desc.shape.size(); ++i) {
    llvm::Value* o = nullptr;
    Result<llvm::Value*> v = f.sym_checked(desc.shape[i], o);
    if (!v) return v.take_error();
    overflow = or_flag(b, overflow, o);
    extents.push_back(*v);
    checks.push_back({b.CreateICmpSLT(*v, b.getInt64(0)), RunStatus::NegativeExtent,
                      where + ": dimension " + std::to_string(i) + " has a negative extent, " +
                          sym::to_string(desc.shape[i]) + symbols_text(desc.shape[i]) + " =",
                      *v});
  }
  llvm::Value* elems = nullptr;
  std::optional<SizeCheck> total_negative;  // after the overflow check: a wrapped product looks negative
  if (desc.total_size) {
    llvm::Value* o = nullptr;
    Result<llvm::Value*> v = f.sym_checked(desc.total_size, o);
    if (!v) return v.take_error();
    overflow = or_flag(b, overflow, o);
    elems = *v;
    total_negative = SizeCheck{b.CreateICmpSLT(elems, b.getInt64(0)), RunStatus::NegativeExtent,
                               where + ": total size " + sym::to_string(desc.total_size) +
                                   symbols_text(desc.total_size) + " is negative:",
                               elems};
  } else {
    elems = b.getInt64(1);
    for (llvm::Value* e : extents) elems = checked_index(b, llvm::Intrinsic::smul_with_overflow, elems, e, overflow);
  }
  if (desc.start_offset) {
    llvm::Value* o = nullptr;
    Result<llvm::Value*> so = f.sym_checked(desc.start_offset, o);
    if (!so) return so.take_error();
    overflow = or_flag(b, overflow, o);
    elems = checked_index(b, llvm::Intrinsic::sadd_with_overflow, elems, *so, overflow);
  }
  llvm::Value* bytes =
      checked_index(b, llvm::Intrinsic::smul_with_overflow, elems, b.getInt64(std::max(1, ir::element_size(desc.dtype))), overflow);
  // heap_allocate rounds up to 64 bytes: keep that from wrapping too.
  overflow = or_flag(b, overflow, b.CreateICmpSGT(bytes, b.getInt64(INT64_MAX - 64)));
  checks.push_back({overflow, RunStatus::SizeOverflow,
                    where + ": size in bytes of shape " + dims_text(desc) + " overflows 64 bits", b.getInt64(0)});
  if (total_negative) checks.push_back(*total_negative);

  // The first failing check decides: build the selects from the last one up.
  CheckedSize out;
  out.bytes = bytes;
  out.code = b.getInt32(0);
  out.what = llvm::ConstantPointerNull::get(b.getPtrTy());
  out.value = b.getInt64(0);
  for (auto it = checks.rbegin(); it != checks.rend(); ++it) {
    out.code = b.CreateSelect(it->failed, b.getInt32(static_cast<int32_t>(it->code)), out.code);
    out.what = b.CreateSelect(it->failed, b.CreateGlobalString(it->what, "status.what"), out.what);
    out.value = b.CreateSelect(it->failed, it->value, out.value);
  }
  out.oom_what = b.CreateGlobalString(where + ": cannot allocate", "status.what");
  return out;
}

llvm::Value* checked_bytes_or_zero(Frame& f, const CheckedSize& size) {
  llvm::IRBuilder<>& b = f.b;
  llvm::BasicBlock* bad = llvm::BasicBlock::Create(f.mc.ctx, "size.bad", f.fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(f.mc.ctx, "size.done", f.fn);
  llvm::BasicBlock* before = b.GetInsertBlock();
  b.CreateCondBr(b.CreateICmpNE(size.code, b.getInt32(0)), bad, done);
  b.SetInsertPoint(bad);
  f.record_failure(size.code, size.what, size.value);
  llvm::BasicBlock* bad_end = b.GetInsertBlock();
  b.CreateBr(done);
  b.SetInsertPoint(done);
  llvm::PHINode* phi = b.CreatePHI(b.getInt64Ty(), 2);
  phi->addIncoming(size.bytes, before);
  phi->addIncoming(b.getInt64(0), bad_end);
  return phi;
}

llvm::Value* checked_heap_allocate(Frame& f, const CheckedSize& size, bool zero) {
  return checked_allocate_with(f, size, zero, [&f](llvm::Value* bytes) { return heap_allocate(f, bytes, false); });
}

llvm::Value* checked_allocate_with(Frame& f, const CheckedSize& size, bool zero,
                                   const std::function<llvm::Value*(llvm::Value* bytes)>& allocate) {
  llvm::IRBuilder<>& b = f.b;
  llvm::PointerType* ptr_ty = b.getPtrTy();
  llvm::BasicBlock* bad = size.reported_earlier ? nullptr : llvm::BasicBlock::Create(f.mc.ctx, "size.bad", f.fn);
  llvm::BasicBlock* good = llvm::BasicBlock::Create(f.mc.ctx, "size.ok", f.fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(f.mc.ctx, "alloc.done", f.fn);
  llvm::BasicBlock* bad_end = b.GetInsertBlock();  // a bad size goes straight to `done`
  b.CreateCondBr(b.CreateICmpNE(size.code, b.getInt32(0)), bad ? bad : done, good);
  if (bad) {
    b.SetInsertPoint(bad);
    f.record_failure(size.code, size.what, size.value);
    bad_end = b.GetInsertBlock();
    b.CreateBr(done);
  }
  b.SetInsertPoint(good);
  llvm::Value* p = allocate(size.bytes);
  llvm::BasicBlock* oom = llvm::BasicBlock::Create(f.mc.ctx, "alloc.null", f.fn);
  llvm::BasicBlock* fine = llvm::BasicBlock::Create(f.mc.ctx, "alloc.ok", f.fn);
  b.CreateCondBr(b.CreateIsNull(p), oom, fine);
  b.SetInsertPoint(oom);
  f.record_failure(b.getInt32(static_cast<int32_t>(RunStatus::OutOfMemory)), size.oom_what, size.bytes);
  llvm::BasicBlock* oom_end = b.GetInsertBlock();
  b.CreateBr(done);
  b.SetInsertPoint(fine);
  if (zero) {
    llvm::Value* rounded = b.CreateAnd(b.CreateAdd(size.bytes, b.getInt64(63)), b.getInt64(~int64_t{63}));
    b.CreateMemSet(p, b.getInt8(0), rounded, llvm::MaybeAlign(64));
  }
  llvm::BasicBlock* fine_end = b.GetInsertBlock();
  b.CreateBr(done);
  b.SetInsertPoint(done);
  llvm::PHINode* phi = b.CreatePHI(ptr_ty, 3);
  phi->addIncoming(llvm::ConstantPointerNull::get(ptr_ty), bad_end);
  phi->addIncoming(llvm::ConstantPointerNull::get(ptr_ty), oom_end);
  phi->addIncoming(p, fine_end);
  return phi;
}

void leave_if_any_null(Frame& f, const std::vector<llvm::Value*>& ptrs) {
  f.batch_sizes.clear();
  if (ptrs.empty()) return;
  llvm::Value* any = f.b.getFalse();
  for (llvm::Value* p : ptrs) any = or_flag(f.b, any, f.b.CreateIsNull(p));
  f.leave_if(any);
}

llvm::Value* heap_allocate(Frame& f, llvm::Value* bytes, bool zero) {
  llvm::IRBuilder<>& b = f.b;
  // aligned_alloc wants a multiple of the alignment; at least one block so the pointer is unique.
  llvm::Value* rounded = b.CreateAnd(b.CreateAdd(bytes, b.getInt64(63)), b.getInt64(~int64_t{63}));
  rounded = b.CreateSelect(b.CreateICmpSGT(rounded, b.getInt64(0)), rounded, b.getInt64(64));
  llvm::Value* p = b.CreateCall(f.mc.malloc_fn(), {b.getInt64(64), rounded});
  if (zero) b.CreateMemSet(p, b.getInt8(0), rounded, llvm::MaybeAlign(64));
  return p;
}

void heap_free(llvm::IRBuilder<>& b, ModuleContext& mc, llvm::Value* ptr) { b.CreateCall(mc.free_fn(), {ptr}); }

namespace {

// A heap block kept in (*ptr_slot, *cap_slot) across uses, renewed when there is none yet,
// when it is too small for `size`, or when `size` failed its checks (the allocation then
// records the failure and yields null). Emits the test and the renewing branch `grow_name`
// (free the held block, allocate, store the new block and its capacity: 0 when null) and
// leaves the builder at the end of that branch, unterminated; the other branch goes to the
// new block `otherwise_name`.
struct HeldBlockRenewal {
  llvm::Value* held = nullptr;             // the block held before
  llvm::BasicBlock* held_from = nullptr;   // where the test branched (the held block's edge)
  llvm::Value* fresh = nullptr;            // the new block (null on failure)
  llvm::BasicBlock* fresh_end = nullptr;   // the end of the renewing branch
  llvm::BasicBlock* otherwise = nullptr;   // taken when the held block is kept
};

// How a held block is released and a new one allocated (null after a recorded failure).
struct BlockCalls {
  std::function<void(llvm::Value* held)> release;
  std::function<llvm::Value*(const CheckedSize& size)> allocate;
};

BlockCalls host_block_calls(Frame& f, bool zero) {
  return {[&f](llvm::Value* held) { heap_free(f.b, f.mc, held); },
          [&f, zero](const CheckedSize& size) { return checked_heap_allocate(f, size, zero); }};
}

HeldBlockRenewal renew_held_block(Frame& f, const std::string& name, const CheckedSize& size, llvm::Value* ptr_slot,
                                  llvm::Value* cap_slot, const BlockCalls& calls, const char* grow_name,
                                  const char* otherwise_name) {
  llvm::IRBuilder<>& b = f.b;
  HeldBlockRenewal r;
  r.held = b.CreateLoad(b.getPtrTy(), ptr_slot, name + ".held");
  llvm::Value* capacity = b.CreateLoad(b.getInt64Ty(), cap_slot);
  llvm::Value* renew = b.CreateOr(b.CreateOr(b.CreateIsNull(r.held), b.CreateICmpNE(size.code, b.getInt32(0))),
                                  b.CreateICmpSGT(size.bytes, capacity));
  llvm::BasicBlock* grow = llvm::BasicBlock::Create(f.mc.ctx, grow_name, f.fn);
  r.otherwise = llvm::BasicBlock::Create(f.mc.ctx, otherwise_name, f.fn);
  r.held_from = b.GetInsertBlock();
  b.CreateCondBr(renew, grow, r.otherwise);
  b.SetInsertPoint(grow);
  calls.release(r.held);
  r.fresh = calls.allocate(size);
  b.CreateStore(r.fresh, ptr_slot);
  // A failed allocation leaves capacity 0, so the slot (null) is consistent for the free
  // that releases it.
  b.CreateStore(b.CreateSelect(b.CreateIsNull(r.fresh), b.getInt64(0), size.bytes), cap_slot);
  r.fresh_end = b.GetInsertBlock();
  return r;
}

// The plugin lowering the storage of a container (device memory, or host memory a plugin
// allocates); null when none is registered.
std::shared_ptr<const plugin::StorageLowering> storage_plugin(Frame& f, const std::string&, const ir::DataDescriptor& d) {
  const plugin::Registry* registry = f.mc.options.registry;
  return registry ? registry->find_storage(ir::to_string(d.storage)) : nullptr;
}

}  // namespace

Status bind_lazy_container(Frame& f, const std::string& name) {
  auto slot = f.lazy_slots.find(name);
  auto it = f.sc.sdfg.arrays.find(name);
  if (slot == f.lazy_slots.end() || it == f.sc.sdfg.arrays.end())
    return make_error(Code::Internal, f.sc.path + ": no storage slot for \"" + name + "\"");
  llvm::IRBuilder<>& b = f.b;
  // The size may depend on symbols set inside the SDFG: grow the block when a state needs
  // more than the states before it (contents do not survive a shape change).
  Result<CheckedSize> size = checked_allocation_size(f, name, it->second);
  if (!size) return size.take_error();
  const bool zero = f.sc.plan.setzero.count(name) > 0;
  BlockCalls calls = host_block_calls(f, zero);
  Status lowered = Status::success();
  if (!is_host_storage(it->second.storage)) {
    // Device memory: the plugin that owns the storage allocates and releases the blocks.
    std::shared_ptr<const plugin::StorageLowering> storage = storage_plugin(f, name, it->second);
    if (!storage) return make_error(Code::Internal, ir::path_of_data(f.sc.sdfg, name) + ": no plugin holds its storage");
    const ir::DataDescriptor* desc = &it->second;
    calls.release = [&f, storage, &name, desc](llvm::Value* held) {
      AllocationContext ctx(f, name, *desc, nullptr);
      ctx.held = held;
      storage->lower_block_release(ctx);
    };
    calls.allocate = [&f, storage, &name, desc, zero, &lowered](const CheckedSize& checked) {
      return checked_allocate_with(f, checked, false, [&](llvm::Value* bytes) -> llvm::Value* {
        AllocationContext ctx(f, name, *desc, nullptr);
        ctx.bytes = bytes;
        ctx.zero = zero;
        Status s = storage->lower_block_allocate(ctx);
        if (!s.ok() || !ctx.bound) {
          if (lowered.ok()) lowered = s.ok() ? make_error(Code::Internal, ir::path_of_data(f.sc.sdfg, name) + ": the storage allocated nothing") : s;
          return llvm::ConstantPointerNull::get(f.b.getPtrTy());
        }
        return ctx.bound;
      });
    };
  }
  HeldBlockRenewal r = renew_held_block(f, name, *size, slot->second.first, slot->second.second, calls, "lazy.alloc",
                                        "lazy.done");
  if (!lowered.ok()) return lowered;
  b.CreateBr(r.otherwise);
  b.SetInsertPoint(r.otherwise);
  llvm::PHINode* phi = b.CreatePHI(b.getPtrTy(), 2, name);
  phi->addIncoming(r.held, r.held_from);
  phi->addIncoming(r.fresh, r.fresh_end);
  leave_if_any_null(f, {phi});
  f.bind_data(name, DataBinding{phi, &it->second, false});
  return Status::success();
}

namespace {

Result<std::vector<llvm::Value*>> allocate_stream_container(Frame& f, const std::string& name, AllocKind kind,
                                                            const ir::DataDescriptor& d) {
  if (kind != AllocKind::FunctionHeap)
    return make_error(Code::Internal, f.sc.path + ": stream \"" + name + "\" planned outside the function heap");
  Result<llvm::Value*> count = stream_count(f, d);
  if (!count) return count.take_error();
  Result<llvm::Value*> headers = allocate_stream(f, d);
  if (!headers) return headers.take_error();
  f.bind_data(name, DataBinding{*headers, &d, false});
  ModuleContext& mc = f.mc;
  llvm::Value* h = *headers;
  llvm::Value* n = *count;
  f.exit_actions.push_back([h, n, &mc](llvm::IRBuilder<>& b) { release_stream(b, mc, h, n); });
  return std::vector<llvm::Value*>{};
}

// The checked size of a heap block of the current batch: computed here, or taken from an
// earlier block of the batch with the same size inputs (Frame::batch_sizes). That block's
// checks ran on every path to this one and recorded a failure, which the status record
// keeps over any later one, so this block's own record could never be seen: it gets none,
// only its own text for an allocator failure.
Result<CheckedSize> batch_checked_size(Frame& f, const std::string& name, const ir::DataDescriptor& d) {
  SizeInputs inputs{d.shape, d.total_size, d.start_offset, std::max(1, ir::element_size(d.dtype))};
  for (const auto& [earlier, size] : f.batch_sizes) {
    if (!(earlier == inputs)) continue;
    CheckedSize reused = size;
    reused.reported_earlier = true;
    reused.oom_what = f.b.CreateGlobalString(ir::path_of_data(f.sc.sdfg, name) + ": cannot allocate", "status.what");
    return reused;
  }
  Result<CheckedSize> size = checked_allocation_size(f, name, d);
  if (size) f.batch_sizes.emplace_back(std::move(inputs), *size);
  return size;
}

llvm::Value* save_stack(Frame& f) { return f.b.CreateStackSave("stack.mark"); }

// A stack array of symbolic size in device code: `alloca i8, bytes` where the container is
// allocated. Except for a function-lifetime one (released by the function's return), the
// stack pointer is saved first and the saved value returned in the list of blocks to free:
// StateEmitter::free_all restores it (is_stack_mark), so a loop around the scope does not
// grow the stack.
Result<std::vector<llvm::Value*>> device_stack_array(Frame& f, const std::string& name, const ir::DataDescriptor& d,
                                                     AllocKind kind, bool zero, bool thread_local_storage) {
  llvm::IRBuilder<>& b = f.b;
  Result<CheckedSize> size = checked_allocation_size(f, name, d);
  if (!size) return size.take_error();
  // A size that fails its checks (negative, overflowing) gets the smallest array instead:
  // device code has no status to report it through.
  const int64_t align = std::max<int64_t>(16, llvm::PowerOf2Ceil(static_cast<uint64_t>(std::max(1, ir::element_size(d.dtype)))));
  llvm::Value* ok = b.CreateAnd(b.CreateICmpEQ(size->code, b.getInt32(0)), b.CreateICmpSGT(size->bytes, b.getInt64(0)));
  llvm::Value* bytes = b.CreateSelect(ok, size->bytes, b.getInt64(align));
  std::vector<llvm::Value*> marks;
  if (kind != AllocKind::FunctionHeap) marks.push_back(save_stack(f));
  // NVPTX's dynamic alloca needs an alignment above the stack's own (8) to print a valid one.
  llvm::AllocaInst* array = b.CreateAlloca(b.getInt8Ty(), bytes, name);
  array->setAlignment(llvm::Align(static_cast<uint64_t>(align)));
  if (zero) b.CreateMemSet(array, b.getInt8(0), bytes, array->getAlign());
  f.bind_data(name, DataBinding{array, &d, thread_local_storage});
  return marks;
}

// A ScopeLocal container whose block the enclosing map keeps for all its scope instances
// (Frame::reused_blocks): the held block when it is large enough, else a new one (the old
// freed). Its size is computed and checked here, for this instance, exactly as a fresh
// block's; only the allocator call is saved. The contents are whatever the previous instance
// left, which DaCe's Scope lifetime allows (a scope instance starts with undefined contents),
// except that a setzero container is zeroed for every instance. On failure the function
// leaves at once (the block is not part of the caller's batch: leave() frees it through the
// slot).
Result<std::vector<llvm::Value*>> reuse_scope_block(Frame& f, const std::string& name, const ir::DataDescriptor& d,
                                                    const Frame::ReusedBlock& slot, bool zero, bool thread_local_storage) {
  llvm::IRBuilder<>& b = f.b;
  Result<CheckedSize> size = batch_checked_size(f, name, d);
  if (!size) return size.take_error();
  HeldBlockRenewal r =
      renew_held_block(f, name, *size, slot.ptr, slot.bytes, host_block_calls(f, zero), "reuse.grow", "reuse.keep");
  llvm::BasicBlock* done = llvm::BasicBlock::Create(f.mc.ctx, "reuse.done", f.fn);
  b.CreateBr(done);
  b.SetInsertPoint(r.otherwise);
  if (zero) {
    llvm::Value* rounded = b.CreateAnd(b.CreateAdd(size->bytes, b.getInt64(63)), b.getInt64(~int64_t{63}));
    b.CreateMemSet(r.held, b.getInt8(0), rounded, llvm::MaybeAlign(64));
  }
  llvm::BasicBlock* keep_end = b.GetInsertBlock();
  b.CreateBr(done);
  b.SetInsertPoint(done);
  llvm::PHINode* p = b.CreatePHI(b.getPtrTy(), 2, name);
  p->addIncoming(r.fresh, r.fresh_end);
  p->addIncoming(r.held, keep_end);
  f.leave_if(b.CreateIsNull(p));
  f.bind_data(name, DataBinding{p, &d, thread_local_storage});
  return std::vector<llvm::Value*>{};
}

}  // namespace

bool scope_local_on_heap(const Frame& f, const ir::DataDescriptor& d) {
  if (d.kind == ir::DataKind::Stream || !is_host_storage(d.storage) || is_device_code(f)) return false;
  std::optional<int64_t> bytes = constant_bytes(d);
  return !(bytes && *bytes <= kMaxStackBytes);
}

// LLVM's own intrinsics: a target that cannot select them rewrites them (the CUDA plugin's
// device-module finisher turns them into PTX's stacksave/stackrestore).
bool is_stack_mark(const llvm::Value* v) {
  const auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(v);
  return intrinsic && intrinsic->getIntrinsicID() == llvm::Intrinsic::stacksave;
}

void restore_stack(llvm::IRBuilder<>& b, llvm::Value* mark) { b.CreateStackRestore(mark); }

namespace {

// The slot of a LazyHeap container: its block (null) and capacity (0) from the function's entry.
std::pair<llvm::AllocaInst*, llvm::AllocaInst*> lazy_slot(Frame& f, const std::string& name) {
  llvm::PointerType* ptr_ty = llvm::PointerType::getUnqual(f.mc.ctx);
  llvm::AllocaInst* slot = f.entry_alloca(ptr_ty, name + ".ptr");
  llvm::AllocaInst* cap = f.entry_alloca(f.b.getInt64Ty(), name + ".bytes");
  llvm::IRBuilder<> eb(f.entry_block()->getTerminator());
  eb.CreateStore(llvm::ConstantPointerNull::get(ptr_ty), slot);
  eb.CreateStore(eb.getInt64(0), cap);
  return {slot, cap};
}

}  // namespace

Result<std::vector<llvm::Value*>> allocate_container(Frame& f, const std::string& name, AllocKind kind,
                                                     bool thread_local_storage) {
  auto it = f.sc.sdfg.arrays.find(name);
  if (it == f.sc.sdfg.arrays.end()) return make_error(Code::InvalidSdfg, f.sc.path + ": no data container \"" + name + "\"");
  const ir::DataDescriptor& d = it->second;
  if (d.kind == ir::DataKind::Stream) return allocate_stream_container(f, name, kind, d);
  bool zero = f.sc.plan.setzero.count(name) > 0;
  llvm::Type* et = element_storage_type(f.mc.ctx, d.dtype);
  const int64_t elem_bytes = std::max(1, ir::element_size(d.dtype));
  std::vector<llvm::Value*> to_free;
  std::optional<int64_t> bytes = constant_bytes(d);
  // Allocated or bound by its plugin below.
  const bool plugin_storage = !is_host_storage(d.storage) || f.sc.plan.plugin_allocated.count(name) > 0;
  // Device code (a plugin's device module: GPU kernels and the functions they call) has no
  // heap, and each thread needs its own instance of a transient allocated there (DaCe's
  // per-thread Register/Scope semantics). So every host-storage transient it allocates is a
  // stack array of the device function: a fixed one when its size is constant (whatever the
  // size), else a dynamic one (device_stack_array) released where the heap block would be freed.
  const bool device = !plugin_storage && is_device_code(f) &&
                      (kind == AllocKind::ScopeLocal || kind == AllocKind::StateHeap || kind == AllocKind::FunctionHeap ||
                       kind == AllocKind::LazyHeap);
  if (device && !bytes) {
    if (kind == AllocKind::LazyHeap)
      return make_error(Code::Unsupported, ir::path_of_data(f.sc.sdfg, name) +
                                               ": a container in device code whose size depends on symbols set inside "
                                               "the SDFG cannot be compiled");
    return device_stack_array(f, name, d, kind, zero, thread_local_storage);
  }
  bool stack = !plugin_storage && (kind == AllocKind::StackSlot || device ||
                                   (kind == AllocKind::ScopeLocal && bytes && *bytes <= kMaxStackBytes));
  if (stack) {
    int64_t n = bytes ? std::max<int64_t>(1, *bytes / elem_bytes) : 1;
    llvm::AllocaInst* slot = f.entry_alloca(n == 1 ? et : llvm::ArrayType::get(et, static_cast<uint64_t>(n)), name);
    slot->setAlignment(llvm::Align(std::min<uint64_t>(64, llvm::PowerOf2Ceil(static_cast<uint64_t>(std::max<int64_t>(8, elem_bytes))))));
    if (zero) f.b.CreateMemSet(slot, f.b.getInt8(0), f.b.getInt64(n * elem_bytes), slot->getAlign());
    f.bind_data(name, DataBinding{slot, &d, thread_local_storage});
    return to_free;
  }
  if (kind == AllocKind::LazyHeap && !is_host_storage(d.storage)) {
    // Device memory sized by symbols set inside the SDFG: a slot the states using it fill
    // (bind_lazy_container), its block released on the way out by the plugin.
    std::shared_ptr<const plugin::StorageLowering> storage = storage_plugin(f, name, d);
    if (!storage || !storage->renews_blocks())
      return make_error(Code::Internal, ir::path_of_data(f.sc.sdfg, name) + ": its storage does not renew blocks");
    llvm::PointerType* ptr_ty = llvm::PointerType::getUnqual(f.mc.ctx);
    auto [slot, cap] = lazy_slot(f, name);
    Frame* frame = &f;
    f.exit_actions.push_back([frame, storage, slot, ptr_ty, name, &d](llvm::IRBuilder<>& b) {
      AllocationContext ctx(*frame, name, d, nullptr);
      ctx.held = b.CreateLoad(ptr_ty, slot);
      storage->lower_block_release(ctx);
    });
    f.lazy_slots[name] = {slot, cap};
    return to_free;
  }
  if (kind == AllocKind::LazyHeap && !plugin_storage) {
    llvm::PointerType* ptr_ty = llvm::PointerType::getUnqual(f.mc.ctx);
    auto [slot, cap] = lazy_slot(f, name);
    ModuleContext& mc = f.mc;
    f.exit_actions.push_back([slot, ptr_ty, &mc](llvm::IRBuilder<>& b) { heap_free(b, mc, b.CreateLoad(ptr_ty, slot)); });
    // Allocation happens in the states using it (bind_lazy_container).
    f.lazy_slots[name] = {slot, cap};
    return to_free;
  }
  if (plugin_storage) {
    const std::string storage_name = ir::to_string(d.storage);
    const plugin::Registry* registry = f.mc.options.registry;
    std::shared_ptr<const plugin::StorageLowering> storage = registry ? registry->find_storage(storage_name) : nullptr;
    if (!storage)
      return make_error(Code::Unsupported, ir::path_of_data(f.sc.sdfg, name) + ": storage " + storage_name +
                                               " needs a plugin that is not part of the CPU lowering");
    AllocationContext ctx(f, name, d, nullptr);
    ctx.zero = zero;
    DACE_TRY(storage->lower_allocation(ctx));
    if (!ctx.bound)
      return make_error(Code::Internal, ir::path_of_data(f.sc.sdfg, name) + ": the " + storage_name + " storage allocated nothing");
    // Memory the threads of a scope share (a block's): write-conflict resolution stays atomic.
    f.bind_data(name, DataBinding{ctx.bound, &d, thread_local_storage && !storage->shared_by_threads()});
    // Host code dereferences host storage itself: the batch leaves when the block is null.
    if (is_host_storage(d.storage)) f.pending_allocations.push_back(ctx.bound);
    return to_free;
  }
  if (kind == AllocKind::ScopeLocal)
    if (auto r = f.reused_blocks.find(name); r != f.reused_blocks.end() && r->second.active)
      return reuse_scope_block(f, name, d, r->second, zero, thread_local_storage);
  Result<CheckedSize> size = batch_checked_size(f, name, d);
  if (!size) return size.take_error();
  llvm::Value* p = checked_heap_allocate(f, *size, zero);
  f.pending_allocations.push_back(p);
  f.bind_data(name, DataBinding{p, &d, thread_local_storage});
  if (kind == AllocKind::FunctionHeap) {
    ModuleContext& mc = f.mc;
    f.exit_actions.push_back([p, &mc](llvm::IRBuilder<>& b) { heap_free(b, mc, p); });
  } else {
    to_free.push_back(p);
  }
  return to_free;
}

}  // namespace dace::codegen
