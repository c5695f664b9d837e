// JitSession / JitModule: compile, call, symbol resolution, errors, unloading, threads.
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/TargetParser/Triple.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

#include "jit/session.h"
#include "jit_test_modules.h"

extern "C" double dace_jit_test_twice(double v) { return 2 * v; }
extern "C" long dace_jit_test_fake_labs(long) { return 4242; }
extern "C" double dace_jit_test_throw(double) { throw std::runtime_error("thrown by the runtime"); }

namespace dace::jit {
namespace {

using test::TestModule;

std::unique_ptr<JitSession> new_session(const SessionOptions& options = {}) {
  auto s = JitSession::create(options);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return s.ok() ? std::move(*s) : nullptr;
}

Result<std::unique_ptr<JitModule>> compile(JitSession& s, TestModule m, const CompileOptions& o = {}) {
  return s.compile(std::move(m.module), std::move(m.context), o);
}

TEST(JitSession, HostTargetIsDescribed) {
  auto s = new_session();
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->target().triple.empty());
  EXPECT_FALSE(s->target().cpu.empty());
  EXPECT_FALSE(s->target().data_layout.empty());
  EXPECT_EQ(s->target().llvm_version.substr(0, 3), "19.");
  EXPECT_NE(s->target().id().find(s->target().cpu), std::string::npos);
}

TEST(JitSession, AxpyMatchesPlainLoopAtEveryLevel) {
  auto s = new_session();
  ASSERT_TRUE(s);
  for (int level = 0; level <= 3; ++level) {
    CompileOptions o;
    o.opt.level = level;
    auto m = compile(*s, test::make_axpy(), o);
    ASSERT_TRUE(m.ok()) << m.error().message;
    auto axpy = (*m)->lookup_function<void(double*, const double*, int64_t, double)>("axpy");
    ASSERT_TRUE(axpy.ok()) << axpy.error().message;
    const int64_t n = 1003;  // not a multiple of any vector width: exercises the epilogue
    std::vector<double> x(n), y(n), expected(n);
    for (int64_t i = 0; i < n; ++i) {
      x[i] = 0.5 * double(i) - 3;
      y[i] = 1.0 / double(i + 1);
      expected[i] = y[i] + 2.5 * x[i];
    }
    (*axpy)(y.data(), x.data(), n, 2.5);
    for (int64_t i = 0; i < n; ++i) ASSERT_DOUBLE_EQ(y[i], expected[i]) << "level " << level << " i " << i;
    const CompileStats& st = (*m)->stats();
    EXPECT_FALSE(st.cache_hit);
    EXPECT_GT(st.object_bytes, 0u);
    EXPECT_GT(st.ir_instructions, 0u);
    EXPECT_GE(st.total_ms, st.optimize_ms + st.codegen_ms);
  }
}

TEST(JitSession, SinLoopMatchesLibm) {
  auto s = new_session();
  ASSERT_TRUE(s);
  auto m = compile(*s, test::make_sin_loop());
  ASSERT_TRUE(m.ok()) << m.error().message;
  auto vsin = (*m)->lookup_function<void(double*, const double*, int64_t)>("vsin");
  ASSERT_TRUE(vsin.ok());
  const int64_t n = 517;
  std::vector<double> x(n), y(n);
  for (int64_t i = 0; i < n; ++i) x[i] = 0.01 * double(i) - 2;
  (*vsin)(y.data(), x.data(), n);
  // libmvec is accurate to a few ulp, not bit-identical to libm.
  for (int64_t i = 0; i < n; ++i) ASSERT_NEAR(y[i], std::sin(x[i]), 1e-14) << i;
}

TEST(JitSession, RuntimeSymbolIsResolved) {
  auto s = new_session();
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->define_runtime_symbol("dace_jit_test_twice", reinterpret_cast<void*>(&dace_jit_test_twice)).ok());
  auto m = compile(*s, test::make_call("dace_jit_test_twice"));
  ASSERT_TRUE(m.ok()) << m.error().message;
  auto f = (*m)->lookup_function<double(double)>("call_runtime");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ((*f)(21.0), 42.0);
}

