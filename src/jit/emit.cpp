#include "jit/emit.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CodeGen.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

namespace dace::jit {
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

Result<std::string> run_codegen(llvm::Module& module, llvm::TargetMachine& tm,
                                llvm::CodeGenFileType type) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  llvm::TargetLibraryInfoImpl tlii(llvm::Triple(module.getTargetTriple()));
  pm.add(new llvm::TargetLibraryInfoWrapperPass(tlii));
  if (!add_codegen_passes(pm, tm, os, type, host_lsr()))
    return make_error(Code::CompileError, "the host TargetMachine cannot emit this file type");
  pm.run(module);
  return std::string(buffer.data(), buffer.size());
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

Result<std::string> emit_object(llvm::Module& module, llvm::TargetMachine& tm) {
  return run_codegen(module, tm, llvm::CodeGenFileType::ObjectFile);
}

Result<std::string> emit_assembly(const llvm::Module& module, llvm::TargetMachine& tm) {
  std::unique_ptr<llvm::Module> clone = llvm::CloneModule(module);
  return run_codegen(*clone, tm, llvm::CodeGenFileType::AssemblyFile);
}

std::string print_module(const llvm::Module& module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr, /*ShouldPreserveUseListOrder=*/false, /*IsForDebug=*/false);
  os.flush();
  return text;
}

}  // namespace dace::jit
