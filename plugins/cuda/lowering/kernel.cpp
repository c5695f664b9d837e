#include "lowering/kernel.h"

#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <array>
#include <functional>
#include <map>

#include "codegen/loops.h"
#include "codegen/map_emit.h"
#include "codegen/private_captures.h"
#include "codegen/types.h"
#include "ir/path.h"
#include "lowering/cooperative.h"
#include "lowering/device_module.h"
#include "lowering/stream_emit.h"
#include "lowering/dynamic_map.h"
#include "lowering/thread_block.h"
#include "lowering/thread_index.h"
#include "lowering/thread_stack.h"

namespace dace::cuda {

namespace {

using codegen::Frame;
using codegen::StateEmitter;

// Whether region `r`'s blocks form a cycle (a loop written as states and interstate edges).
bool has_cycle(const ir::ControlFlowRegion& r) {
  enum class Mark { None, Open, Done };
  std::map<int, Mark> mark;
  std::function<bool(int)> visit = [&](int slot) {
    mark[slot] = Mark::Open;
    for (int e : r.out_edges(slot)) {
      const int next = r.edge(e)->dst;
      const Mark m = mark[next];
      if (m == Mark::Open || (m == Mark::None && visit(next))) return true;
    }
    mark[slot] = Mark::Done;
    return false;
  };
  for (int slot : r.block_slots())
    if (mark[slot] == Mark::None && visit(slot)) return true;
  return false;
}

bool node_runs_loops(const ir::Node& n);

// Whether a nested SDFG runs loops: a loop region or a cycle of states, or a map, library
// node or (recursively) looping nested SDFG in any of its states. A body that
// GPUTransformSDFG merely wrapped in a nested SDFG (one element's arithmetic) does not.
bool sdfg_runs_loops(const ir::SDFG& g) {
  bool loops = has_cycle(g);
  g.for_each_block([&](const ir::ControlFlowBlock& b) {
    if (loops) return;
    if (b.kind == ir::BlockKind::Loop) loops = true;
    else if (b.kind == ir::BlockKind::Region && has_cycle(static_cast<const ir::ControlFlowRegion&>(b))) loops = true;
  });
  for (const ir::State* st : g.all_states()) {
    if (loops) break;
    for (int id : st->node_ids())
      if (node_runs_loops(*st->node(id))) {
        loops = true;
        break;
      }
  }
  return loops;
}

bool node_runs_loops(const ir::Node& n) {
  if (n.kind == ir::NodeKind::MapEntry || n.kind == ir::NodeKind::Library) return true;
  if (n.kind != ir::NodeKind::NestedSDFG) return false;
  const auto& nested = static_cast<const ir::NestedSDFGNode&>(n);
  return nested.sdfg && sdfg_runs_loops(*nested.sdfg);
}

// Whether the scope of map entry `entry` holds a nested map, a library node or a nested SDFG
// that runs loops (lowered to loops inside a kernel): each thread then runs loops, not one
// element's arithmetic. `parents` is the state's scope_parents(), computed once per state.
bool threads_run_loops(const ir::State& state, const std::vector<int>& parents, int entry) {
  for (int id : state.node_ids()) {
    if (!node_runs_loops(*state.node(id))) continue;
    for (int p = parents[static_cast<size_t>(id)]; p >= 0; p = parents[static_cast<size_t>(p)])
      if (p == entry) return true;
  }
  return false;
}

// Threads per block along x, y, z: the map's gpu_block_size (constants; missing entries 1),
// else the defaults of kernel.h.
Result<std::array<int64_t, 3>> block_size(const ir::MapScope& map, bool looping_threads, const std::string& where) {
  std::array<int64_t, 3> block{1, 1, 1};
  if (!map.gpu_block_size.empty()) {
    for (size_t i = 0; i < map.gpu_block_size.size() && i < 3; ++i) {
      std::optional<int64_t> v = sym::as_integer(sym::simplify(map.gpu_block_size[i]));
      if (!v || *v <= 0)
        return make_error(Code::Unsupported, where + ": gpu_block_size entry " + std::to_string(i) + " must be a positive constant");
      block[i] = *v;
    }
  } else if (map.params.size() == 1) {
    block = {looping_threads ? kLoopingThreadsBlock1D : kDefaultBlock1D, 1, 1};
  } else if (map.params.size() == 2) {
    block = {32, 8, 1};
  } else {
    block = {32, 4, 2};
  }
  if (block[0] * block[1] * block[2] > 1024)
    return make_error(Code::Unsupported, where + ": gpu_block_size has more than 1024 threads");
  return block;
}

// Kernel parameter for one capture of the outlined body.
enum class Pass { Value, ScalarByValue };
struct Param {
  Pass pass;
  llvm::Type* type;       // parameter type in the kernel
  llvm::Type* host_type;  // what the host stores into the slot (differs for i1 -> i8)
};

// Two floats or two doubles: how the core stores complex64 and complex128 values.
bool is_complex_pair(llvm::Type* t) {
  auto two_of_one_float = [](llvm::Type* a, llvm::Type* b) { return a == b && a->isFloatingPointTy(); };
  if (auto* st = llvm::dyn_cast<llvm::StructType>(t))
    return st->getNumElements() == 2 && two_of_one_float(st->getElementType(0), st->getElementType(1));
  if (auto* at = llvm::dyn_cast<llvm::ArrayType>(t))
    return at->getNumElements() == 2 && at->getElementType()->isFloatingPointTy();
  return false;
}

std::string type_text(llvm::Type* t) {
  std::string text;
  llvm::raw_string_ostream os(text);
  t->print(os);
  return os.str();
}

Result<Param> param_for(const Frame& body, const Frame::Capture& c, const std::string& where) {
  llvm::Type* t = c.load->getType();
  if (!c.data.empty()) {
    auto d = body.sc.sdfg.arrays.find(c.data);
    if (d != body.sc.sdfg.arrays.end()) {
      const ir::DataDescriptor& desc = d->second;
      // Scalar arguments arrive by value into a host stack slot whatever their storage.
      const bool host_scalar = desc.kind == ir::DataKind::Scalar && (!desc.transient || desc.storage != ir::StorageType::GPU_Global);
      if (!host_scalar && desc.storage == ir::StorageType::GPU_Global) return Param{Pass::Value, t, t};
      if (host_scalar && ir::scalar_type_size(desc.dtype.scalar) > 0) {
        llvm::Type* et = codegen::storage_type(body.mc.ctx, desc.dtype.scalar);
        return Param{Pass::ScalarByValue, et, et};
      }
      return make_error(Code::Unsupported, where + ": \"" + c.data + "\" (storage " + ir::to_string(desc.storage) +
                                               ") lives in host memory but is used inside the GPU_Device map; "
                                               "give it GPU_Global storage");
    }
  }
  if (t->isIntegerTy(1)) return Param{Pass::Value, llvm::Type::getInt8Ty(t->getContext()), llvm::Type::getInt8Ty(t->getContext())};
  // A complex value ({re, im} of two floats or doubles) goes by value as an aggregate
  // parameter (PTX's .param space holds it; the host's closure gives it two slots).
  if ((t->isStructTy() || t->isArrayTy()) && !is_complex_pair(t))
    return make_error(Code::Unsupported, where + ": a value of type " + type_text(t) + " cannot be passed to a kernel");
  return Param{Pass::Value, t, t};
}

// Turns the outlined `fn(closure)` into `kernel(params...)`: each closure load becomes a
// parameter (host scalars arrive by value into a local copy, which the kernel must not
// write: the write would never reach the host).
// Emulated: `kernel(void** params)`, the launch's own parameter array, each entry loaded
// with the type the PTX kernel would declare (the runtime cannot call a typed signature).
Result<llvm::Function*> make_kernel(Frame& body, llvm::Function* fn, const std::vector<Param>& params,
                                    const std::string& name, const std::string& where, bool emulate,
                                    const std::array<int64_t, 3>& block, bool cooperative) {
  std::vector<llvm::Type*> types;
  for (const Param& p : params) types.push_back(p.type);
  llvm::Module& m = *fn->getParent();
  if (emulate) types.assign(1, llvm::PointerType::getUnqual(m.getContext()));
  auto* kty = llvm::FunctionType::get(llvm::Type::getVoidTy(m.getContext()), types, false);
  llvm::Function* k = llvm::Function::Create(kty, llvm::Function::ExternalLinkage, name, m);
  k->addFnAttr(llvm::Attribute::NoUnwind);
  k->splice(k->end(), fn);
  llvm::IRBuilder<> eb(k->getContext());
  std::vector<llvm::AllocaInst*> copies;
  const std::vector<bool> private_memory = codegen::private_captures(body);
  for (size_t i = 0; i < params.size(); ++i) {
    const Frame::Capture& c = body.captures[i];
    // Before the entry block's branch: after every capture load (erased below), before all uses.
    eb.SetInsertPoint(k->getEntryBlock().getTerminator());
    llvm::Value* a;
    if (emulate) {
      llvm::Value* slot = eb.CreateLoad(eb.getPtrTy(), eb.CreateConstInBoundsGEP1_64(eb.getPtrTy(), k->getArg(0), i));
      a = eb.CreateLoad(params[i].type, slot, c.load->getName());
    } else {
      llvm::Argument* arg = k->getArg(static_cast<unsigned>(i));
      arg->setName(c.load->getName());
      // `__restrict__` in CUDA terms: with it LLVM may reorder the loads of one container
      // across the stores to another, and a container the kernel only reads is loaded
      // through the read-only data cache (`ld.global.nc`), which lets ptxas issue those
      // loads ahead of the stores instead of one memory round trip per iteration.
      // Not in a cooperative kernel: there LLVM would take the grid barrier (inline assembly)
      // for no fence of such pointers, and could reuse a load of data another block wrote in
      // an earlier phase across it.
      if (params[i].pass == Pass::Value && params[i].type->isPointerTy() && private_memory[i] && !cooperative)
        arg->addAttr(llvm::Attribute::NoAlias);
      a = arg;
    }
    llvm::Value* v = a;
    if (params[i].pass == Pass::ScalarByValue) {
      llvm::AllocaInst* copy = eb.CreateAlloca(params[i].type, nullptr, c.data + ".copy");
      eb.CreateStore(a, copy);
      copies.push_back(copy);
      v = copy;
    } else if (c.load->getType()->isIntegerTy(1)) {
      v = eb.CreateTrunc(a, eb.getInt1Ty());
    }
    llvm::Instruction* gep = llvm::dyn_cast<llvm::Instruction>(llvm::cast<llvm::LoadInst>(c.load)->getPointerOperand());
    c.load->replaceAllUsesWith(v);
    c.load->eraseFromParent();
    if (gep && gep->use_empty()) gep->eraseFromParent();
  }
  fn->eraseFromParent();
  for (llvm::AllocaInst* copy : copies) {
    size_t stores = 0;
    for (llvm::User* u : copy->users())
      if (auto* s = llvm::dyn_cast<llvm::StoreInst>(u); s && s->getPointerOperand() == copy) ++stores;
    if (stores > 1) {
      k->eraseFromParent();
      return make_error(Code::Unsupported, where + ": the host scalar \"" + copy->getName().str().substr(0, copy->getName().size() - 5) +
                                               "\" is written inside the GPU_Device map; give it GPU_Global storage");
    }
  }
  if (emulate) return k;
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Metadata* md[] = {llvm::ValueAsMetadata::get(k), llvm::MDString::get(ctx, "kernel"),
                          llvm::ValueAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), 1))};
  llvm::NamedMDNode* annotations = m.getOrInsertNamedMetadata("nvvm.annotations");
  annotations->addOperand(llvm::MDNode::get(ctx, md));
  // Every launch uses the compile-time block (`.maxntid` in PTX, CUDA's __launch_bounds__):
  // ptxas may then give each thread as many registers as that block allows, instead of
  // planning for blocks of 1024.
  const char* bound[3] = {"maxntidx", "maxntidy", "maxntidz"};
  for (size_t axis = 0; axis < 3; ++axis) {
    llvm::Metadata* b[] = {llvm::ValueAsMetadata::get(k), llvm::MDString::get(ctx, bound[axis]),
                           llvm::ValueAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), block[axis]))};
    annotations->addOperand(llvm::MDNode::get(ctx, b));
  }
  return k;
}