TEST(JitSession, RuntimeTableShadowsTheProcess) {
  auto s = new_session();
  ASSERT_TRUE(s);
  auto plain = compile(*s, test::make_labs_call());
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  auto f = (*plain)->lookup_function<long(long)>("call_labs");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ((*f)(-5), 5);  // libc's labs, found in the process

  ASSERT_TRUE(s->define_runtime_symbol("labs", reinterpret_cast<void*>(&dace_jit_test_fake_labs)).ok());
  CompileOptions o;
  o.opt.level = 0;  // keep the call: at O1+ LLVM folds labs into an intrinsic
  auto shadowed = compile(*s, test::make_labs_call(), o);
  ASSERT_TRUE(shadowed.ok()) << shadowed.error().message;
  auto g = (*shadowed)->lookup_function<long(long)>("call_labs");
  ASSERT_TRUE(g.ok());
  EXPECT_EQ((*g)(-5), 4242);
}

TEST(JitSession, ExceptionsUnwindThroughJitFrames) {
  // Needs the module's .eh_frame registered: otherwise the unwinder stops at the JIT'd
  // frame and std::terminate() is called.
  auto s = new_session();
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->define_runtime_symbol("dace_jit_test_throw", reinterpret_cast<void*>(&dace_jit_test_throw)).ok());
  CompileOptions o;
  o.opt.level = 0;  // keep a real call (at O3 it becomes a tail jump and the frame vanishes)
  auto m = compile(*s, test::make_call("dace_jit_test_throw"), o);
  ASSERT_TRUE(m.ok()) << m.error().message;
  auto f = (*m)->lookup_function<double(double)>("call_runtime");
  ASSERT_TRUE(f.ok());
  EXPECT_THROW((*f)(1.0), std::runtime_error);
}

TEST(JitSession, DuplicateRuntimeSymbolIsAlreadyExists) {
  auto s = new_session();
  ASSERT_TRUE(s);
  void* p = reinterpret_cast<void*>(&dace_jit_test_twice);
  ASSERT_TRUE(s->define_runtime_symbol("dace_jit_dup", p).ok());
  Status again = s->define_runtime_symbol("dace_jit_dup", p);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().code, Code::AlreadyExists);
  EXPECT_EQ(s->define_runtime_symbol("x", nullptr).error().code, Code::InvalidArgument);
  EXPECT_EQ(s->define_runtime_symbol("", p).error().code, Code::InvalidArgument);
}

TEST(JitSession, LibrariesLoadOrFailWithNotFound) {
  auto s = new_session();
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->add_library("libm.so.6").ok());
  EXPECT_TRUE(s->add_library("libm.so.6").ok());  // idempotent
  Status missing = s->add_library("libdace-does-not-exist.so.7");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, Code::NotFound);
  EXPECT_NE(missing.error().message.find("libdace-does-not-exist.so.7"), std::string::npos);
}

TEST(JitSession, SymbolFromAddedLibrary) {
  // cos from libm via tier 3 even though the test binary may not import it itself.
  auto s = new_session();
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->add_library("libm.so.6").ok());
  CompileOptions o;
  o.opt.level = 0;
  auto m = compile(*s, test::make_call("cos"), o);
  ASSERT_TRUE(m.ok()) << m.error().message;
  auto f = (*m)->lookup_function<double(double)>("call_runtime");
  ASSERT_TRUE(f.ok());
  EXPECT_DOUBLE_EQ((*f)(0.5), std::cos(0.5));
}

TEST(JitSession, InvalidModuleReportsVerifierText) {
  auto s = new_session();
  ASSERT_TRUE(s);
  auto m = compile(*s, test::make_invalid());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::CompileError);
  EXPECT_NE(m.error().message.find("terminator"), std::string::npos) << m.error().message;
  EXPECT_NE(m.error().message.find("broken"), std::string::npos) << m.error().message;
  EXPECT_EQ(s->live_modules(), 0u);
}

TEST(JitSession, UnresolvedSymbolIsNamed) {
  auto s = new_session();
  ASSERT_TRUE(s);
  auto m = compile(*s, test::make_call("dace_jit_test_nowhere_to_be_found"));
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::CompileError);
  EXPECT_NE(m.error().message.find("dace_jit_test_nowhere_to_be_found"), std::string::npos)
      << m.error().message;
  EXPECT_EQ(s->live_modules(), 0u);
  // The session stays usable.
  auto ok = compile(*s, test::make_constant("forty_two", 42));
  ASSERT_TRUE(ok.ok()) << ok.error().message;
}

