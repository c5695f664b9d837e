// run_recovering_llvm_fatal_errors (codegen/llvm_fatal_errors.h): LLVM's fatal errors inside a
// guard become a status and leave the process running; outside every guard LLVM still ends
// the process as it does without libdace. The host's and NVPTX's instruction selection are
// made to fail on real IR; the JIT's own path is in jit_session_test.cpp.
#include <gtest/gtest.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "codegen/codegen_passes.h"
#include "codegen/llvm_fatal_errors.h"

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

namespace dace::codegen {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(LlvmFatalErrors, AFatalErrorInsideTheGuardIsACompileError) {
  Status s = run_recovering_llvm_fatal_errors("step one", [] { llvm::report_fatal_error("made-up reason"); });
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Code::CompileError);
  EXPECT_TRUE(contains(s.error().message, "step one")) << s.error().message;
  EXPECT_TRUE(contains(s.error().message, "made-up reason")) << s.error().message;
  // The same thread goes on, and a body that does not fail succeeds.
  int ran = 0;
  Status again = run_recovering_llvm_fatal_errors("step two", [&] { ++ran; });
  EXPECT_TRUE(again.ok());
  EXPECT_EQ(ran, 1);
}

TEST(LlvmFatalErrors, TheInnermostGuardTakesTheError) {
  Status inner = Status::success();
  bool outer_went_on = false;
  Status outer = run_recovering_llvm_fatal_errors("outer", [&] {
    inner = run_recovering_llvm_fatal_errors("inner", [] { llvm::report_fatal_error("deep"); });
    outer_went_on = true;
  });
  EXPECT_TRUE(outer.ok());
  EXPECT_TRUE(outer_went_on);
  ASSERT_FALSE(inner.ok());
  EXPECT_TRUE(contains(inner.error().message, "inner: LLVM stopped: deep")) << inner.error().message;
}

TEST(LlvmFatalErrors, OtherExceptionsPassThrough) {
  EXPECT_THROW((void)run_recovering_llvm_fatal_errors("x", [] { throw std::runtime_error("not LLVM's"); }),
               std::runtime_error);
}

// Outside every guard (also after a guard was left by an exception) LLVM's behaviour is kept:
// its message, then the process ends. A host sharing libLLVM sees no difference.
TEST(LlvmFatalErrorsDeathTest, OutsideEveryGuardLlvmStillEndsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        (void)run_recovering_llvm_fatal_errors("installs the handler", [] {});
        try {
          (void)run_recovering_llvm_fatal_errors("left by an exception", [] { throw std::runtime_error("x"); });
        } catch (const std::runtime_error&) {
        }
        llvm::report_fatal_error("outside of libdace", /*gen_crash_diag=*/false);
      },
      testing::ExitedWithCode(1), "LLVM ERROR: outside of libdace");
}

TEST(LlvmFatalErrors, ThreadsRecoverTheirOwnErrors) {
  std::atomic<int> recovered{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        const std::string reason = "thread " + std::to_string(t) + " try " + std::to_string(i);
        Status s = run_recovering_llvm_fatal_errors("threaded", [&] { llvm::report_fatal_error(llvm::Twine(reason)); });
        if (!s.ok() && contains(s.error().message, reason)) ++recovered;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(recovered.load(), 200);
}

// Code generation for `tm` of `module` under the guard, as src/jit and the CUDA plugin run it.
Status generate(llvm::Module& module, llvm::TargetMachine& tm, std::string& text) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  if (!add_codegen_passes(pm, tm, os, llvm::CodeGenFileType::AssemblyFile, /*lsr=*/true))
    return make_error(Code::Internal, "no code generator");
  Status s = run_recovering_llvm_fatal_errors("test codegen", [&] { pm.run(module); });
  text.assign(buffer.data(), buffer.size());
  return s;
}

std::unique_ptr<llvm::TargetMachine> nvptx_target() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  std::string error;
  const llvm::Target* t = llvm::TargetRegistry::lookupTarget("nvptx64-nvidia-cuda", error);
  if (!t) return nullptr;
  return std::unique_ptr<llvm::TargetMachine>(t->createTargetMachine(
      "nvptx64-nvidia-cuda", "sm_80", "+ptx73", llvm::TargetOptions(), std::nullopt, std::nullopt));
}

// void f(ptr addrspace(5) p) with a compare-and-swap on p (a thread's local memory), which
// NVPTX's instruction selection cannot handle; or, with `valid`, a plain store.
std::unique_ptr<llvm::Module> local_cas_module(llvm::LLVMContext& ctx, llvm::TargetMachine& tm, bool valid) {
  auto m = std::make_unique<llvm::Module>("local_cas", ctx);
  m->setTargetTriple(tm.getTargetTriple().str());
  m->setDataLayout(tm.createDataLayout());
  llvm::IRBuilder<> b(ctx);
  auto* ptr5 = llvm::PointerType::get(ctx, 5);
  auto* f = llvm::Function::Create(llvm::FunctionType::get(b.getVoidTy(), {ptr5}, false),
                                   llvm::Function::ExternalLinkage, "f", *m);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", f));
  if (valid)
    b.CreateStore(b.getInt32(1), f->getArg(0));
  else
    b.CreateAtomicCmpXchg(f->getArg(0), b.getInt32(0), b.getInt32(1), llvm::MaybeAlign(4),
                          llvm::AtomicOrdering::SequentiallyConsistent, llvm::AtomicOrdering::SequentiallyConsistent);
  b.CreateRetVoid();
  return m;
}

TEST(LlvmFatalErrors, NvptxInstructionSelectionFailureIsACompileError) {
  std::unique_ptr<llvm::TargetMachine> tm = nvptx_target();
  if (!tm) GTEST_SKIP() << "LLVM's NVPTX backend is not in this libLLVM";
  {
    llvm::LLVMContext ctx;
    auto m = local_cas_module(ctx, *tm, /*valid=*/false);
    std::string ptx;
    Status s = generate(*m, *tm, ptx);
    ASSERT_FALSE(s.ok()) << "NVPTX selected a compare-and-swap on local memory:\n" << ptx;
    EXPECT_EQ(s.error().code, Code::CompileError);
    EXPECT_TRUE(contains(s.error().message, "Cannot select")) << s.error().message;
    EXPECT_TRUE(contains(s.error().message, "test codegen")) << s.error().message;
  }
  // The backend still works in this process after the failure.
  llvm::LLVMContext ctx;
  auto m = local_cas_module(ctx, *tm, /*valid=*/true);
  std::string ptx;
  Status s = generate(*m, *tm, ptx);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_TRUE(contains(ptx, ".visible .func f")) << ptx;
  EXPECT_TRUE(contains(ptx, "st.local.u32")) << ptx;
}

}  // namespace
}  // namespace dace::codegen
