#include "codegen/lower.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "analysis/validate.h"
#include "codegen/allocation.h"
#include "codegen/frame.h"
#include "codegen/interstate.h"
#include "codegen/plugin_nodes.h"
#include "codegen/sdfg_function.h"
#include "codegen/target_lowering.h"
#include "ir/path.h"
#include "plugin/registry.h"

namespace dace::codegen {

LoweredModule::LoweredModule() = default;
LoweredModule::LoweredModule(LoweredModule&&) noexcept = default;
LoweredModule& LoweredModule::operator=(LoweredModule&&) noexcept = default;
LoweredModule::~LoweredModule() = default;

namespace {

ScalarType arg_type(const analysis::Argument& a) {
  return a.dtype.scalar == ScalarType::Unknown ? ScalarType::Int64 : a.dtype.scalar;
}

// Scalars by value in the C ABI: complex64 travels packed in one SSE register, as
// `<2 x float>` (a {float, float} struct would be split into two registers).
llvm::Type* scalar_param_type(llvm::LLVMContext& ctx, ScalarType t) {
  if (t == ScalarType::Complex64) return llvm::FixedVectorType::get(llvm::Type::getFloatTy(ctx), 2);
  return storage_type(ctx, t);
}

// Persistent containers, in name order: slot i of the state object holds the i-th.
std::vector<std::string> persistent_containers(const SdfgContext& sc) {
  std::vector<std::string> out;
  for (const auto& [name, kind] : sc.plan.kind)
    if (kind == AllocKind::Persistent) out.push_back(name);
  return out;
}

llvm::Value* state_slot(llvm::IRBuilder<>& b, llvm::Value* state, size_t i) {
  return b.CreateConstInBoundsGEP1_64(b.getPtrTy(), state, i);
}

Status emit_init(ModuleContext& mc, SdfgContext& sc, const LoweredModule& out,
                 const std::map<std::string, ProgramStateLowering>& states) {
  std::vector<llvm::Type*> params;
  for (const auto& a : out.init_arguments) params.push_back(storage_type(mc.ctx, arg_type(a)));
  llvm::Type* ptr = llvm::PointerType::getUnqual(mc.ctx);
  llvm::Function* fn = llvm::Function::Create(llvm::FunctionType::get(ptr, params, false), llvm::Function::ExternalLinkage,
                                              out.init_function, mc.module);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  Frame f(mc, sc, fn, nullptr, false);
  for (size_t i = 0; i < out.init_arguments.size(); ++i) {
    llvm::Argument* a = fn->getArg(static_cast<unsigned>(i));
    a->setName(out.init_arguments[i].name);
    ScalarType t = arg_type(out.init_arguments[i]);
    llvm::Value* v = t == ScalarType::Bool ? f.b.CreateICmpNE(a, f.b.getInt8(0)) : static_cast<llvm::Value*>(a);
    f.bind_symbol(out.init_arguments[i].name, SymbolBinding{v, t, false});
  }
  std::vector<std::string> persistent = persistent_containers(sc);
  size_t slots = persistent.size() + states.size();
  llvm::Value* state = heap_allocate(f, f.b.getInt64(static_cast<int64_t>(8 * std::max<size_t>(1, slots))), false);
  std::vector<llvm::Value*> blocks;
  for (size_t i = 0; i < persistent.size(); ++i) {
    const ir::DataDescriptor& d = sc.sdfg.arrays.at(persistent[i]);
    Result<CheckedSize> size = checked_allocation_size(f, persistent[i], d);
    if (!size) return size.take_error();
    blocks.push_back(checked_heap_allocate(f, *size, sc.plan.setzero.count(persistent[i]) > 0));
  }
  // Any block missing (its failure is in the status record) or no state object: free what
  // was allocated and return null, which the host reports.
  llvm::Value* missing = f.b.CreateIsNull(state);
  for (llvm::Value* p : blocks) missing = f.b.CreateOr(missing, f.b.CreateIsNull(p));
  llvm::BasicBlock* bad = llvm::BasicBlock::Create(mc.ctx, "init.failed", fn);
  llvm::BasicBlock* good = llvm::BasicBlock::Create(mc.ctx, "init.ok", fn);
  f.b.CreateCondBr(missing, bad, good);
  f.b.SetInsertPoint(bad);
  for (llvm::Value* p : blocks) heap_free(f.b, mc, p);
  heap_free(f.b, mc, state);
  f.b.CreateRet(llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(mc.ctx)));
  f.b.SetInsertPoint(good);
  for (size_t i = 0; i < blocks.size(); ++i) f.b.CreateStore(blocks[i], state_slot(f.b, state, i));
  // Plugin program states (communicators, grids) after the persistent containers; a null one
  // fails init (the plugin's runtime has said why). The host gets no state object to exit
  // with, so that failure releases here what init made before it: the program states
  // already created (their plugins' exit code), the persistent blocks and the state object.
  size_t slot = persistent.size();
  std::vector<std::pair<const ProgramStateLowering*, std::pair<std::string, llvm::Value*>>> created;
  for (const auto& [key, impl] : states) {
    ProgramStateContext pc(f, sc.sdfg, key);
    DACE_TRY(impl->lower_program_init(pc));
    if (!pc.state) return make_error(Code::Internal, sc.path + ": program state \"" + key + "\" produced no value");
    f.b.CreateStore(pc.state, state_slot(f.b, state, slot++));
    f.b.CreateStore(pc.state, program_state_global(mc.module, key));
    llvm::BasicBlock* failed = llvm::BasicBlock::Create(mc.ctx, "state.failed", f.fn);
    llvm::BasicBlock* next = llvm::BasicBlock::Create(mc.ctx, "state.ok", f.fn);
    f.b.CreateCondBr(f.b.CreateIsNull(pc.state), failed, next);
    f.b.SetInsertPoint(failed);
    for (const auto& [earlier, named] : created) {
      ProgramStateContext release(f, sc.sdfg, named.first);
      release.state = named.second;
      DACE_TRY((*earlier)->lower_program_exit(release));
      f.b.CreateStore(llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(mc.ctx)),
                      program_state_global(mc.module, named.first));
    }
    for (llvm::Value* p : blocks) heap_free(f.b, mc, p);
    heap_free(f.b, mc, state);
    f.b.CreateRet(llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(mc.ctx)));
    f.b.SetInsertPoint(next);
    created.push_back({&impl, {key, pc.state}});
  }
  f.b.CreateRet(state);
  return Status::success();
}