// Valid IR that the host's instruction selection cannot handle: LLVM reports it through
// report_fatal_error, which used to end the process; now it is the compile's status, at
// every optimization level and from compile_object, and the session goes on.
TEST(JitSession, HostInstructionSelectionFailureIsACompileError) {
  auto s = new_session();
  ASSERT_TRUE(s);
  for (int level : {0, 2, 3}) {
    CompileOptions o;
    o.opt.level = level;
    auto m = compile(*s, test::make_gpu_intrinsic_call("thread_index"), o);
    ASSERT_FALSE(m.ok()) << "level " << level;
    EXPECT_EQ(m.error().code, Code::CompileError);
    EXPECT_NE(m.error().message.find("Cannot select"), std::string::npos) << m.error().message;
    EXPECT_NE(m.error().message.find("llvm.nvvm.read.ptx.sreg.tid.x"), std::string::npos) << m.error().message;
    EXPECT_NE(m.error().message.find("\"thread_index\""), std::string::npos) << m.error().message;
    EXPECT_EQ(s->live_modules(), 0u);
  }
  TestModule again = test::make_gpu_intrinsic_call("again");
  auto object = s->compile_object(std::move(again.module), std::move(again.context), {});
  ASSERT_FALSE(object.ok());
  EXPECT_NE(object.error().message.find("Cannot select"), std::string::npos) << object.error().message;
  auto ok = compile(*s, test::make_constant("forty_two", 42));
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  auto f = (*ok)->lookup_function<long()>("forty_two");
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ((*f)(), 42);
}

TEST(JitSession, ForeignTripleIsRejected) {
  auto s = new_session();
  ASSERT_TRUE(s);
  TestModule m = test::make_constant("c", 1);
  m.module->setTargetTriple("nvptx64-nvidia-cuda");
  auto r = compile(*s, std::move(m));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Code::CompileError);
  EXPECT_NE(r.error().message.find("nvptx64"), std::string::npos);

  // Another vendor for the same platform is the same machine code.
  llvm::Triple other_vendor(s->target().triple);
  other_vendor.setVendor(other_vendor.getVendor() == llvm::Triple::PC ? llvm::Triple::UnknownVendor
                                                                      : llvm::Triple::PC);
  TestModule same = test::make_constant("c", 3);
  same.module->setTargetTriple(other_vendor.str());
  auto accepted = compile(*s, std::move(same));
  ASSERT_TRUE(accepted.ok()) << accepted.error().message;
  EXPECT_EQ((*(*accepted)->lookup_function<long()>("c"))(), 3);

  TestModule bad_layout = test::make_constant("c", 4);
  bad_layout.module->setDataLayout("e-m:e-p:32:32-i64:64-n32-S128");
  auto rejected = compile(*s, std::move(bad_layout));
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.error().code, Code::CompileError);
  EXPECT_NE(rejected.error().message.find("data layout"), std::string::npos);
}

TEST(JitSession, NullArgumentsAreInvalid) {
  auto s = new_session();
  ASSERT_TRUE(s);
  auto r = s->compile(nullptr, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Code::InvalidArgument);
  TestModule a = test::make_constant("a", 1);
  TestModule b = test::make_constant("b", 2);
  b.module.reset();  // b's context is handed over alone
  auto mismatched = s->compile(std::move(a.module), std::move(b.context));
  ASSERT_FALSE(mismatched.ok());
  EXPECT_EQ(mismatched.error().code, Code::InvalidArgument);
}

TEST(JitSession, LookupOfUnknownSymbolIsNotFound) {
  auto s = new_session();
  ASSERT_TRUE(s);
  auto m = compile(*s, test::make_constant("forty_two", 42));
  ASSERT_TRUE(m.ok());
  auto missing = (*m)->lookup("not_here");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, Code::NotFound);
  // Symbols of the process are not the module's.
  EXPECT_FALSE((*m)->lookup("malloc").ok());
}

TEST(JitSession, ReleaseUnloads) {
  auto s = new_session();
  ASSERT_TRUE(s);
  auto m = compile(*s, test::make_constant("forty_two", 42));
  ASSERT_TRUE(m.ok());
  auto f = (*m)->lookup_function<long()>("forty_two");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ((*f)(), 42);
  EXPECT_EQ(s->live_modules(), 1u);
  ASSERT_TRUE((*m)->release().ok());
  EXPECT_TRUE((*m)->released());
  EXPECT_EQ(s->live_modules(), 0u);
  auto after = (*m)->lookup("forty_two");
  ASSERT_FALSE(after.ok());
  EXPECT_EQ(after.error().code, Code::NotFound);
  EXPECT_TRUE((*m)->release().ok());  // idempotent
}

