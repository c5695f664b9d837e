// Small LLVM modules built with IRBuilder for the JIT tests.
#pragma once
#include <memory>
#include <string>
#include <string_view>

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace dace::jit {
class JitSession;
}  // namespace dace::jit

namespace dace::jit::test {

// Owns a module and its context; moved into JitSession::compile().
struct TestModule {
  TestModule();
  TestModule(TestModule&&) noexcept;
  ~TestModule();
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
};

// void axpy(double* noalias y, const double* noalias x, i64 n, double a): y[i] += a * x[i]
TestModule make_axpy(const std::string& module_name = "axpy");
// void vsin(double* noalias y, const double* noalias x, i64 n): y[i] = sin(x[i])
TestModule make_sin_loop();
// double call_runtime(double v): returns callee(v), `callee` only declared.
TestModule make_call(const std::string& callee, const std::string& module_name = "call");
// i64 call_labs(i64 v): returns labs(v), labs only declared.
TestModule make_labs_call();
// A function whose only block has no terminator.
TestModule make_invalid();
// i64 answer(): returns `value`; function named `name`.
TestModule make_constant(const std::string& name, long value);
// i32 `name`(): returns @llvm.nvvm.read.ptx.sreg.tid.x(), a GPU intrinsic: valid IR that the
// host's instruction selection cannot handle (LLVM reports it as a fatal error).
TestModule make_gpu_intrinsic_call(const std::string& name);

// `text` (LLVM assembly) parsed into a module named `module_name`; a parse error fails the
// calling test and leaves the module null.
TestModule parse_assembly(std::string_view text, const std::string& module_name);
// `module` printed as LLVM assembly.
std::string print_module(const llvm::Module& module);
// One JIT session shared by the tests of the binary (created on first use).
JitSession& shared_session();

}  // namespace dace::jit::test