Status emit_exit(ModuleContext& mc, SdfgContext& sc, const LoweredModule& out,
                 const std::map<std::string, ProgramStateLowering>& states) {
  llvm::Type* ptr = llvm::PointerType::getUnqual(mc.ctx);
  llvm::Function* fn = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getInt32Ty(mc.ctx), {ptr}, false),
                                              llvm::Function::ExternalLinkage, out.exit_function, mc.module);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  fn->getArg(0)->setName("state");
  Frame f(mc, sc, fn, nullptr, false);
  llvm::Value* state = fn->getArg(0);
  llvm::BasicBlock* work = llvm::BasicBlock::Create(mc.ctx, "free", fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(mc.ctx, "done", fn);
  llvm::BasicBlock* check = f.b.GetInsertBlock();
  f.b.CreateCondBr(f.b.CreateIsNull(state), done, work);
  f.b.SetInsertPoint(work);
  std::vector<std::string> persistent = persistent_containers(sc);
  llvm::Value* status = f.b.getInt32(0);
  size_t slot = persistent.size();
  for (const auto& [key, impl] : states) {
    ProgramStateContext pc(f, sc.sdfg, key);
    pc.state = f.b.CreateLoad(ptr, state_slot(f.b, state, slot++), key + ".state");
    DACE_TRY(impl->lower_program_exit(pc));
    if (pc.exit_status)
      status = f.b.CreateSelect(f.b.CreateICmpNE(status, f.b.getInt32(0)), status, pc.exit_status);
    f.b.CreateStore(llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(mc.ctx)),
                    program_state_global(mc.module, key));
  }
  for (size_t i = 0; i < persistent.size(); ++i) heap_free(f.b, mc, f.b.CreateLoad(ptr, state_slot(f.b, state, i)));
  heap_free(f.b, mc, state);
  llvm::BasicBlock* freed = f.b.GetInsertBlock();
  f.b.CreateBr(done);
  f.b.SetInsertPoint(done);
  if (states.empty()) {
    f.b.CreateRet(f.b.getInt32(0));
    return Status::success();
  }
  llvm::PHINode* result = f.b.CreatePHI(f.b.getInt32Ty(), 2);
  result->addIncoming(f.b.getInt32(0), check);
  result->addIncoming(status, freed);
  f.b.CreateRet(result);
  return Status::success();
}