std::string kernel_base_name(const std::string& label, const std::string& sdfg_name) {
  std::string clean;
  for (char ch : label.substr(0, std::min<size_t>(label.size(), 40)))
    clean += (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') ? ch : '_';
  return "__dace_kernel_" + sdfg_name + (clean.empty() ? "" : "_" + clean) + "_";
}

}  // namespace

Status launch_kernel(StateEmitter& se, int node, KernelState& ks, const std::string& label, const std::string& where,
                     const KernelBody& emit_body, const KernelGrid& grid_of) {
  Frame& outer = *se.f;
  Result<DeviceModule*> dmr = device_module(outer);
  if (!dmr) return dmr.take_error();
  DeviceModule& dm = **dmr;

  llvm::LLVMContext& ctx = outer.mc.ctx;
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Function* fn = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr}, false),
                                              llvm::Function::InternalLinkage, dm.mc->unique_name("outlined"), *dm.module);
  ks.fn = fn;
  Frame body(*dm.mc, outer.sc, fn, &outer, true);
  body.closure = fn->getArg(0);
  se.f = &body;
  dm.kernel = &ks;
  auto saved_params = se.parallel_params;
  auto saved_symbols = se.scope_symbols;
  Status s = emit_body(body, dm);
  if (s.ok()) body.b.CreateRetVoid();
  dm.kernel = nullptr;
  se.f = &outer;
  se.parallel_params = saved_params;
  se.scope_symbols = saved_symbols;
  if (!s.ok()) {
    fn->eraseFromParent();
    return s;
  }

  std::vector<Param> params;
  for (const Frame::Capture& c : body.captures) {
    Result<Param> p = param_for(body, c, where);
    if (!p) {
      fn->eraseFromParent();
      return p.take_error();
    }
    params.push_back(*p);
  }
  // PTX identifiers take no '.', so the module-wide counter is appended after '_'.
  const std::string name = kernel_base_name(label, dm.sdfg_name) + std::to_string(dm.kernels.size());
  Result<llvm::Function*> kernel = make_kernel(body, fn, params, name, where, dm.emulate, ks.block, ks.cooperative);
  if (!kernel) return kernel.take_error();
  dm.kernels.push_back(name);

  // Host side: the parameter values in 8-byte slots (wider ones span several), a pointer to
  // each, the grid, the launch. The slots follow what is stored, not the closure's layout: a
  // host scalar passed by value (a complex one: 16 bytes) is wider than the pointer the
  // closure captured for it.
  llvm::IRBuilder<>& b = outer.b;
  llvm::Type* i64 = b.getInt64Ty();
  const llvm::DataLayout& layout = outer.mc.module.getDataLayout();
  std::vector<uint64_t> first_slot;
  uint64_t nslots = 0;
  for (const Param& p : params) {
    first_slot.push_back(nslots);
    nslots += std::max<uint64_t>(1, (layout.getTypeAllocSize(p.host_type) + 7) / 8);
  }
  llvm::AllocaInst* slots = outer.entry_alloca(llvm::ArrayType::get(i64, std::max<uint64_t>(1, nslots)), "kernel.args");
  slots->setAlignment(llvm::Align(16));
  llvm::AllocaInst* pointers =
      outer.entry_alloca(llvm::ArrayType::get(ptr, std::max<size_t>(1, params.size())), "kernel.params");
  for (size_t i = 0; i < params.size(); ++i) {
    const Frame::Capture& c = body.captures[i];
    llvm::Value* slot = b.CreateConstInBoundsGEP1_64(i64, slots, first_slot[i]);
    llvm::Value* v = c.outer;
    if (params[i].pass == Pass::ScalarByValue) v = b.CreateLoad(params[i].type, c.outer, c.data);
    else if (v->getType()->isIntegerTy(1)) v = b.CreateZExt(v, b.getInt8Ty());
    b.CreateStore(v, slot);
    b.CreateStore(slot, b.CreateConstInBoundsGEP1_64(ptr, pointers, i));
  }
  Result<std::array<llvm::Value*, 3>> grid = grid_of(outer);
  if (!grid) return grid.take_error();
  llvm::Type* i32 = b.getInt32Ty();
  Result<ItemStream> on = begin_item(se, node, -1, where);
  if (!on) return on.take_error();
  // A cooperative kernel (grid barriers) needs all its blocks resident at once: its own entry,
  // which may shrink the grid to what fits. It is launched on the default stream, which the
  // plan's streams (created blocking) order with both ways, so its item's waits and records
  // still hold; only its overlap with other kernels is lost, and the end of its state
  // synchronizes the default stream too.
  llvm::Value* stream = ks.cooperative ? nullptr : on->stream;
  if (ks.cooperative) item_on_default_stream(se, *on);
  std::vector<llvm::Type*> launch_types{ptr, ptr, i64, i64, i64, i64, i64, i64, i32, ptr};
  if (ks.cooperative || stream) launch_types.insert(launch_types.begin(), ptr);
  if (stream) launch_types.push_back(i32);
  llvm::FunctionCallee launch = outer.mc.module.getOrInsertFunction(
      ks.cooperative ? "dace_cuda_launch_cooperative" : stream ? "dace_cuda_launch_on" : "dace_cuda_launch",
      llvm::FunctionType::get(i32, launch_types, false));
  // The PTX text and the kernel's name; emulated, no text and the kernel's host address.
  llvm::Value* module_arg = dm.emulate ? static_cast<llvm::Value*>(llvm::ConstantPointerNull::get(b.getPtrTy())) : dm.ptx;
  llvm::Value* kernel_arg =
      dm.emulate ? outer.mc.module.getOrInsertFunction(name, llvm::FunctionType::get(b.getVoidTy(), {ptr}, false)).getCallee()
                 : b.CreateGlobalString(name, name + ".name");
  std::vector<llvm::Value*> args{module_arg, kernel_arg, (*grid)[0], (*grid)[1], (*grid)[2], b.getInt64(ks.block[0]),
                                 b.getInt64(ks.block[1]), b.getInt64(ks.block[2]), b.getInt32(0), pointers};
  if (ks.cooperative) {  // dace_cuda_launch_cooperative(stream: null = the default one, ...)
    args.insert(args.begin(), llvm::ConstantPointerNull::get(b.getPtrTy()));
  } else if (stream) {  // dace_cuda_launch_on(stream, ..., params, parameter count)
    args.insert(args.begin(), stream);
    args.push_back(b.getInt32(static_cast<int32_t>(params.size())));
  }
  llvm::Value* launched = b.CreateCall(launch, args);
  // A launch the runtime refuses (a module the driver rejects, a kernel it cannot find, a grid
  // past the device's limits, an earlier failure of the process) ends the call with the
  // runtime's message as its status; the program must not go on as if the kernel had run.
  record_runtime_failure(outer, launched, /*leave=*/true, where + ": launch of kernel " + name);
  end_item(se, *on, where);
  synchronize_on_exit(dm, outer, where);
  return Status::success();
}

