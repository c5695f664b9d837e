// Optimization pipeline: host vectorization, libmvec, attributes, determinism, dumps.
#include <gtest/gtest.h>

#include <llvm/IR/Attributes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "jit/pipeline.h"
#include "jit/session.h"
#include "jit_test_modules.h"

namespace dace::jit {
namespace {

using test::TestModule;

std::unique_ptr<JitSession> new_session() {
  auto s = JitSession::create();
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return s.ok() ? std::move(*s) : nullptr;
}

Result<std::unique_ptr<JitModule>> compile(JitSession& s, TestModule m, const CompileOptions& o) {
  return s.compile(std::move(m.module), std::move(m.context), o);
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(JitPipeline, SinLoopUsesLibmvecAtO3) {
  auto s = new_session();
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->has_vector_math_library()) << "libmvec.so.1 not found on this system";
  CompileOptions o;
  o.keep_ir = true;
  auto m = compile(*s, test::make_sin_loop(), o);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_NE((*m)->optimized_ir().find("_ZGV"), std::string::npos) << (*m)->optimized_ir();
}

TEST(JitPipeline, SinLoopStaysScalarWithoutVectorLibrary) {
  auto s = new_session();
  ASSERT_TRUE(s);
  CompileOptions o;
  o.keep_ir = true;
  o.opt.vector_math_library = false;
  auto m = compile(*s, test::make_sin_loop(), o);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ((*m)->optimized_ir().find("_ZGV"), std::string::npos);
}

TEST(JitPipeline, AxpyVectorizesAtO3ButNotO1) {
  auto s = new_session();
  ASSERT_TRUE(s);
  CompileOptions o;
  o.keep_ir = true;
  auto o3 = compile(*s, test::make_axpy(), o);
  ASSERT_TRUE(o3.ok()) << o3.error().message;
  EXPECT_NE((*o3)->optimized_ir().find("x double>"), std::string::npos) << (*o3)->optimized_ir();
  o.opt.level = 1;
  auto o1 = compile(*s, test::make_axpy(), o);
  ASSERT_TRUE(o1.ok());
  EXPECT_EQ((*o1)->optimized_ir().find("x double>"), std::string::npos);
}

TEST(JitPipeline, StampsTargetAndFloatingPointAttributesOnDefinitions) {
  TestModule m = test::make_sin_loop();
  OptimizationOptions o;
  stamp_function_attributes(*m.module, "znver4", "+avx2,+fma", o);
  llvm::Function* f = m.module->getFunction("vsin");
  llvm::Function* sin = m.module->getFunction("sin");
  ASSERT_TRUE(f && sin);
  EXPECT_EQ(f->getFnAttribute("target-cpu").getValueAsString(), "znver4");
  EXPECT_EQ(f->getFnAttribute("target-features").getValueAsString(), "+avx2,+fma");
  EXPECT_EQ(f->getFnAttribute("no-trapping-math").getValueAsString(), "true");
  EXPECT_EQ(f->getFnAttribute("no-signed-zeros-fp-math").getValueAsString(), "true");
  EXPECT_EQ(f->getFnAttribute("no-nans-fp-math").getValueAsString(), "false");
  EXPECT_FALSE(sin->hasFnAttribute("target-cpu"));  // declarations are left alone
  o.fast_math = true;
  stamp_function_attributes(*m.module, "znver4", "+avx2,+fma", o);
  EXPECT_EQ(f->getFnAttribute("no-nans-fp-math").getValueAsString(), "true");
  EXPECT_EQ(f->getFnAttribute("unsafe-fp-math").getValueAsString(), "true");
}

TEST(JitPipeline, MathDeclarationsBecomeErrnoFree) {
  TestModule m = test::make_sin_loop();
  llvm::Function* sin = m.module->getFunction("sin");
  ASSERT_TRUE(sin);
  EXPECT_FALSE(sin->doesNotAccessMemory());
  EXPECT_EQ(mark_math_errno_free(*m.module), 1);
  EXPECT_TRUE(sin->doesNotAccessMemory());
  EXPECT_TRUE(sin->doesNotThrow());
  // A `cosf` with the wrong prototype is not the C function; labs is not math.
  TestModule other = test::make_labs_call();
  llvm::Type* i64 = llvm::Type::getInt64Ty(*other.context);
  other.module->getOrInsertFunction("cosf", llvm::FunctionType::get(i64, {i64}, false));
  EXPECT_EQ(mark_math_errno_free(*other.module), 0);
  EXPECT_FALSE(other.module->getFunction("cosf")->doesNotAccessMemory());
}

TEST(JitPipeline, OutputIsByteIdenticalAcrossCompiles) {
  auto s = new_session();
  ASSERT_TRUE(s);
  CompileOptions o;
  o.keep_ir = true;
  o.keep_object = true;
  for (auto make : {+[] { return test::make_axpy(); }, +[] { return test::make_sin_loop(); }}) {
    auto first = compile(*s, make(), o);
    auto second = compile(*s, make(), o);
    ASSERT_TRUE(first.ok() && second.ok());
    EXPECT_FALSE((*first)->optimized_ir().empty());
    EXPECT_FALSE((*first)->object_file().empty());
    EXPECT_EQ((*first)->optimized_ir(), (*second)->optimized_ir());
    EXPECT_TRUE((*first)->object_file() == (*second)->object_file());
    EXPECT_EQ((*first)->stats().object_bytes, (*first)->object_file().size());
  }
  // A second session (fresh TargetMachine, fresh ExecutionSession) agrees too.
  auto s2 = new_session();
  ASSERT_TRUE(s2);
  auto a = compile(*s, test::make_axpy(), o);
  auto b = compile(*s2, test::make_axpy(), o);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE((*a)->object_file() == (*b)->object_file());
}

TEST(JitPipeline, DumpsIrAndAssembly) {
  auto s = new_session();
  ASSERT_TRUE(s);
  std::string dir = testing::TempDir() + "dace_jit_dump_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  CompileOptions o;
  o.dump_dir = dir;
  o.dump_name = "axpy kernel";  // sanitized to axpy_kernel
  o.keep_ir = true;
  auto m = compile(*s, test::make_axpy(), o);
  ASSERT_TRUE(m.ok()) << m.error().message;
  std::string ll = read(dir + "/axpy_kernel.ll");
  std::string asm_text = read(dir + "/axpy_kernel.s");
  EXPECT_EQ(ll, (*m)->optimized_ir());
  EXPECT_NE(ll.find("define void @axpy"), std::string::npos);
  EXPECT_NE(asm_text.find("axpy:"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(JitPipeline, UnwritableDumpDirectoryIsIoError) {
  auto s = new_session();
  ASSERT_TRUE(s);
  CompileOptions o;
  o.dump_dir = "/proc/dace-no-dumps-here";
  auto m = compile(*s, test::make_axpy(), o);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::IoError);
  EXPECT_EQ(s->live_modules(), 0u);
}

}  // namespace
}  // namespace dace::jit