// Arrays of a storage a plugin owns (GPU_Global) are bound to what the plugin makes of the
// caller's pointer; others are used as passed.
Result<llvm::Value*> bind_target_argument(Frame& f, const std::string& name, const ir::DataDescriptor& d,
                                          llvm::Value* host) {
  const plugin::Registry* registry = f.mc.options.registry;
  if (!registry || d.storage == ir::StorageType::Default || d.storage == ir::StorageType::CPU_Heap ||
      d.storage == ir::StorageType::Register || d.storage == ir::StorageType::CPU_Pinned)
    return host;
  std::shared_ptr<const plugin::StorageLowering> storage = registry->find_storage(ir::to_string(d.storage));
  if (!storage) return host;
  AllocationContext ctx(f, name, d, host);
  DACE_TRY(storage->lower_allocation(ctx));
  return ctx.bound ? ctx.bound : host;
}

Status emit_program(ModuleContext& mc, SdfgContext& sc, const LoweredModule& out,
                    const std::map<std::string, ProgramStateLowering>& states) {
  llvm::Type* ptr = llvm::PointerType::getUnqual(mc.ctx);
  std::vector<llvm::Type*> params{ptr};
  for (const auto& a : out.arguments)
    params.push_back(a.kind == analysis::Argument::Kind::Array ? ptr : scalar_param_type(mc.ctx, arg_type(a)));
  llvm::Function* fn = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(mc.ctx), params, false),
                                              llvm::Function::ExternalLinkage, out.program_function, mc.module);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  fn->getArg(0)->setName("state");
  Frame f(mc, sc, fn, nullptr, false);
  std::vector<size_t> deferred;  // arrays, rebound once the symbols their sizes use are bound
  for (size_t i = 0; i < out.arguments.size(); ++i) {
    const analysis::Argument& a = out.arguments[i];
    llvm::Argument* p = fn->getArg(static_cast<unsigned>(i + 1));
    p->setName(a.name);
    ScalarType t = arg_type(a);
    if (a.kind == analysis::Argument::Kind::Symbol) {
      llvm::Value* v = t == ScalarType::Bool ? f.b.CreateICmpNE(p, f.b.getInt8(0)) : static_cast<llvm::Value*>(p);
      f.bind_symbol(a.name, SymbolBinding{v, t, false});
      continue;
    }
    auto d = sc.sdfg.arrays.find(a.name);
    if (d == sc.sdfg.arrays.end()) return make_error(Code::Internal, sc.path + ": argument \"" + a.name + "\" has no descriptor");
    if (a.kind == analysis::Argument::Kind::Array) {
      if (mc.options.noalias_arguments && !d->second.may_alias) p->addAttr(llvm::Attribute::NoAlias);
      f.bind_data(a.name, DataBinding{p, &d->second, false});
      deferred.push_back(i);
    } else {
      // Scalars arrive by value; tasklets may write them, so they get a stack slot.
      llvm::AllocaInst* slot = f.entry_alloca(storage_type(mc.ctx, t), a.name);
      f.b.CreateStore(p, slot);
      f.bind_data(a.name, DataBinding{slot, &d->second, false});
    }
  }
  for (size_t i : deferred) {
    const analysis::Argument& a = out.arguments[i];
    const ir::DataDescriptor& d = sc.sdfg.arrays.at(a.name);
    Result<llvm::Value*> bound = bind_target_argument(f, a.name, d, fn->getArg(static_cast<unsigned>(i + 1)));
    if (!bound) return bound.take_error();
    f.bind_data(a.name, DataBinding{*bound, &d, false});
  }
  std::vector<std::string> persistent = persistent_containers(sc);
  for (size_t i = 0; i < persistent.size(); ++i) {
    llvm::Value* p = f.b.CreateLoad(ptr, state_slot(f.b, fn->getArg(0), i), persistent[i]);
    f.bind_data(persistent[i], DataBinding{p, &sc.sdfg.arrays.at(persistent[i]), false});
  }
  // Plugin program states may bind program-wide symbols before the body.
  size_t slot = persistent.size();
  for (const auto& [key, impl] : states) {
    ProgramStateContext pc(f, sc.sdfg, key);
    pc.state = f.b.CreateLoad(ptr, state_slot(f.b, fn->getArg(0), slot++), key + ".state");
    DACE_TRY(impl->lower_program_entry(pc));
  }
  return emit_sdfg_body(f);
}

}  // namespace

