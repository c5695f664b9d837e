#include "lowering/kernel.h"

#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <array>

#include "codegen/loops.h"
#include "codegen/map_emit.h"
#include "codegen/types.h"
#include "ir/path.h"
#include "lowering/device_module.h"

namespace dace::cuda {

namespace {

using codegen::Frame;
using codegen::StateEmitter;

std::string top_sdfg_name(const codegen::SdfgContext& sc) {
  const codegen::SdfgContext* s = &sc;
  while (s->parent) s = s->parent;
  return s->sdfg.name;
}

// Threads per block along x, y, z: the map's gpu_block_size (constants; missing entries 1),
// else the defaults of kernel.h.
Result<std::array<int64_t, 3>> block_size(const ir::MapScope& map, const std::string& where) {
  std::array<int64_t, 3> block{1, 1, 1};
  if (!map.gpu_block_size.empty()) {
    for (size_t i = 0; i < map.gpu_block_size.size() && i < 3; ++i) {
      std::optional<int64_t> v = sym::as_integer(sym::simplify(map.gpu_block_size[i]));
      if (!v || *v <= 0)
        return make_error(Code::Unsupported, where + ": gpu_block_size entry " + std::to_string(i) + " must be a positive constant");
      block[i] = *v;
    }
  } else if (map.params.size() == 1) {
    block = {kDefaultBlock1D, 1, 1};
  } else if (map.params.size() == 2) {
    block = {32, 8, 1};
  } else {
    block = {32, 4, 2};
  }
  if (block[0] * block[1] * block[2] > 1024)
    return make_error(Code::Unsupported, where + ": gpu_block_size has more than 1024 threads");
  return block;
}

struct Dim {
  llvm::Value* start;
  llvm::Value* step;
  llvm::Value* count;
};

Result<std::vector<Dim>> map_dims(Frame& f, const ir::MapScope& map) {
  std::vector<Dim> out;
  for (size_t d = 0; d < map.params.size(); ++d) {
    const sym::Range& r = map.range.dims[d];
    Result<llvm::Value*> start = f.sym(r.start);
    if (!start) return start.take_error();
    Result<llvm::Value*> end = f.sym(r.end);
    if (!end) return end.take_error();
    Result<llvm::Value*> step = f.sym(r.step);
    if (!step) return step.take_error();
    out.push_back(Dim{*start, *step, codegen::trip_count(f.b, *start, *end, *step)});
  }
  return out;
}

// Number of points along grid dimensions x, y, z: the last parameter, the one before it, the
// product of the others.
std::array<llvm::Value*, 3> grid_extent(llvm::IRBuilder<>& b, const std::vector<Dim>& dims) {
  size_t n = dims.size();
  std::array<llvm::Value*, 3> e{dims[n - 1].count, b.getInt64(1), b.getInt64(1)};
  if (n >= 2) e[1] = dims[n - 2].count;
  for (size_t d = 0; d + 2 < n; ++d) e[2] = b.CreateMul(e[2], dims[d].count);
  return e;
}

llvm::Value* sreg(llvm::IRBuilder<>& b, llvm::Module& m, llvm::Intrinsic::ID id) {
  return b.CreateZExt(b.CreateCall(llvm::Intrinsic::getDeclaration(&m, id)), b.getInt64Ty());
}

// Kernel parameter for one capture of the outlined body.
enum class Pass { Value, ScalarByValue };
struct Param {
  Pass pass;
  llvm::Type* type;       // parameter type in the kernel
  llvm::Type* host_type;  // what the host stores into the slot (differs for i1 -> i8)
};

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
  if (t->isStructTy() || t->isArrayTy())
    return make_error(Code::Unsupported, where + ": a complex value cannot be passed to a kernel yet");
  return Param{Pass::Value, t, t};
}

// Turns the outlined `fn(closure)` into `kernel(params...)`: each closure load becomes a
// parameter (host scalars arrive by value into a local copy, which the kernel must not
// write: the write would never reach the host).
Result<llvm::Function*> make_kernel(Frame& body, llvm::Function* fn, const std::vector<Param>& params,
                                    const std::string& name, const std::string& where) {
  std::vector<llvm::Type*> types;
  for (const Param& p : params) types.push_back(p.type);
  llvm::Module& m = *fn->getParent();
  auto* kty = llvm::FunctionType::get(llvm::Type::getVoidTy(m.getContext()), types, false);
  llvm::Function* k = llvm::Function::Create(kty, llvm::Function::ExternalLinkage, name, m);
  k->addFnAttr(llvm::Attribute::NoUnwind);
  k->splice(k->end(), fn);
  llvm::IRBuilder<> eb(k->getContext());
  std::vector<llvm::AllocaInst*> copies;
  for (size_t i = 0; i < params.size(); ++i) {
    const Frame::Capture& c = body.captures[i];
    // Before the entry block's branch: after every capture load (erased below), before all uses.
    eb.SetInsertPoint(k->getEntryBlock().getTerminator());
    llvm::Argument* a = k->getArg(static_cast<unsigned>(i));
    a->setName(c.load->getName());
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
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Metadata* md[] = {llvm::ValueAsMetadata::get(k), llvm::MDString::get(ctx, "kernel"),
                          llvm::ValueAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), 1))};
  m.getOrInsertNamedMetadata("nvvm.annotations")->addOperand(llvm::MDNode::get(ctx, md));
  return k;
}

