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

// Loop strength reduction takes about half of the code generator's time on the wide
// vectorized loops that maps become (0.38 s -> 0.13 s for NPBench heat_3d) and gains them
// little, so it is off by default; DACE_JIT_LSR=1 turns it back on. LLVM keeps the switch
// in a process-wide command-line option, set once here.
void configure_codegen_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* env = std::getenv("DACE_JIT_LSR");
    if (env && std::strcmp(env, "1") == 0) return;
    auto& options = llvm::cl::getRegisteredOptions();
    auto it = options.find("disable-lsr");
    if (it == options.end()) return;
    if (auto* flag = static_cast<llvm::cl::opt<bool>*>(it->second)) flag->setValue(true);
  });
}

Result<std::string> run_codegen(llvm::Module& module, llvm::TargetMachine& tm,
                                llvm::CodeGenFileType type) {
  configure_codegen_once();
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  llvm::TargetLibraryInfoImpl tlii(llvm::Triple(module.getTargetTriple()));
  pm.add(new llvm::TargetLibraryInfoWrapperPass(tlii));
  if (tm.addPassesToEmitFile(pm, os, nullptr, type))
    return make_error(Code::CompileError, "the host TargetMachine cannot emit this file type");
  pm.run(module);
  return std::string(buffer.data(), buffer.size());
}

}  // namespace

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
