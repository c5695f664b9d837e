// GPU_Global transients sized by symbols set inside the SDFG (plugins/cuda/lowering/
// global_storage.cpp, docs/cuda.md "Storages"): the core holds the device block for the call
// and the states that use it ask for one of the size they need — allocated the first time,
// renewed when a later state needs more, kept when it needs less, released on exit (NPBench's
// durbin, spmv and stockham_fft after `--auto gpu`). Results against C++ loops, emulated and
// on a GPU; a failed renewal is the call's status and leaves the caller's arrays and the
// program usable; PTX through ptxas.
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <numeric>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using S = ir::ScheduleType;

// One state: T[i] = scale * A[i] + shift (kernel 1), O[i] = T[i] * T[i] - i (kernel 2), for
// i in 0:K, T a GPU_Global transient of K elements.
void through_transient(ir::SDFG& g, ir::State& s, const char* out, const std::string& scale_shift) {
  auto [e1, x1] = map(s, {"i"}, "0:K", S::GPU_Device);
  int t1 = tasklet(s, "t = " + scale_shift, {"a"}, {"t"});
  edge_in(s, access(s, "A"), e1, t1, "a", "A[0:N]", "A[i]");
  const int tnode = access(s, "T");
  edge_out(s, t1, "t", x1, tnode, "T[i]", "T[0:K]");
  auto [e2, x2] = map(s, {"i"}, "0:K", S::GPU_Device);
  int t2 = tasklet(s, "o = t * t - i", {"t"}, {"o"});
  edge_in(s, tnode, e2, t2, "t", "T[0:K]", "T[i]");
  edge_out(s, t2, "o", x2, access(s, "O" + std::string(out)), "O" + std::string(out) + "[i]",
           "O" + std::string(out) + "[0:K]");
  (void)g;
}

// K = N / 2 (first state), then K = N (the block grows), then K = N / 4 (the block is kept).
// A and O1..O3 are GPU_Global arguments of N float64.
std::unique_ptr<ir::SDFG> lazy_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "lazy_global";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["K"] = ir::DType::of(T::Int64);
  for (const char* n : {"A", "O1", "O2", "O3"}) {
    add_array(*g, n, T::Float64, {"N"});
    g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  }
  add_array(*g, "T", T::Float64, {"K"}, true);
  g->arrays.at("T").storage = ir::StorageType::GPU_Global;
  int s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  add_state(*g, *g, "start", &s0);
  ir::State& half = add_state(*g, *g, "half", &s1);
  through_transient(*g, half, "1", "2 * a + 1");
  ir::State& whole = add_state(*g, *g, "whole", &s2);
  through_transient(*g, whole, "2", "3 * a - 2");
  ir::State& quarter = add_state(*g, *g, "quarter", &s3);
  through_transient(*g, quarter, "3", "a + 5");
  add_interstate(*g, s0, s1, "1", {{"K", "N / 2"}});
  add_interstate(*g, s1, s2, "1", {{"K", "N"}});
  add_interstate(*g, s2, s3, "1", {{"K", "N / 4"}});
  return g;
}

struct LazyCase {
  int64_t n = 1000;
  std::vector<double> a, o1, o2, o3;
  LazyCase() : a(static_cast<size_t>(n)), o1(a.size(), -9.0), o2(a.size(), -9.0), o3(a.size(), -9.0) {
    for (size_t i = 0; i < a.size(); ++i) a[i] = 0.25 * static_cast<double>(i % 37) - 3.0;
  }
  Status run_on(const CompiledProgram& p) {
    return run(p, {{"A", ArgValue::pointer(a.data())},
                   {"O1", ArgValue::pointer(o1.data())},
                   {"O2", ArgValue::pointer(o2.data())},
                   {"O3", ArgValue::pointer(o3.data())},
                   {"N", ArgValue::scalar<int64_t>(n)}});
  }
  // Elements that differ from the C++ loops: o_k[i] = t * t - i for i < K_k, untouched after.
  size_t wrong() const {
    size_t bad = 0;
    auto check = [&](const std::vector<double>& o, int64_t k, double scale, double shift) {
      for (int64_t i = 0; i < n; ++i) {
        const double t = scale * a[static_cast<size_t>(i)] + shift;
        const double want = i < k ? t * t - static_cast<double>(i) : -9.0;
        bad += o[static_cast<size_t>(i)] != want;
      }
    };
    check(o1, n / 2, 2, 1);
    check(o2, n, 3, -2);
    check(o3, n / 4, 1, 5);
    return bad;
  }
  bool untouched() const {
    for (const auto* o : {&o1, &o2, &o3})
      if (!std::all_of(o->begin(), o->end(), [](double v) { return v == -9.0; })) return false;
    return true;
  }
};