std::string kernel_base_name(const StateEmitter& se, int entry, const std::string& sdfg_name) {
  std::string label = se.state.node(entry)->label;
  std::string clean;
  for (char ch : label.substr(0, std::min<size_t>(label.size(), 40)))
    clean += (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') ? ch : '_';
  return "__dace_kernel_" + sdfg_name + (clean.empty() ? "" : "_" + clean) + "_";
}

}  // namespace

Status lower_device_map(codegen::ScopeContext& context) {
  StateEmitter& se = context.se;
  const ir::MapScope& map = context.map;
  const int entry = context.entry;
  Frame& outer = *se.f;
  const std::string where = se.where(entry);
  if (outer.parallel_context)
    return make_error(Code::Unsupported, where + ": a GPU_Device map inside a parallel map or a kernel cannot be compiled yet");
  if (map.params.empty()) return make_error(Code::InvalidSdfg, where + ": GPU_Device map without parameters");
  if (map.range.dims.size() < map.params.size())
    return make_error(Code::InvalidSdfg, where + ": map has fewer ranges than parameters");
  Result<std::array<int64_t, 3>> block = block_size(map, where);
  if (!block) return block.take_error();
  const std::string sdfg_name = top_sdfg_name(outer.sc);
  Result<DeviceModule*> dmr = device_module(outer.mc, sdfg_name);
  if (!dmr) return dmr.take_error();
  DeviceModule& dm = **dmr;

  llvm::LLVMContext& ctx = outer.mc.ctx;
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Function* fn = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr}, false),
                                              llvm::Function::InternalLinkage, dm.mc->unique_name("outlined"), *dm.module);
  Frame body(*dm.mc, outer.sc, fn, &outer, true);
  body.closure = fn->getArg(0);
  se.f = &body;
  auto saved_params = se.parallel_params;
  auto saved_symbols = se.scope_symbols;
  se.parallel_params = map.params;
  Status s = [&]() -> Status {
    Result<std::vector<Dim>> dims = map_dims(body, map);
    if (!dims) return dims.take_error();
    llvm::IRBuilder<>& b = body.b;
    const size_t n = map.params.size();
    auto global = [&](llvm::Intrinsic::ID ctaid, llvm::Intrinsic::ID ntid, llvm::Intrinsic::ID tid) {
      return b.CreateAdd(b.CreateMul(sreg(b, *dm.module, ctaid), sreg(b, *dm.module, ntid)), sreg(b, *dm.module, tid));
    };
    std::array<llvm::Value*, 3> g{
        global(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x,
               llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x),
        global(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y,
               llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y),
        global(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z,
               llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z)};
    std::array<llvm::Value*, 3> extent = grid_extent(b, *dims);
    llvm::Value* inside = b.getTrue();
    for (size_t i = 0; i < 3; ++i) inside = b.CreateAnd(inside, b.CreateICmpULT(g[i], extent[i]));
    llvm::BasicBlock* work = llvm::BasicBlock::Create(ctx, "thread.work", fn);
    llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx, "thread.done", fn);
    b.CreateCondBr(inside, work, done);
    b.SetInsertPoint(work);
    std::vector<llvm::Value*> index(n);
    index[n - 1] = g[0];
    if (n >= 2) index[n - 2] = g[1];
    llvm::Value* rest = g[2];
    for (size_t d = n >= 2 ? n - 2 : 0; d-- > 0;) {
      if (d == 0) {
        index[d] = rest;
      } else {
        index[d] = b.CreateURem(rest, (*dims)[d].count);
        rest = b.CreateUDiv(rest, (*dims)[d].count);
      }
    }
    body.push_scope();
    for (size_t d = 0; d < n; ++d) {
      llvm::Value* p = b.CreateAdd((*dims)[d].start, b.CreateMul(index[d], (*dims)[d].step), map.params[d]);
      body.bind_symbol(map.params[d], codegen::SymbolBinding{p, ir::ScalarType::Int64, false});
      se.scope_symbols[map.params[d]] = ir::ScalarType::Int64;
    }
    Status inner = codegen::emit_map_body(se, entry);
    body.pop_scope();
    if (!inner.ok()) return inner;
    b.CreateBr(done);
    b.SetInsertPoint(done);
    b.CreateRetVoid();
    return Status::success();
  }();
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
  const std::string name = kernel_base_name(se, entry, sdfg_name) + std::to_string(dm.kernels.size());
  Result<llvm::Function*> kernel = make_kernel(body, fn, params, name, where);
  if (!kernel) return kernel.take_error();
  dm.kernels.push_back(name);

  // Host side: the parameter values in 8-byte slots (wider ones span several), a pointer to
  // each, the grid, the launch.
  llvm::IRBuilder<>& b = outer.b;
  llvm::Type* i64 = b.getInt64Ty();
  const size_t nslots = std::max<size_t>(1, body.closure_slots());
  llvm::AllocaInst* slots = outer.entry_alloca(llvm::ArrayType::get(i64, nslots), "kernel.args");
  slots->setAlignment(llvm::Align(16));
  llvm::AllocaInst* pointers =
      outer.entry_alloca(llvm::ArrayType::get(ptr, std::max<size_t>(1, params.size())), "kernel.params");
  for (size_t i = 0; i < params.size(); ++i) {
    const Frame::Capture& c = body.captures[i];
    llvm::Value* slot = b.CreateConstInBoundsGEP1_64(i64, slots, c.slot);
    llvm::Value* v = c.outer;
    if (params[i].pass == Pass::ScalarByValue) v = b.CreateLoad(params[i].type, c.outer, c.data);
    else if (v->getType()->isIntegerTy(1)) v = b.CreateZExt(v, b.getInt8Ty());
    b.CreateStore(v, slot);
    b.CreateStore(slot, b.CreateConstInBoundsGEP1_64(ptr, pointers, i));
  }
  Result<std::vector<Dim>> dims = map_dims(outer, map);
  if (!dims) return dims.take_error();
  std::array<llvm::Value*, 3> extent = grid_extent(b, *dims);
  std::array<llvm::Value*, 3> grid{};
  for (size_t i = 0; i < 3; ++i) {
    llvm::Value* bs = b.getInt64((*block)[i]);
    grid[i] = b.CreateSDiv(b.CreateAdd(extent[i], b.getInt64((*block)[i] - 1)), bs, "grid");
  }
  llvm::Type* i32 = b.getInt32Ty();
  llvm::FunctionCallee launch = outer.mc.module.getOrInsertFunction(
      "dace_cuda_launch", llvm::FunctionType::get(i32, {ptr, ptr, i64, i64, i64, i64, i64, i64, i32, ptr}, false));
  b.CreateCall(launch, {dm.ptx, b.CreateGlobalString(name, name + ".name"), grid[0], grid[1], grid[2],
                        b.getInt64((*block)[0]), b.getInt64((*block)[1]), b.getInt64((*block)[2]), b.getInt32(0),
                        pointers});
  return Status::success();
}

}  // namespace dace::cuda
