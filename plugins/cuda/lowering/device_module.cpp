#include "lowering/device_module.h"

#include "codegen/ptx_symbol.h"
#include "codegen/run_status.h"
#include "codegen/target_lowering.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Triple.h>

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

#ifndef LIBDACE_CUDA_LIBDEVICE
#define LIBDACE_CUDA_LIBDEVICE ""
#endif

namespace dace::cuda {

DeviceModule::~DeviceModule() = default;

namespace {

constexpr const char* kTriple = "nvptx64-nvidia-cuda";
constexpr const char* kSelfKey = "cuda.self";
constexpr const char* kDeviceModuleKey = "cuda.device_module";

Result<std::unique_ptr<llvm::TargetMachine>> make_target(const std::string& arch) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  std::string error;
  const llvm::Target* t = llvm::TargetRegistry::lookupTarget(kTriple, error);
  if (!t) return make_error(Code::PluginUnavailable, "cuda: LLVM's NVPTX backend is not available: " + error);
  llvm::TargetOptions options;
  // PTX ISA 7.3 at least (CUDA 11.3 drivers): its `alloca` gives per-thread arrays of run-time
  // size (transients of symbolic size allocated inside kernels). A newer architecture's own
  // minimum (sm_90: 7.8) still wins.
  std::unique_ptr<llvm::TargetMachine> tm(
      t->createTargetMachine(kTriple, arch, "+ptx73", options, std::nullopt, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!tm) return make_error(Code::PluginUnavailable, "cuda: cannot create an NVPTX target machine for " + arch);
  return tm;
}

// Before the program runs, its init function makes sure there is a device: without a driver
// (or device) init returns null with the reason in the status record — the runtime's text
// behind "sdfg NAME: CUDA device" — which the JIT reports and an AOT host reads from
// __dace_status_<name> (docs/aot.md), as for any other failure of init.
void guard_init(codegen::ModuleContext& mc, const std::string& sdfg_name) {
  llvm::Module& host = mc.module;
  llvm::Function* init = host.getFunction("__dace_init_" + sdfg_name);
  if (!init || init->empty()) return;
  llvm::LLVMContext& ctx = host.getContext();
  llvm::BasicBlock* old_entry = &init->getEntryBlock();
  llvm::BasicBlock* check = llvm::BasicBlock::Create(ctx, "cuda.check", init, old_entry);
  llvm::BasicBlock* fail = llvm::BasicBlock::Create(ctx, "cuda.unavailable", init);
  llvm::IRBuilder<> b(check);
  llvm::FunctionCallee fn = host.getOrInsertFunction("dace_cuda_init", llvm::FunctionType::get(b.getInt32Ty(), false));
  llvm::Value* rc = b.CreateCall(fn, {}, "cuda.rc");
  b.CreateCondBr(b.CreateICmpEQ(rc, b.getInt32(0)), old_entry, fail);
  b.SetInsertPoint(fail);
  llvm::FunctionCallee error_text =
      host.getOrInsertFunction("dace_cuda_error_at", llvm::FunctionType::get(b.getPtrTy(), {b.getPtrTy()}, false));
  llvm::Value* what = b.CreateCall(error_text, {b.CreateGlobalString("sdfg " + sdfg_name + ": CUDA device", "cuda.operation")});
  // Nothing ran before this point in init, so the record (cleared by the caller) is written
  // directly: {code, value, what, bound}.
  llvm::GlobalVariable* record = mc.status_record();
  llvm::Type* record_type = record->getValueType();
  b.CreateStore(b.getInt32(static_cast<int32_t>(codegen::RunStatus::LibraryFailure)),
                b.CreateStructGEP(record_type, record, 0));
  b.CreateStore(b.CreateSExt(rc, b.getInt64Ty()), b.CreateStructGEP(record_type, record, 1));
  b.CreateStore(what, b.CreateStructGEP(record_type, record, 2));
  b.CreateRet(llvm::ConstantPointerNull::get(b.getPtrTy()));
}

// Emulation: the kernels, built for the host, join the host module (internal: the launches
// pass their addresses), and the host's runtime calls go to the runtime's emulation.
Status finish_emulated(DeviceModule& dm, codegen::ModuleContext& host) {
  guard_init(host, dm.sdfg_name);
  dm.mc.reset();
  std::unique_ptr<llvm::Module> device = std::move(dm.module);
  // What PTX refuses, emulation refuses too: a call the device could not make (a heap
  // allocation inside a kernel, a host runtime function) would run here but not on a GPU.
  for (llvm::Function& f : *device) {
    if (!f.isDeclaration() || f.isIntrinsic() || f.use_empty()) continue;
    const std::string name = f.getName().str();
    if (name == "dace_cuda_emu_block_index" || name == "dace_cuda_emu_grid_dim" || name == "dace_cuda_emu_grid_sync" ||
        has_libdevice_counterpart(name))
      continue;
    return make_error(Code::Unsupported, "cuda: device code of " + dm.sdfg_name + " calls " + name +
                                             ", which has no device implementation");
  }
  // Module-wide records the core defines in every module it emits into (the run status)
  // are the host's once linked: device code reports into the same record.
  for (llvm::GlobalVariable& g : device->globals())
    if (!g.isDeclaration() && !g.hasLocalLinkage() && host.module.getNamedGlobal(g.getName())) {
      g.setInitializer(nullptr);
      g.setLinkage(llvm::GlobalValue::ExternalLinkage);
    }
  std::string err;
  llvm::raw_string_ostream es(err);
  if (llvm::verifyModule(*device, &es))
    return make_error(Code::Internal, "cuda: invalid emulated device IR for " + dm.sdfg_name + ": " + es.str());
  if (llvm::Linker::linkModules(host.module, std::move(device)))
    return make_error(Code::Internal, "cuda: linking the emulated device code of " + dm.sdfg_name + " failed");
  for (const std::string& name : dm.kernels)
    if (llvm::Function* k = host.module.getFunction(name)) k->setLinkage(llvm::GlobalValue::InternalLinkage);
  std::vector<llvm::Function*> entries;
  for (llvm::Function& f : host.module)
    if (f.isDeclaration() && f.getName().starts_with("dace_cuda_") && !f.getName().starts_with("dace_cuda_emu_"))
      entries.push_back(&f);
  for (llvm::Function* f : entries) {
    const std::string to = emulated_entry(f->getName().str());
    if (to.empty())
      return make_error(Code::Unsupported, "cuda: the emulated device has no counterpart of " + f->getName().str());
    if (llvm::Function* existing = host.module.getFunction(to)) {
      f->replaceAllUsesWith(existing);
      f->eraseFromParent();
    } else {
      f->setName(to);
    }
  }
  return Status::success();
}

Status finish(DeviceModule& dm, codegen::ModuleContext& host) {
  if (dm.emulate) return finish_emulated(dm, host);
  Result<std::string> ptx = compile_ptx(dm);
  if (!ptx) return ptx.take_error();
  llvm::Constant* text = llvm::ConstantDataArray::getString(host.ctx, *ptx, true);
  auto* g = new llvm::GlobalVariable(host.module, text->getType(), true, llvm::GlobalValue::PrivateLinkage, text,
                                     "__dace_cuda_ptx." + dm.sdfg_name);
  g->setAlignment(llvm::Align(8));
  // The text's address under a name the JIT layer looks up (codegen/ptx_symbol.h).
  new llvm::GlobalVariable(host.module, g->getType(), true, llvm::GlobalValue::ExternalLinkage, g, codegen::kPtxSymbol);
  dm.ptx->replaceAllUsesWith(g);
  dm.ptx->eraseFromParent();
  dm.ptx = nullptr;
  guard_init(host, dm.sdfg_name);
  const std::string& dir = host.options.device_code_dir;
  if (!dir.empty()) {
    std::string path = dir + "/" + dm.sdfg_name + ".ptx";
    std::ofstream os(path, std::ios::binary);
    os << *ptx;
    if (!os) return make_error(Code::IoError, "cuda: cannot write " + path);
  }
  return Status::success();
}

}  // namespace

std::string target_arch() {
  const char* env = std::getenv("DACE_CUDA_ARCH");
  return env && *env ? env : "sm_80";
}

std::string libdevice_path() {
  const char* env = std::getenv("DACE_CUDA_LIBDEVICE");
  return env && *env ? env : LIBDACE_CUDA_LIBDEVICE;
}

std::string emulated_entry(const std::string& runtime_entry) {
  static const std::set<std::string> emulated = {"init",   "error",       "error_at",     "status", "malloc",
                                                 "free",   "copy",        "copy_2d",      "memset", "launch",
                                                 "synchronize", "gemm",  "argument_in",  "argument_out", "argument_discard",
                                                 "reserve_stack", "persistent_blocks", "malloc_host", "free_host",
                                                 // streams and events (runtime/dace_cuda_runtime.h)
                                                 "stream_create", "stream_destroy", "event_create", "streams_create", "streams_destroy",
                                                 "event_destroy", "event_record", "stream_wait_event",
                                                 "stream_synchronize", "launch_on", "copy_on", "copy_2d_on",
                                                 "gemm_on", "launch_cooperative"};
  const std::string prefix = "dace_cuda_";
  if (runtime_entry.rfind(prefix, 0) != 0) return "";
  const std::string rest = runtime_entry.substr(prefix.size());
  return emulated.count(rest) ? prefix + "emu_" + rest : "";
}

DeviceModule* device_module_of(codegen::ModuleContext& device) {
  auto it = device.target_state.find(kSelfKey);
  return it == device.target_state.end() ? nullptr : static_cast<DeviceModule*>(it->second.get());
}

Result<DeviceModule*> device_module(codegen::Frame& f) {
  const codegen::SdfgContext* s = &f.sc;
  while (s->parent) s = s->parent;
  return device_module(f.mc, s->sdfg.name);
}

void record_runtime_failure(codegen::Frame& f, llvm::Value* status, bool leave, const std::string& operation) {
  llvm::IRBuilder<>& b = f.b;
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  llvm::BasicBlock* failed = llvm::BasicBlock::Create(b.getContext(), "cuda.failed", fn);
  llvm::BasicBlock* next = llvm::BasicBlock::Create(b.getContext(), "cuda.ok", fn);
  if (status->getType()->isIntegerTy(1)) status = b.CreateZExt(status, b.getInt32Ty());
  b.CreateCondBr(b.CreateICmpNE(status, llvm::ConstantInt::get(status->getType(), 0)), failed, next);
  b.SetInsertPoint(failed);
  llvm::FunctionCallee error_text = f.mc.module.getOrInsertFunction(
      "dace_cuda_error_at", llvm::FunctionType::get(b.getPtrTy(), {b.getPtrTy()}, false));
  llvm::Value* what = b.CreateCall(error_text, {b.CreateGlobalString(operation, "cuda.operation")});
  f.record_failure(b.getInt32(static_cast<int32_t>(codegen::RunStatus::LibraryFailure)), what,
                   b.CreateSExt(status, b.getInt64Ty()));
  if (leave) f.leave();
  else b.CreateBr(next);
  b.SetInsertPoint(next);
}

void synchronize_on_exit(DeviceModule& dm, codegen::Frame& f, const std::string& where) {
  if (!dm.synchronized_functions.insert(f.fn).second) return;
  codegen::Frame* frame = &f;
  const std::string what = where + ": kernel execution (dace_cuda_synchronize)";
  f.exit_actions.insert(f.exit_actions.begin(), [frame, what](llvm::IRBuilder<>& eb) {
    llvm::FunctionCallee sync = frame->mc.module.getOrInsertFunction(
        "dace_cuda_synchronize", llvm::FunctionType::get(eb.getInt32Ty(), false));
    record_runtime_failure(*frame, eb.CreateCall(sync, {}), /*leave=*/false, what);
  });
}

DeviceModule* existing_device_module(codegen::ModuleContext& host) {
  auto it = host.target_state.find(kDeviceModuleKey);
  return it == host.target_state.end() ? nullptr : static_cast<DeviceModule*>(it->second.get());
}

Result<DeviceModule*> device_module(codegen::ModuleContext& host, const std::string& sdfg_name) {
  const std::string key = kDeviceModuleKey;
  auto it = host.target_state.find(key);
  if (it != host.target_state.end()) return static_cast<DeviceModule*>(it->second.get());
  auto dm = std::make_shared<DeviceModule>();
  dm->emulate = host.options.emulate_device;
  dm->sdfg_name = sdfg_name;
  dm->module = std::make_unique<llvm::Module>(host.module.getName().str() + ".device", host.ctx);
  if (!dm->emulate) {
    Result<std::unique_ptr<llvm::TargetMachine>> tm = make_target(target_arch());
    if (!tm) return tm.take_error();
    dm->target = std::move(*tm);
    dm->module->setTargetTriple(kTriple);
    dm->module->setDataLayout(dm->target->createDataLayout());
    dm->ptx = new llvm::GlobalVariable(host.module, llvm::Type::getInt8Ty(host.ctx), true,
                                       llvm::GlobalValue::ExternalLinkage, nullptr, "__dace_cuda_ptx.pending");
  }  // emulated: the host's triple and data layout, which the JIT sets for both once linked
  dm->mc.reset(new codegen::ModuleContext{*dm->module, host.ctx, host.options});
  dm->mc->target_state[codegen::kDeviceCodeKey] = nullptr;
  DeviceModule* raw = dm.get();
  // Not owning (the host's target state owns it): lets lowerings inside kernels find it.
  dm->mc->target_state[kSelfKey] = std::shared_ptr<void>(raw, [](void*) {});
  host.target_state[key] = dm;
  host.finishers.push_back([raw, &host]() { return finish(*raw, host); });
  return raw;
}

}  // namespace dace::cuda