class CudaLazyGlobal : public CudaTargetTest {};
INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaLazyGlobal);

TEST_P(CudaLazyGlobal, TransientSizedBySymbolsSetInsideGrowsAndIsKept) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = lazy_sdfg();
  Status valid = analysis::validate(*g);
  ASSERT_TRUE(valid.ok()) << valid.error().message;
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  for (int64_t n : {1000, 37, 4096}) {  // one program, several sizes: the slot starts empty each call
    LazyCase c;
    c = LazyCase();
    c.n = n;
    c.a.resize(static_cast<size_t>(n));
    for (size_t i = 0; i < c.a.size(); ++i) c.a[i] = 0.25 * static_cast<double>(i % 37) - 3.0;
    c.o1.assign(c.a.size(), -9.0);
    c.o2.assign(c.a.size(), -9.0);
    c.o3.assign(c.a.size(), -9.0);
    Status st = c.run_on(*p);
    ASSERT_TRUE(st.ok()) << st.error().message;
    EXPECT_EQ(c.wrong(), 0u) << "N = " << n;
  }
  checked_ptx(*g);
}

// The host module lowered for the device allocates T in the states that use it: one
// renewal branch per state, none on entry.
TEST(CudaLazyGlobalLowering, BlockIsAllocatedInTheStatesThatUseIt) {
  if (!cuda_registry()) GTEST_SKIP() << "CUDA plugin not built (no CUDA toolkit)";
  std::unique_ptr<ir::SDFG> g = lazy_sdfg();
  LowerOptions o = parallel_test_options();
  o.registry = cuda_registry();
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, o);
  ASSERT_TRUE(m.ok()) << m.error().message;
  const std::string ir = module_text(*m->module);
  // The four argument mirrors go through dace_cuda_argument_in; T alone through malloc.
  EXPECT_EQ(count_of(ir, "call ptr @dace_cuda_malloc("), 3u) << ir;
  EXPECT_EQ(count_of(ir, "call ptr @dace_cuda_argument_in("), 4u);
}

TEST(CudaLazyGlobalFailure, FailedRenewalIsTheStatusAndTheProgramStaysUsable) {
  if (!cuda_registry()) GTEST_SKIP() << "CUDA plugin not built (no CUDA toolkit)";
  Result<CompiledProgram> p = compile_emulated(*lazy_sdfg());
  ASSERT_TRUE(p.ok()) << p.error().message;
  auto inject = cuda_runtime_entry<void (*)(const char*, int64_t)>("dace_cuda_emu_inject_recoverable_failure");
  // The four mirrors of the arguments come first; then T's first block, then its growth.
  for (int64_t skip : {4, 5}) {
    LazyCase c;
    inject("malloc", skip);
    Status st = c.run_on(*p);
    ASSERT_FALSE(st.ok()) << "the failed allocation went unnoticed (skip " << skip << ")";
    EXPECT_EQ(st.error().code, Code::RuntimeError) << st.error().message;
    EXPECT_NE(st.error().message.find("device allocation of \"T\""), std::string::npos) << st.error().message;
    EXPECT_TRUE(c.untouched()) << "skip " << skip;
    LazyCase next;
    Status again = next.run_on(*p);
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(next.wrong(), 0u);
  }
}

}  // namespace
}  // namespace dace::codegen::testing
