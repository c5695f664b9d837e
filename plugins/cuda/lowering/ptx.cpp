// Device module -> PTX: math calls onto libdevice, stack intrinsics onto PTX's stacksave /
// stackrestore, libdevice linked (only what is used),
// everything but the kernels internalized, O3 with the NVPTX target's own passes (NVVMReflect
// resolves libdevice's __nvvm_reflect), then the NVPTX backend's assembly printer.
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Utils/LowerAtomic.h>

#include <map>
#include <set>

#include "codegen/codegen_passes.h"
#include "codegen/llvm_fatal_errors.h"
#include "lowering/device_module.h"

namespace dace::cuda {

namespace {

// LLVM math intrinsics the NVPTX backend cannot select, by their libdevice base names.
const std::map<llvm::Intrinsic::ID, std::string>& libdevice_intrinsics() {
  static const std::map<llvm::Intrinsic::ID, std::string> m = {
      {llvm::Intrinsic::sin, "sin"},     {llvm::Intrinsic::cos, "cos"},     {llvm::Intrinsic::exp, "exp"},
      {llvm::Intrinsic::exp2, "exp2"},   {llvm::Intrinsic::exp10, "exp10"}, {llvm::Intrinsic::log, "log"},
      {llvm::Intrinsic::log2, "log2"},   {llvm::Intrinsic::log10, "log10"}, {llvm::Intrinsic::pow, "pow"},
      {llvm::Intrinsic::powi, "powi"},   {llvm::Intrinsic::rint, "rint"},   {llvm::Intrinsic::round, "round"},
      {llvm::Intrinsic::nearbyint, "nearbyint"},
  };
  return m;
}

}  // namespace

// libm functions the lowering calls by name (math_calls.cpp) with libdevice counterparts
// (__nv_<name> for double, __nv_<name>f for float).
bool libm_function(const std::string& name) {
  static const std::set<std::string> names = {
      "sin",  "cos",   "tan",   "asin",  "acos",  "atan",   "atan2", "sinh", "cosh",  "tanh",   "asinh",
      "acosh", "atanh", "exp",  "exp2",  "exp10", "expm1",  "log",   "log2", "log10", "log1p",  "cbrt",
      "sqrt", "erf",   "erfc",  "tgamma", "lgamma", "hypot", "pow",  "fmod", "floor", "ceil",   "trunc",
      "round", "rint", "nearbyint", "fabs", "fmin", "fmax", "copysign", "remainder", "ldexp", "frexp", "modf",
      "nextafter", "fdim", "logb", "ilogb", "scalbn", "sincos", "erfinv", "rsqrt"};
  return names.count(name) > 0;
}

bool has_libdevice_counterpart(const std::string& name) {
  if (libm_function(name)) return true;
  return name.size() > 1 && name.back() == 'f' && libm_function(name.substr(0, name.size() - 1));
}

namespace {

std::string float_suffix(llvm::Type* t) { return t->isFloatTy() ? "f" : ""; }

// Rewrites math intrinsics without NVPTX lowering into libdevice calls and renames libm
// declarations (tanh, tanhf) to libdevice's (__nv_tanh, __nv_tanhf).
void map_math(llvm::Module& m) {
  std::vector<llvm::CallInst*> calls;
  for (llvm::Function& f : m)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb)
        if (auto* c = llvm::dyn_cast<llvm::CallInst>(&i))
          if (llvm::Function* callee = c->getCalledFunction();
              callee && callee->isIntrinsic() && libdevice_intrinsics().count(callee->getIntrinsicID()))
            calls.push_back(c);
  for (llvm::CallInst* c : calls) {
    llvm::Function* callee = c->getCalledFunction();
    llvm::Type* t = c->getType();
    if (!t->isFloatTy() && !t->isDoubleTy()) continue;  // vectors and halves stay (none are emitted)
    std::string name = "__nv_" + libdevice_intrinsics().at(callee->getIntrinsicID()) + float_suffix(t);
    std::vector<llvm::Type*> params;
    std::vector<llvm::Value*> args;
    for (llvm::Value* a : c->args()) {
      params.push_back(a->getType());
      args.push_back(a);
    }
    llvm::FunctionCallee fn = m.getOrInsertFunction(name, llvm::FunctionType::get(t, params, false));
    llvm::IRBuilder<> b(c);
    llvm::CallInst* nc = b.CreateCall(fn, args);
    nc->copyFastMathFlags(c);
    c->replaceAllUsesWith(nc);
    c->eraseFromParent();
  }
  for (llvm::Function& f : m) {
    if (!f.isDeclaration() || f.isIntrinsic()) continue;
    std::string name = f.getName().str();
    std::string base = name;
    if (!libm_function(base) && base.size() > 1 && base.back() == 'f' && libm_function(base.substr(0, base.size() - 1)))
      base = base.substr(0, base.size() - 1);
    if (libm_function(base)) f.setName("__nv_" + name);
  }
}

// The core marks and resets the stack around dynamic stack arrays with llvm.stacksave /
// llvm.stackrestore, which LLVM 19's NVPTX backend cannot select: they become PTX 7.3's own
// instructions (inline assembly on the 64-bit stack pointer value).
void lower_stack_intrinsics(llvm::Module& m) {
  std::vector<llvm::IntrinsicInst*> calls;
  for (llvm::Function& f : m)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb)
        if (auto* c = llvm::dyn_cast<llvm::IntrinsicInst>(&i);
            c && (c->getIntrinsicID() == llvm::Intrinsic::stacksave || c->getIntrinsicID() == llvm::Intrinsic::stackrestore))
          calls.push_back(c);
  for (llvm::IntrinsicInst* c : calls) {
    llvm::IRBuilder<> b(c);
    llvm::Type* i64 = b.getInt64Ty();
    if (c->getIntrinsicID() == llvm::Intrinsic::stacksave) {
      llvm::InlineAsm* save = llvm::InlineAsm::get(llvm::FunctionType::get(i64, false), "stacksave.u64 $0;", "=l", true);
      llvm::Value* mark = b.CreateIntToPtr(b.CreateCall(save, {}, "stack.mark"), c->getType());
      c->replaceAllUsesWith(mark);
    } else {
      llvm::InlineAsm* restore =
          llvm::InlineAsm::get(llvm::FunctionType::get(b.getVoidTy(), {i64}, false), "stackrestore.u64 $0;", "l", true);
      b.CreateCall(restore, {b.CreatePtrToInt(c->getArgOperand(0), i64)});
    }
    c->eraseFromParent();
  }
}