Result<std::array<int64_t, 3>> point_kernel_block(const StateEmitter& se, int entry, const std::string& where) {
  const auto& node = static_cast<const ir::MapEntry&>(*se.state.node(entry));
  return block_size(node.map, threads_run_loops(se.state, se.parents, entry), where);
}

Status check_kernel_map(const codegen::ScopeContext& context, const std::string& schedule) {
  const std::string where = context.se.where(context.entry);
  if (context.se.f->parallel_context)
    return make_error(Code::Unsupported, where + ": a " + schedule + " map inside a parallel map or a kernel cannot be compiled yet");
  if (context.map.params.empty()) return make_error(Code::InvalidSdfg, where + ": " + schedule + " map without parameters");
  if (context.map.range.dims.size() < context.map.params.size())
    return make_error(Code::InvalidSdfg, where + ": map has fewer ranges than parameters");
  return Status::success();
}

Status lower_device_map(codegen::ScopeContext& context) {
  StateEmitter& se = context.se;
  const ir::MapScope& map = context.map;
  const int entry = context.entry;
  const std::string where = se.where(entry);
  // Inside a cooperative kernel (a GPU_Persistent map's phases) the map is grid-strided.
  if (DeviceModule* in = se.f->parallel_context ? device_module_of(se.f->mc) : nullptr; in && in->kernel && in->kernel->cooperative)
    return lower_grid_strided_map(context, *in);
  if (Status placed = check_kernel_map(context, "GPU_Device"); !placed.ok()) return placed;
  KernelState ks;
  ks.where = where;
  Result<bool> thread_blocks = thread_block_layout(se.state, se.parents, entry, ks.block);
  if (!thread_blocks) return thread_blocks.take_error();
  ks.thread_blocks = *thread_blocks;
  Result<int> dynamic = dynamic_map_of(se, entry);
  if (!dynamic) return dynamic.take_error();
  if (*dynamic >= 0 && ks.thread_blocks)
    return make_error(Code::Unsupported, where + ": GPU_ThreadBlock and GPU_ThreadBlock_Dynamic maps in one kernel (DaCe "
                                                 "refuses them too)");
  if (!ks.thread_blocks) {
    Result<std::array<int64_t, 3>> block = point_kernel_block(se, entry, where);
    if (!block) return block.take_error();
    ks.block = *block;
  }
  // The block's threads (in their linear order, whatever its shape) share the dynamic
  // iterations; without a gpu_block_size a block of one warp (libdace's choice; DaCe's
  // compiler.cuda.dynamic_map_block_size defaults to 128).
  if (*dynamic >= 0 && map.gpu_block_size.empty()) ks.block = {kLoopingThreadsBlock1D, 1, 1};
  auto emit_body = [&](Frame& body, DeviceModule& dm) -> Status {
    if (*dynamic >= 0) return emit_dynamic_kernel(se, dm, entry, *dynamic);
    se.parallel_params = map.params;
    Result<std::vector<Dim>> dims = codegen::map_dimensions(body, map, map.params.size());
    if (!dims) return dims.take_error();
    llvm::IRBuilder<>& b = body.b;
    llvm::Function* fn = body.fn;
    llvm::LLVMContext& ctx = body.mc.ctx;
    std::array<llvm::Value*, 3> extent = grid_extent(b, *dims);
    // With GPU_ThreadBlock maps each block runs one point (their maps use its threads);
    // else each thread runs one, which emulation reaches by looping over the block's threads.
    std::array<llvm::Value*, 3> g{}, block_index{}, thread_index{};
    for (int axis = 0; axis < 3; ++axis) {
      Result<llvm::Value*> bi = special_index(body, dm, Special::BlockIndex, axis);
      if (!bi) return bi.take_error();
      g[static_cast<size_t>(axis)] = block_index[static_cast<size_t>(axis)] = *bi;
    }
    ThreadLoop threads;
    const bool thread_loop = dm.emulate && !ks.thread_blocks;
    if (thread_loop) threads = begin_thread_loop(body, dm);
    for (int axis = 0; axis < 3 && !ks.thread_blocks; ++axis) {
      const size_t a = static_cast<size_t>(axis);
      Result<llvm::Value*> ti = special_index(body, dm, Special::ThreadIndex, axis);
      if (!ti) return ti.take_error();
      thread_index[a] = *ti;
      g[a] = b.CreateAdd(b.CreateMul(g[a], b.getInt64(ks.block[a])), *ti);
    }
    llvm::BasicBlock* work = llvm::BasicBlock::Create(ctx, "thread.work", fn);
    llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx, "thread.done", fn);
    b.CreateCondBr(within(b, g, extent), work, done);
    b.SetInsertPoint(work);
    body.push_scope();
    bind_point(se, body, map, *dims, g);
    // With GPU_ThreadBlock maps, code outside them runs in every thread of the block on the
    // device (%tid) and once per block in emulation, standing for all of them as thread 0
    // (DaCe guards what only one thread may do with `threadIdx.x == 0`).
    if (ks.thread_blocks) {
      for (int axis = 0; axis < 3; ++axis) {
        const size_t a = static_cast<size_t>(axis);
        if (dm.emulate) {
          thread_index[a] = b.getInt64(0);
          continue;
        }
        Result<llvm::Value*> ti = special_index(body, dm, Special::ThreadIndex, axis);
        if (!ti) return ti.take_error();
        thread_index[a] = *ti;
      }
    }
    bind_builtins(body, ks, &block_index, &thread_index);
    bind_grid_dim(body, dm);
    Status inner = codegen::emit_map_body(se, entry);
    body.pop_scope();
    if (!inner.ok()) return inner;
    b.CreateBr(done);
    b.SetInsertPoint(done);
    if (thread_loop) end_thread_loop(body, dm, threads);
    return Status::success();
  };
  auto grid_of = [&](Frame& host) -> Result<std::array<llvm::Value*, 3>> {
    llvm::IRBuilder<>& b = host.b;
    Result<std::vector<Dim>> dims = codegen::map_dimensions(host, map, map.params.size());
    if (!dims) return dims.take_error();
    std::array<llvm::Value*, 3> extent = grid_extent(b, *dims);
    std::array<llvm::Value*, 3> grid{};
    for (size_t i = 0; i < 3; ++i) {
      if (ks.thread_blocks) {  // one block per point
        grid[i] = extent[i];
        continue;
      }
      llvm::Value* bs = b.getInt64(ks.block[i]);
      grid[i] = b.CreateSDiv(b.CreateAdd(extent[i], b.getInt64(ks.block[i] - 1)), bs, "grid");
    }
    return grid;
  };
  DACE_TRY(reserve_thread_stack(se, entry, where));
  return launch_kernel(se, entry, ks, se.state.node(entry)->label, where, emit_body, grid_of);
}

}  // namespace dace::cuda
