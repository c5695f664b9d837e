#include "jit/target.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace dace::jit {

Status initialize_native_target() {
  static std::once_flag once;
  static bool ok = false;
  std::call_once(once, [] {
    ok = !llvm::InitializeNativeTarget() && !llvm::InitializeNativeTargetAsmPrinter() &&
         !llvm::InitializeNativeTargetAsmParser();
  });
  if (!ok) return make_error(Code::Unsupported, "LLVM has no code generator for this host");
  return Status::success();
}

Result<TargetInfo> detect_host_target() {
  DACE_TRY(initialize_native_target());
  TargetInfo t;
  t.triple = llvm::sys::getProcessTriple();
  t.cpu = llvm::sys::getHostCPUName().str();
  // StringMap iteration order is an implementation detail; sort for a canonical string.
  std::vector<std::string> features;
  for (const auto& f : llvm::sys::getHostCPUFeatures())
    features.push_back((f.second ? "+" : "-") + f.first().str());
  std::sort(features.begin(), features.end(),
            [](const std::string& a, const std::string& b) { return a.substr(1) < b.substr(1); });
  for (const std::string& f : features) {
    if (!t.features.empty()) t.features += ",";
    t.features += f;
  }
  t.llvm_version = LLVM_VERSION_STRING;

  std::string err;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(t.triple, err);
  if (!target) return make_error(Code::Unsupported, "no LLVM target for " + t.triple + ": " + err);
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      t.triple, t.cpu, t.features, llvm::TargetOptions(), llvm::Reloc::PIC_, llvm::CodeModel::Small));
  if (!tm) return make_error(Code::Unsupported, "cannot create a TargetMachine for " + t.triple);
  t.data_layout = tm->createDataLayout().getStringRepresentation();
  return t;
}

}  // namespace dace::jit
