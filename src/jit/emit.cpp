#include "jit/emit.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CodeGen.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "codegen/codegen_passes.h"
#include "codegen/llvm_fatal_errors.h"

namespace dace::jit {
namespace {

Result<std::string> run_codegen(llvm::Module& module, llvm::TargetMachine& tm,
                                llvm::CodeGenFileType type) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  llvm::TargetLibraryInfoImpl tlii(llvm::Triple(module.getTargetTriple()));
  pm.add(new llvm::TargetLibraryInfoWrapperPass(tlii));
  if (!codegen::add_codegen_passes(pm, tm, os, type, codegen::host_lsr()))
    return make_error(Code::CompileError, "the host TargetMachine cannot emit this file type");
  DACE_TRY(codegen::run_recovering_llvm_fatal_errors(
      "generating host code for module \"" + module.getModuleIdentifier() + "\"", [&] { pm.run(module); }));
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
