#include "codegen/codegen_passes.h"

#include <llvm/IR/LegacyPassManager.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Target/TargetMachine.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

namespace dace::codegen {
namespace {

// The process-wide switch LLVM's code generator reads while it adds its IR passes.
llvm::cl::opt<bool>* disable_lsr_option() {
  static llvm::cl::opt<bool>* option = [] {
    auto& options = llvm::cl::getRegisteredOptions();
    auto it = options.find("disable-lsr");
    return it == options.end() ? nullptr : static_cast<llvm::cl::opt<bool>*>(it->second);
  }();
  return option;
}

}  // namespace

// Loop strength reduction takes about half of the code generator's time on the wide
// vectorized loops that maps become (0.38 s -> 0.13 s for NPBench heat_3d) and gains them
// little, so host code goes without it by default; DACE_JIT_LSR=1 turns it back on.
bool host_lsr() {
  static const bool on = [] {
    const char* env = std::getenv("DACE_JIT_LSR");
    return env && std::strcmp(env, "1") == 0;
  }();
  return on;
}

bool add_codegen_passes(llvm::legacy::PassManager& pm, llvm::TargetMachine& tm, llvm::raw_pwrite_stream& os,
                        llvm::CodeGenFileType type, bool lsr) {
  static std::mutex building;
  std::lock_guard<std::mutex> lock(building);
  if (llvm::cl::opt<bool>* disable = disable_lsr_option()) disable->setValue(!lsr);
  return !tm.addPassesToEmitFile(pm, os, nullptr, type);
}

}  // namespace dace::codegen
