#include "jit_test_modules.h"

#include <gtest/gtest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <stdexcept>

#include "jit/session.h"

namespace dace::jit::test {

TestModule::TestModule() = default;
TestModule::TestModule(TestModule&&) noexcept = default;
TestModule::~TestModule() {
  module.reset();  // before its context
  context.reset();
}

namespace {

TestModule fresh(const std::string& name) {
  TestModule m;
  m.context = std::make_unique<llvm::LLVMContext>();
  m.module = std::make_unique<llvm::Module>(name, *m.context);
  return m;
}

// for (i = 0; i < n; ++i) body(i), with the loop in `f` after its entry block.
template <class Body>
void emit_loop(llvm::IRBuilder<>& b, llvm::Function* f, llvm::Value* n, Body body) {
  llvm::LLVMContext& ctx = b.getContext();
  llvm::BasicBlock* entry = b.GetInsertBlock();
  llvm::BasicBlock* header = llvm::BasicBlock::Create(ctx, "header", f);
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(ctx, "loop", f);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx, "exit", f);
  b.CreateBr(header);
  b.SetInsertPoint(header);
  llvm::PHINode* i = b.CreatePHI(b.getInt64Ty(), 2, "i");
  i->addIncoming(b.getInt64(0), entry);
  b.CreateCondBr(b.CreateICmpSLT(i, n), loop, exit);
  b.SetInsertPoint(loop);
  body(i);
  llvm::Value* next = b.CreateAdd(i, b.getInt64(1), "next", /*HasNUW=*/true, /*HasNSW=*/true);
  i->addIncoming(next, b.GetInsertBlock());
  b.CreateBr(header);
  b.SetInsertPoint(exit);
}

}  // namespace

TestModule make_axpy(const std::string& module_name) {
  TestModule m = fresh(module_name);
  llvm::IRBuilder<> b(*m.context);
  auto* ptr = b.getPtrTy();
  auto* fty = llvm::FunctionType::get(b.getVoidTy(), {ptr, ptr, b.getInt64Ty(), b.getDoubleTy()}, false);
  auto* f = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, "axpy", *m.module);
  f->addParamAttr(0, llvm::Attribute::NoAlias);
  f->addParamAttr(1, llvm::Attribute::NoAlias);
  b.SetInsertPoint(llvm::BasicBlock::Create(*m.context, "entry", f));
  llvm::Value *y = f->getArg(0), *x = f->getArg(1), *n = f->getArg(2), *a = f->getArg(3);
  emit_loop(b, f, n, [&](llvm::Value* i) {
    llvm::Value* py = b.CreateGEP(b.getDoubleTy(), y, i);
    llvm::Value* px = b.CreateGEP(b.getDoubleTy(), x, i);
    llvm::Value* v = b.CreateFAdd(b.CreateLoad(b.getDoubleTy(), py),
                                  b.CreateFMul(a, b.CreateLoad(b.getDoubleTy(), px)));
    b.CreateStore(v, py);
  });
  b.CreateRetVoid();
  return m;
}

TestModule make_sin_loop() {
  TestModule m = fresh("vsin");
  llvm::IRBuilder<> b(*m.context);
  auto* ptr = b.getPtrTy();
  llvm::FunctionCallee sin = m.module->getOrInsertFunction(
      "sin", llvm::FunctionType::get(b.getDoubleTy(), {b.getDoubleTy()}, false));
  auto* fty = llvm::FunctionType::get(b.getVoidTy(), {ptr, ptr, b.getInt64Ty()}, false);
  auto* f = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, "vsin", *m.module);
  f->addParamAttr(0, llvm::Attribute::NoAlias);
  f->addParamAttr(1, llvm::Attribute::NoAlias);
  b.SetInsertPoint(llvm::BasicBlock::Create(*m.context, "entry", f));
  emit_loop(b, f, f->getArg(2), [&](llvm::Value* i) {
    llvm::Value* px = b.CreateGEP(b.getDoubleTy(), f->getArg(1), i);
    llvm::Value* v = b.CreateCall(sin, {b.CreateLoad(b.getDoubleTy(), px)});
    b.CreateStore(v, b.CreateGEP(b.getDoubleTy(), f->getArg(0), i));
  });
  b.CreateRetVoid();
  return m;
}

