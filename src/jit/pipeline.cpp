#include "jit/pipeline.h"

#include "codegen/llvm_fatal_errors.h"
#include "jit/table_driven_bit_loops.h"
#include "jit/widen_narrow_phis.h"

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/OptimizationLevel.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Triple.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace dace::jit {
namespace {

// C math functions whose only side effect is errno. Excluded on purpose: lgamma (writes
// signgam), frexp/modf/sincos/remquo (write through a pointer).
constexpr const char* kErrnoOnlyMath[] = {
    "acos",  "acosh", "asin",  "asinh", "atan",  "atan2", "atanh", "cbrt",  "cos",
    "cosh",  "erf",   "erfc",  "exp",   "exp10", "exp2",  "expm1", "fdim",  "fmod",
    "hypot", "ldexp", "log",   "log10", "log1p", "log2",  "logb",  "pow",   "remainder",
    "sin",   "sinh",  "sqrt",  "tan",   "tanh",  "tgamma"};

bool is_errno_only_math(llvm::StringRef name) {
  llvm::StringRef base = name;
  for (const char* f : kErrnoOnlyMath) {
    if (base == f) return true;
    if (base.size() == std::string_view(f).size() + 1 && base.starts_with(f) &&
        base.back() == 'f')
      return true;
  }
  return false;
}

// The loop vectorizer forms interleave groups (one wide load or store and shuffles for the
// fields of an array of pairs, e.g. the real and imaginary parts of complex128) only for
// unconditional accesses unless this switch is on; a conditional update of a complex element
// inside a vectorized loop (`if |Z[i]| < h: Z[i] = Z[i]**2 + C[i]`) otherwise becomes one gather
// per field and a scatter. The target still decides: groups are masked only where it has masked
// loads and stores (AVX-512) and its cost model prefers them. LLVM keeps the switch in a
// process-wide command-line option, set once here (before the first vectorizer runs);
// DACE_JIT_MASKED_INTERLEAVE=0 leaves LLVM's default (off on x86).
void enable_masked_interleaved_groups_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (!masked_interleave_requested()) return;
    auto& options = llvm::cl::getRegisteredOptions();
    auto it = options.find("enable-masked-interleaved-mem-accesses");
    if (it == options.end()) return;
    // As if given on the command line: the vectorizer asks whether it was given at all.
    it->second->addOccurrence(0, it->first(), "true");
  });
}

}  // namespace

bool masked_interleave_requested() {
  const char* env = std::getenv("DACE_JIT_MASKED_INTERLEAVE");
  return !(env && std::strcmp(env, "0") == 0);
}

void stamp_function_attributes(llvm::Module& module, std::string_view cpu,
                               std::string_view features, const OptimizationOptions& options) {
  for (llvm::Function& f : module) {
    if (f.isDeclaration()) continue;
    // Unwind tables as clang emits by default on x86-64: debuggers, profilers and the C++
    // unwinder can walk through JIT'd frames (registered by the session, removed on unload).
    f.setUWTableKind(llvm::UWTableKind::Async);
    f.addFnAttr("target-cpu", llvm::StringRef(cpu.data(), cpu.size()));
    f.addFnAttr("target-features", llvm::StringRef(features.data(), features.size()));
    f.addFnAttr("no-trapping-math", "true");
    f.addFnAttr("no-signed-zeros-fp-math", "true");
    const char* fast = options.fast_math ? "true" : "false";
    f.addFnAttr("no-nans-fp-math", fast);
    f.addFnAttr("no-infs-fp-math", fast);
    f.addFnAttr("approx-func-fp-math", fast);
    f.addFnAttr("unsafe-fp-math", fast);
  }
}

int mark_math_errno_free(llvm::Module& module) {
  llvm::TargetLibraryInfoImpl tlii(llvm::Triple(module.getTargetTriple()));
  int marked = 0;
  for (llvm::Function& f : module) {
    if (!f.isDeclaration() || f.isIntrinsic() || !is_errno_only_math(f.getName())) continue;
    llvm::LibFunc lf;
    if (!tlii.getLibFunc(f, lf)) continue;  // prototype does not match the C function
    f.setDoesNotAccessMemory();
    f.setDoesNotThrow();
    f.addFnAttr(llvm::Attribute::WillReturn);
    f.addFnAttr(llvm::Attribute::NoSync);
    ++marked;
  }
  return marked;
}

Status optimize_module(llvm::Module& module, llvm::TargetMachine& tm,
                       const OptimizationOptions& options, bool use_libmvec) {
  int level = std::clamp(options.level, 0, 3);
  enable_masked_interleaved_groups_once();
  llvm::Triple triple(module.getTargetTriple());

  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = level >= 2;
  tuning.SLPVectorization = level >= 2;
  tuning.LoopInterleaving = level >= 2;
  tuning.LoopUnrolling = level >= 1;

  // Declaration order matters: managers are destroyed in reverse (module proxies first).
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm, tuning);

  llvm::TargetLibraryInfoImpl tlii(triple);
  if (use_libmvec && options.vector_math_library && triple.isX86())
    tlii.addVectorizableFunctionsFromVecLib(llvm::TargetLibraryInfoImpl::LIBMVEC_X86, triple);
  // Registered before the defaults so that this TargetLibraryAnalysis wins.
  fam.registerPass([&] { return llvm::TargetLibraryAnalysis(tlii); });

  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);

  static const llvm::OptimizationLevel* const kLevels[] = {
      &llvm::OptimizationLevel::O0, &llvm::OptimizationLevel::O1, &llvm::OptimizationLevel::O2,
      &llvm::OptimizationLevel::O3};
  // Before loop deletion and full unrolling (which would spread a bit loop's steps through
  // its parent): see table_driven_bit_loops.h.
  if (level >= 2)
    pb.registerLateLoopOptimizationsEPCallback([](llvm::LoopPassManager& pm, llvm::OptimizationLevel) {
      pm.addPass(TableDrivenBitLoopsPass());
    });
  // Last, once instcombine has narrowed what it could: see widen_narrow_phis.h.
  if (level >= 2)
    pb.registerOptimizerLastEPCallback([](llvm::ModulePassManager& pm, llvm::OptimizationLevel) {
      pm.addPass(llvm::createModuleToFunctionPassAdaptor(WidenNarrowPhisPass()));
    });
  llvm::ModulePassManager mpm = level == 0
                                    ? pb.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
                                    : pb.buildPerModuleDefaultPipeline(*kLevels[level]);
  return codegen::run_recovering_llvm_fatal_errors(
      "optimizing module \"" + module.getModuleIdentifier() + "\"", [&] { mpm.run(module, mam); });
}

}  // namespace dace::jit