Result<LoweredModule> lower(const ir::SDFG& sdfg, llvm::LLVMContext& context, const LowerOptions& options) {
  if (options.validate) DACE_TRY(analysis::validate(sdfg));
  if (sdfg.name.empty()) return make_error(Code::InvalidSdfg, "sdfg: the SDFG has no name");
  LoweredModule out;
  out.sdfg_name = sdfg.name;
  out.init_function = "__dace_init_" + sdfg.name;
  out.program_function = "__program_" + sdfg.name;
  out.exit_function = "__dace_exit_" + sdfg.name;
  out.arguments = analysis::argument_list(sdfg);
  for (const std::string& s : analysis::free_symbols(sdfg)) {
    if (s.rfind("__dace", 0) == 0) continue;
    auto it = sdfg.symbols.find(s);
    out.init_arguments.push_back(analysis::Argument{
        s, analysis::Argument::Kind::Symbol, it != sdfg.symbols.end() ? it->second : ir::DType::of(ScalarType::Int64)});
  }
  std::string module_name = options.module_name.empty() ? sdfg.name : options.module_name;
  out.module = std::make_unique<llvm::Module>(module_name, context);
  out.module->setSourceFileName(module_name);
  ModuleContext mc{*out.module, context, options};
  SdfgContext sc{sdfg, ir::path_of(sdfg), {}, {}, {}, nullptr, "__dace_" + sdfg.name};
  DACE_TRY(init_sdfg_context(sc, true, options.registry));
  std::map<std::string, ProgramStateLowering> states = program_states(options, sdfg);
  DACE_TRY(emit_init(mc, sc, out, states));
  DACE_TRY(emit_program(mc, sc, out, states));
  DACE_TRY(emit_exit(mc, sc, out, states));
  for (const auto& finish : mc.finishers) DACE_TRY(finish());
  std::string err;
  llvm::raw_string_ostream os(err);
  if (llvm::verifyModule(*out.module, &os))
    return make_error(Code::Internal, ir::path_of(sdfg) + ": lowering produced invalid IR: " + os.str());
  return out;
}

std::string module_text(const llvm::Module& module) {
  std::string s;
  llvm::raw_string_ostream os(s);
  module.print(os, nullptr);
  return os.str();
}

}  // namespace dace::codegen