Result<std::unique_ptr<llvm::Module>> load_libdevice(llvm::LLVMContext& ctx) {
  const std::string path = libdevice_path();
  if (path.empty())
    return make_error(Code::PluginUnavailable, "cuda: libdevice was not found at build time; set DACE_CUDA_LIBDEVICE");
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) return make_error(Code::PluginUnavailable, "cuda: cannot read libdevice " + path + ": " + buffer.getError().message());
  auto mod = llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), ctx);
  if (!mod) {
    std::string msg = llvm::toString(mod.takeError());
    return make_error(Code::PluginUnavailable, "cuda: cannot parse libdevice " + path + ": " + msg);
  }
  return std::move(*mod);
}

bool calls_libdevice(const llvm::Module& m) {
  for (const llvm::Function& f : m)
    if (f.isDeclaration() && f.getName().starts_with("__nv_")) return true;
  return false;
}

// Atomic updates of a thread's own stack memory (write-conflict resolution into a transient
// private to the thread, which the lowering could not tell apart from shared memory) become
// plain loads and stores: no other thread can see that memory, and NVPTX has no atomics on
// local memory — its instruction selection stops the whole process on one.
constexpr unsigned kLocalAddressSpace = 5;  // NVPTX's per-thread local memory

void lower_private_atomics(llvm::Module& m) {
  std::vector<llvm::Instruction*> private_atomics;
  for (llvm::Function& f : m)
    for (llvm::Instruction& i : llvm::instructions(f)) {
      llvm::Value* address = nullptr;
      if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&i)) address = rmw->getPointerOperand();
      else if (auto* cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i)) address = cas->getPointerOperand();
      if (!address) continue;
      const llvm::Value* object = llvm::getUnderlyingObject(address, /*MaxLookup=*/0);
      if (llvm::isa<llvm::AllocaInst>(object) || address->getType()->getPointerAddressSpace() == kLocalAddressSpace)
        private_atomics.push_back(&i);
    }
  for (llvm::Instruction* i : private_atomics) {
    if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(i)) llvm::lowerAtomicRMWInst(rmw);
    else llvm::lowerAtomicCmpXchgInst(llvm::cast<llvm::AtomicCmpXchgInst>(i));
  }
}

}  // namespace