TEST(JitSession, ObjectFileLoadsIntoAnotherSession) {
  auto s = new_session();
  auto t = new_session();
  ASSERT_TRUE(s && t);
  CompileOptions o;
  o.keep_object = true;
  auto m = compile(*s, test::make_constant("from_object", 99), o);
  ASSERT_TRUE(m.ok());
  auto loaded = t->load_object((*m)->object_file(), "copy");
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ((*(*loaded)->lookup_function<long()>("from_object"))(), 99);
  auto garbage = t->load_object("not an object");
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.error().code, Code::CompileError);
  EXPECT_EQ(t->live_modules(), 1u);
}

TEST(JitSession, SameSymbolInTwoModulesIsIndependent) {
  auto s = new_session();
  ASSERT_TRUE(s);
  auto a = compile(*s, test::make_constant("value", 1));
  auto b = compile(*s, test::make_constant("value", 2));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ((*(*a)->lookup_function<long()>("value"))(), 1);
  EXPECT_EQ((*(*b)->lookup_function<long()>("value"))(), 2);
  EXPECT_NE((*a)->name(), (*b)->name());
}

TEST(JitSession, ThousandCompileReleaseCyclesKeepTheCountConstant) {
  auto s = new_session();
  ASSERT_TRUE(s);
  CompileOptions o;
  o.opt.level = 0;
  auto keep = compile(*s, test::make_constant("kept", 7), o);
  ASSERT_TRUE(keep.ok());
  for (int i = 0; i < 1000; ++i) {
    auto m = compile(*s, test::make_constant("cycle", i), o);
    ASSERT_TRUE(m.ok()) << m.error().message;
    ASSERT_EQ(s->live_modules(), 2u);
    ASSERT_EQ((*(*m)->lookup_function<long()>("cycle"))(), i);
  }  // each JitModule is destroyed here, unloading its JITDylib
  EXPECT_EQ(s->live_modules(), 1u);
  EXPECT_EQ((*(*keep)->lookup_function<long()>("kept"))(), 7);
}

TEST(JitSession, ModulesOutliveTheirSession) {
  std::unique_ptr<JitModule> m;
  {
    auto s = new_session();
    ASSERT_TRUE(s);
    auto r = compile(*s, test::make_constant("survivor", 5));
    ASSERT_TRUE(r.ok());
    m = std::move(*r);
  }
  auto f = m->lookup_function<long()>("survivor");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ((*f)(), 5);
}

TEST(JitSession, TwoThreadsCompileConcurrently) {
  auto s = new_session();
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->define_runtime_symbol("dace_jit_test_twice", reinterpret_cast<void*>(&dace_jit_test_twice)).ok());
  std::vector<std::string> failures[2];
  auto work = [&](int t) {
    for (int i = 0; i < 12; ++i) {
      CompileOptions o;
      o.opt.level = i % 4;
      if (i % 2 == 0) {
        auto m = compile(*s, test::make_axpy("axpy_t" + std::to_string(t)), o);
        if (!m.ok()) { failures[t].push_back(m.error().message); continue; }
        auto f = (*m)->lookup_function<void(double*, const double*, int64_t, double)>("axpy");
        if (!f.ok()) { failures[t].push_back(f.error().message); continue; }
        std::vector<double> x(100, double(t + 1)), y(100, 1.0);
        (*f)(y.data(), x.data(), 100, double(i));
        for (double v : y)
          if (v != 1.0 + double(i) * double(t + 1)) failures[t].push_back("wrong axpy result");
      } else {
        auto m = compile(*s, test::make_call("dace_jit_test_twice"), o);
        if (!m.ok()) { failures[t].push_back(m.error().message); continue; }
        auto f = (*m)->lookup_function<double(double)>("call_runtime");
        if (!f.ok() || (*f)(double(i)) != 2.0 * i) failures[t].push_back("wrong runtime call");
      }
    }
  };
  std::thread a(work, 0), b(work, 1);
  a.join();
  b.join();
  EXPECT_TRUE(failures[0].empty()) << failures[0].front();
  EXPECT_TRUE(failures[1].empty()) << failures[1].front();
  EXPECT_EQ(s->live_modules(), 0u);
}

}  // namespace
}  // namespace dace::jit