TestModule make_call(const std::string& callee, const std::string& module_name) {
  TestModule m = fresh(module_name);
  llvm::IRBuilder<> b(*m.context);
  auto* unary = llvm::FunctionType::get(b.getDoubleTy(), {b.getDoubleTy()}, false);
  llvm::FunctionCallee target = m.module->getOrInsertFunction(callee, unary);
  auto* f = llvm::Function::Create(unary, llvm::Function::ExternalLinkage, "call_runtime", *m.module);
  b.SetInsertPoint(llvm::BasicBlock::Create(*m.context, "entry", f));
  b.CreateRet(b.CreateCall(target, {f->getArg(0)}));
  return m;
}

TestModule make_labs_call() {
  TestModule m = fresh("labs_call");
  llvm::IRBuilder<> b(*m.context);
  auto* fty = llvm::FunctionType::get(b.getInt64Ty(), {b.getInt64Ty()}, false);
  llvm::FunctionCallee labs = m.module->getOrInsertFunction("labs", fty);
  auto* f = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, "call_labs", *m.module);
  b.SetInsertPoint(llvm::BasicBlock::Create(*m.context, "entry", f));
  b.CreateRet(b.CreateCall(labs, {f->getArg(0)}));
  return m;
}

TestModule make_invalid() {
  TestModule m = fresh("invalid");
  llvm::IRBuilder<> b(*m.context);
  auto* f = llvm::Function::Create(llvm::FunctionType::get(b.getInt64Ty(), false),
                                   llvm::Function::ExternalLinkage, "broken", *m.module);
  b.SetInsertPoint(llvm::BasicBlock::Create(*m.context, "entry", f));
  b.CreateAdd(b.getInt64(1), b.getInt64(2));  // folded to a constant, block stays empty
  return m;
}

TestModule make_constant(const std::string& name, long value) {
  TestModule m = fresh(name);
  llvm::IRBuilder<> b(*m.context);
  auto* f = llvm::Function::Create(llvm::FunctionType::get(b.getInt64Ty(), false),
                                   llvm::Function::ExternalLinkage, name, *m.module);
  b.SetInsertPoint(llvm::BasicBlock::Create(*m.context, "entry", f));
  b.CreateRet(b.getInt64(value));
  return m;
}

TestModule make_gpu_intrinsic_call(const std::string& name) {
  TestModule m = fresh(name);
  llvm::IRBuilder<> b(*m.context);
  auto* f = llvm::Function::Create(llvm::FunctionType::get(b.getInt32Ty(), false),
                                   llvm::Function::ExternalLinkage, name, *m.module);
  b.SetInsertPoint(llvm::BasicBlock::Create(*m.context, "entry", f));
  llvm::Function* tid = llvm::Intrinsic::getDeclaration(m.module.get(), llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x);
  b.CreateRet(b.CreateCall(tid));
  return m;
}

TestModule parse_assembly(std::string_view text, const std::string& module_name) {
  TestModule m;
  m.context = std::make_unique<llvm::LLVMContext>();
  llvm::SMDiagnostic diag;
  m.module = llvm::parseAssemblyString(text, diag, *m.context);
  EXPECT_TRUE(m.module) << diag.getMessage().str() << " at line " << diag.getLineNo();
  if (m.module) m.module->setModuleIdentifier(module_name);
  return m;
}

std::string print_module(const llvm::Module& module) {
  std::string s;
  llvm::raw_string_ostream os(s);
  module.print(os, nullptr);
  return s;
}

JitSession& shared_session() {
  static std::unique_ptr<JitSession> s = [] {
    auto created = JitSession::create();
    EXPECT_TRUE(created.ok()) << (created.ok() ? "" : created.error().message);
    return created.ok() ? std::move(*created) : nullptr;
  }();
  if (!s) throw std::runtime_error("no JIT session on this machine");  // the test fails
  return *s;
}

}  // namespace dace::jit::test