Result<std::string> compile_ptx(DeviceModule& dm) {
  llvm::Module& m = *dm.module;
  const std::set<std::string> kernels(dm.kernels.begin(), dm.kernels.end());
  map_math(m);
  lower_stack_intrinsics(m);
  if (calls_libdevice(m)) {
    Result<std::unique_ptr<llvm::Module>> lib = load_libdevice(m.getContext());
    if (!lib) return lib.take_error();
    (*lib)->setTargetTriple(m.getTargetTriple());
    (*lib)->setDataLayout(m.getDataLayout());
    if (llvm::Linker::linkModules(m, std::move(*lib), llvm::Linker::LinkOnlyNeeded))
      return make_error(Code::Internal, "cuda: linking libdevice into " + dm.sdfg_name + " failed");
  }
  // libdevice's flush-to-zero switch: off (IEEE results, like DaCe's default nvcc flags).
  m.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", static_cast<uint32_t>(0));
  for (llvm::Function& f : m)
    if (!f.isDeclaration() && !kernels.count(f.getName().str())) f.setLinkage(llvm::GlobalValue::InternalLinkage);
  std::string err;
  llvm::raw_string_ostream es(err);
  if (llvm::verifyModule(m, &es)) return make_error(Code::Internal, "cuda: invalid device IR for " + dm.sdfg_name + ": " + es.str());

  {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(dm.target.get());
    dm.target->registerPassBuilderCallbacks(pb);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cam, mam);
    llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    DACE_TRY(codegen::run_recovering_llvm_fatal_errors("cuda: optimizing the device code of " + dm.sdfg_name,
                                                       [&] { mpm.run(m, mam); }));
  }
  lower_private_atomics(m);
  // After optimization (NVVMReflect has resolved libdevice's __nvvm_reflect queries), any
  // call left to a declaration has nothing to link against on the device.
  for (llvm::Function& f : m) {
    if (!f.isDeclaration() || f.isIntrinsic() || f.use_empty()) continue;
    return make_error(Code::Unsupported, "cuda: device code of " + dm.sdfg_name + " calls " + f.getName().str() +
                                             ", which has no device implementation");
  }

  llvm::SmallString<0> text;
  llvm::raw_svector_ostream os(text);
  llvm::legacy::PassManager pm;
  // With loop strength reduction, whatever the host's code generator uses (jit/emit.h):
  // address arithmetic of kernel loops becomes pointer increments instead of a multiply per
  // access, and the PTX does not depend on which compile of the process came first.
  if (!codegen::add_codegen_passes(pm, *dm.target, os, llvm::CodeGenFileType::AssemblyFile, /*lsr=*/true))
    return make_error(Code::Internal, "cuda: the NVPTX backend cannot emit PTX");
  DACE_TRY(codegen::run_recovering_llvm_fatal_errors("cuda: generating PTX for " + dm.sdfg_name, [&] { pm.run(m); }));
  return std::string(text.str());
}

}  // namespace dace::cuda
