#include "lowering/device_module.h"

#include "codegen/target_lowering.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Triple.h>

#include <cstdlib>
#include <fstream>
#include <mutex>

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
  std::unique_ptr<llvm::TargetMachine> tm(
      t->createTargetMachine(kTriple, arch, "", options, std::nullopt, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!tm) return make_error(Code::PluginUnavailable, "cuda: cannot create an NVPTX target machine for " + arch);
  return tm;
}

// Before the program runs, its init function makes sure there is a device: without a driver
// init returns null (the caller reports "init failed"; the runtime prints why once).
void guard_init(llvm::Module& host, const std::string& sdfg_name) {
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
  b.CreateRet(llvm::ConstantPointerNull::get(b.getPtrTy()));
}

Status finish(DeviceModule& dm, codegen::ModuleContext& host) {
  Result<std::string> ptx = compile_ptx(dm);
  if (!ptx) return ptx.take_error();
  llvm::Constant* text = llvm::ConstantDataArray::getString(host.ctx, *ptx, true);
  auto* g = new llvm::GlobalVariable(host.module, text->getType(), true, llvm::GlobalValue::PrivateLinkage, text,
                                     "__dace_cuda_ptx." + dm.sdfg_name);
  g->setAlignment(llvm::Align(8));
  dm.ptx->replaceAllUsesWith(g);
  dm.ptx->eraseFromParent();
  dm.ptx = nullptr;
  guard_init(host.module, dm.sdfg_name);
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

Result<DeviceModule*> device_module(codegen::ModuleContext& host, const std::string& sdfg_name) {
  const std::string key = "cuda.device_module";
  auto it = host.target_state.find(key);
  if (it != host.target_state.end()) return static_cast<DeviceModule*>(it->second.get());
  auto dm = std::make_shared<DeviceModule>();
  Result<std::unique_ptr<llvm::TargetMachine>> tm = make_target(target_arch());
  if (!tm) return tm.take_error();
  dm->target = std::move(*tm);
  dm->sdfg_name = sdfg_name;
  dm->module = std::make_unique<llvm::Module>(host.module.getName().str() + ".device", host.ctx);
  dm->module->setTargetTriple(kTriple);
  dm->module->setDataLayout(dm->target->createDataLayout());
  dm->mc.reset(new codegen::ModuleContext{*dm->module, host.ctx, host.options});
  dm->mc->target_state[codegen::kDeviceCodeKey] = nullptr;
  dm->ptx = new llvm::GlobalVariable(host.module, llvm::Type::getInt8Ty(host.ctx), true,
                                     llvm::GlobalValue::ExternalLinkage, nullptr, "__dace_cuda_ptx.pending");
  DeviceModule* raw = dm.get();
  host.target_state[key] = dm;
  host.finishers.push_back([raw, &host]() { return finish(*raw, host); });
  return raw;
}

}  // namespace dace::cuda
