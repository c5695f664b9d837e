// Failures of the CUDA runtime calls in generated host code (docs/cuda.md "Run-time failures"):
// device allocations and frees, copies between memories, launches and cuBLAS products each
// turn a failing runtime status into the call's DACE_ERROR_RUNTIME status, whose message names
// the operation and its SDFG element, without writing the caller's outputs. The emulated
// device fails the chosen call on request (dace_cuda_emu_inject_failure). Also: a kernel whose
// threads hold stack arrays raises the per-thread stack limit to their bytes before launching
// (dace_cuda_reserve_stack; the emulated device keeps the largest request).
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <numeric>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "cuda/driver/cuda_driver.h"
#include "codegen_test_support.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using S = ir::ScheduleType;

// Makes the call `skip` + 1 from now of the emulated runtime's `entry` fail.
void inject(const char* entry, int64_t skip = 0) {
  cuda_runtime_entry<void (*)(const char*, int64_t)>("dace_cuda_emu_inject_failure")(entry, skip);
}
void clear_injection() { inject(nullptr, 0); }
// The same for a failure that leaves the runtime usable (out of memory, a launch too large).
void inject_recoverable(const char* entry, int64_t skip = 0) {
  cuda_runtime_entry<void (*)(const char*, int64_t)>("dace_cuda_emu_inject_recoverable_failure")(entry, skip);
}

// s1: A -> G (host to device), s2: H[i] = 2 * G[i] + 1 (a kernel), s3: H -> B (device to host);
// G and H are GPU_Global transients, A and B host arrays of N float64.
std::unique_ptr<ir::SDFG> copy_kernel_copy_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_failures";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  add_array(*g, "G", T::Float64, {"N"}, true);
  add_array(*g, "H", T::Float64, {"N"}, true);
  for (const char* n : {"G", "H"}) g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  int s1 = 0, s2 = 0, s3 = 0;
  ir::State& in = add_state(*g, *g, "copy_in", &s1);
  edge(in, access(in, "A"), "", access(in, "G"), "", "A[0:N]");
  ir::State& k = add_state(*g, *g, "kernel", &s2);
  auto [entry, exit] = map(k, {"i"}, "0:N", S::GPU_Device);
  int t = tasklet(k, "h = 2 * x + 1", {"x"}, {"h"});
  edge_in(k, access(k, "G"), entry, t, "x", "G[0:N]", "G[i]");
  edge_out(k, t, "h", exit, access(k, "H"), "H[i]", "H[0:N]");
  ir::State& out = add_state(*g, *g, "copy_out", &s3);
  edge(out, access(out, "H"), "", access(out, "B"), "", "H[0:N]");
  add_interstate(*g, s1, s2);
  add_interstate(*g, s2, s3);
  return g;
}

struct Case {
  std::vector<double> a = std::vector<double>(300), b = std::vector<double>(300, -7.0);
  Case() { std::iota(a.begin(), a.end(), -20.5); }
  Status run_on(const CompiledProgram& p) {
    return run(p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                   {"N", ArgValue::scalar<int64_t>(static_cast<int64_t>(a.size()))}});
  }
  bool b_untouched() const {
    return std::all_of(b.begin(), b.end(), [](double v) { return v == -7.0; });
  }
  size_t b_wrong() const {
    size_t wrong = 0;
    for (size_t i = 0; i < a.size(); ++i) wrong += b[i] != 2 * a[i] + 1;
    return wrong;
  }
};

void expect_runtime_error(const Status& st, const std::vector<std::string>& needles) {
  ASSERT_FALSE(st.ok()) << "the failed runtime call went unnoticed";
  EXPECT_EQ(st.error().code, Code::RuntimeError) << st.error().message;
  for (const std::string& n : needles) EXPECT_NE(st.error().message.find(n), std::string::npos) << st.error().message;
}

class CudaRuntimeFailure : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda_registry()) GTEST_SKIP() << "CUDA plugin not built (no CUDA toolkit)";
    Result<CompiledProgram> p = compile_emulated(*copy_kernel_copy_sdfg());
    ASSERT_TRUE(p.ok()) << p.error().message;
    program_ = std::make_unique<CompiledProgram>(std::move(*p));
  }
  void TearDown() override {
    if (cuda_registry()) clear_injection();
  }
  std::unique_ptr<CompiledProgram> program_;
};

TEST_F(CudaRuntimeFailure, WithoutFailuresTheProgramComputesItsOutput) {
  Case c;
  Status st = c.run_on(*program_);
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(c.b_wrong(), 0u);
}

TEST_F(CudaRuntimeFailure, DeviceAllocationFailureIsTheCallsStatus) {
  for (int64_t skip : {0, 1}) {  // G's allocation, then H's
    Case c;
    inject("malloc", skip);
    expect_runtime_error(c.run_on(*program_), {"device allocation of", "dace_cuda_malloc: injected failure"});
    EXPECT_TRUE(c.b_untouched());
    clear_injection();
  }
  Case again;  // the runtime is usable again and the program unharmed
  ASSERT_TRUE(again.run_on(*program_).ok());
  EXPECT_EQ(again.b_wrong(), 0u);
}

TEST_F(CudaRuntimeFailure, CopyInFailureStopsBeforeTheKernel) {
  Case c;
  inject("copy");
  expect_runtime_error(c.run_on(*program_), {"copy \"A\" -> \"G\"", "dace_cuda_copy: injected failure"});
  EXPECT_TRUE(c.b_untouched());
}

TEST_F(CudaRuntimeFailure, LaunchFailureIsTheCallsStatus) {
  Case c;
  inject("launch");
  expect_runtime_error(c.run_on(*program_), {"launch of kernel", "dace_cuda_launch: injected failure"});
  EXPECT_TRUE(c.b_untouched());
}

TEST_F(CudaRuntimeFailure, CopyOutFailureLeavesTheOutput) {
  Case c;
  inject("copy", 1);
  expect_runtime_error(c.run_on(*program_), {"copy \"H\" -> \"B\"", "dace_cuda_copy: injected failure"});
  EXPECT_TRUE(c.b_untouched());
}

TEST_F(CudaRuntimeFailure, FreeFailureOnTheWayOutIsReported) {
  Case c;
  inject("free");
  expect_runtime_error(c.run_on(*program_), {"freeing", "dace_cuda_free: injected failure"});
  EXPECT_EQ(c.b_wrong(), 0u) << "the output was computed before the frees";
}

// Which driver errors leave the context usable, against CUDA's documentation of cuda.h's codes:
// one request's errors are recoverable, a kernel's fault and anything unknown are sticky.
TEST(CudaRuntimeErrors, OnlyOneRequestsErrorsLeaveTheContextUsable) {
  using dace::cuda::leaves_context_usable;
  for (int code : {1, 2, 200, 209, 218, 222, 400, 500, 701, 720}) EXPECT_TRUE(leaves_context_usable(code)) << code;
  // CUDA_ERROR_NOT_INITIALIZED, _DEINITIALIZED, _NO_DEVICE, _ECC_UNCORRECTABLE, _ILLEGAL_ADDRESS,
  // _LAUNCH_TIMEOUT, _HARDWARE_STACK_ERROR, _ILLEGAL_INSTRUCTION, _MISALIGNED_ADDRESS,
  // _INVALID_PC, _LAUNCH_FAILED, _UNKNOWN, and a code CUDA does not define.
  for (int code : {3, 4, 100, 214, 700, 702, 714, 715, 716, 718, 719, 999, 12345})
    EXPECT_FALSE(leaves_context_usable(code)) << code;
}

// X and Y GPU_Global arguments (the caller passes host arrays: mirrored), T a zero-initialized
// GPU_Global transient; two kernels in two states:
//   double: X[i] = 2 * X[i]
//   sum:    Y[i] = X[i] + T[i] + 1
std::unique_ptr<ir::SDFG> mirrored_arguments_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_recoverable";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "X", T::Float64, {"N"});
  add_array(*g, "Y", T::Float64, {"N"});
  add_array(*g, "T", T::Float64, {"N"}, true);
  for (const char* n : {"X", "Y", "T"}) g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  int s1 = 0, s2 = 0;
  ir::State& d = add_state(*g, *g, "double", &s1);
  {
    auto [entry, exit] = map(d, {"i"}, "0:N", S::GPU_Device);
    int t = tasklet(d, "y = 2 * x", {"x"}, {"y"});
    edge_in(d, access(d, "X"), entry, t, "x", "X[0:N]", "X[i]");
    edge_out(d, t, "y", exit, access(d, "X"), "X[i]", "X[0:N]");
  }
  ir::State& sum = add_state(*g, *g, "sum", &s2);
  {
    auto [entry, exit] = map(sum, {"i"}, "0:N", S::GPU_Device);
    int t = tasklet(sum, "y = x + z + 1", {"x", "z"}, {"y"});
    const int z = access(sum, "T");
    static_cast<ir::AccessNode*>(sum.node(z))->setzero = true;
    edge_in(sum, access(sum, "X"), entry, t, "x", "X[0:N]", "X[i]");
    edge_in(sum, z, entry, t, "z", "T[0:N]", "T[i]");
    edge_out(sum, t, "y", exit, access(sum, "Y"), "Y[i]", "Y[0:N]");
  }
  add_interstate(*g, s1, s2);
  return g;
}

struct MirroredCase {
  std::vector<double> x = std::vector<double>(257), y = std::vector<double>(257, -5.0);
  std::vector<double> x0;
  MirroredCase() {
    std::iota(x.begin(), x.end(), -100.25);
    x0 = x;
  }
  Status run_on(const CompiledProgram& p) {
    return run(p, {{"X", ArgValue::pointer(x.data())}, {"Y", ArgValue::pointer(y.data())},
                   {"N", ArgValue::scalar<int64_t>(static_cast<int64_t>(x.size()))}});
  }
  bool untouched() const {
    return x == x0 && std::all_of(y.begin(), y.end(), [](double v) { return v == -5.0; });
  }
  size_t wrong() const {  // X doubled, Y = 2 * X0 + 0 + 1
    size_t bad = 0;
    for (size_t i = 0; i < x.size(); ++i) bad += (x[i] != 2 * x0[i]) + (y[i] != 2 * x0[i] + 1);
    return bad;
  }
};

// A recoverable failure (the driver's out-of-memory or launch-too-large errors are not
// sticky) is the call's status, the caller's arrays keep what they held — also the mirrored
// ones, which the exit path would otherwise copy back with what the kernels before the
// failure wrote — and the next call, with nothing cleared, runs and computes its outputs.
TEST_F(CudaRuntimeFailure, RecoverableFailuresKeepTheCallersArraysAndTheRuntimeUsable) {
  Result<CompiledProgram> p = compile_emulated(*mirrored_arguments_sdfg());
  ASSERT_TRUE(p.ok()) << p.error().message;
  {
    MirroredCase fine;
    Status st = fine.run_on(*p);
    ASSERT_TRUE(st.ok()) << st.error().message;
    ASSERT_EQ(fine.wrong(), 0u);
  }
  struct Injection {
    const char* entry;
    int64_t skip;
    std::string names;
  };
  const std::vector<Injection> cases = {
      {"argument_in", 0, "copy of the argument \"X\" to the device"},
      {"argument_in", 1, "copy of the argument \"Y\" to the device"},
      {"malloc", 2, "device allocation of \"T\""},  // X's and Y's mirrors come first
      {"memset", 0, "zeroing \"T\" on the device"},
      {"launch", 1, "launch of kernel"},  // the second kernel, after the first doubled X's mirror
  };
  for (const Injection& c : cases) {
    MirroredCase mc;
    inject_recoverable(c.entry, c.skip);
    Status st = mc.run_on(*p);
    expect_runtime_error(st, {c.names, std::string("dace_cuda_") + c.entry + ": injected recoverable failure"});
    EXPECT_TRUE(mc.untouched()) << c.entry << " " << c.skip;
    // Nothing to clear: the next call runs.
    MirroredCase next;
    Status again = next.run_on(*p);
    ASSERT_TRUE(again.ok()) << c.entry << ": " << again.error().message;
    EXPECT_EQ(next.wrong(), 0u) << c.entry;
  }
  // The program with a host-side copy in and out: a recoverable allocation failure of its
  // transient G, then a normal call.
  Case c;
  inject_recoverable("malloc");
  expect_runtime_error(c.run_on(*program_), {"device allocation of \"G\"", "injected recoverable failure"});
  EXPECT_TRUE(c.b_untouched());
  Case after;
  ASSERT_TRUE(after.run_on(*program_).ok());
  EXPECT_EQ(after.b_wrong(), 0u);
}

// C = A @ B on GPU_Global arguments (one cuBLAS product); a failed product leaves C as it was:
// the call failed, so the exit path frees C's device mirror without copying it back (and the
// injected failure is sticky: the free fails too, recorded after the product's failure, which
// stays the status).
TEST_F(CudaRuntimeFailure, CublasFailureLeavesTheProductsOutput) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_gemm_failure";
  add_array(*g, "A", T::Float64, {"4", "3"});
  add_array(*g, "B", T::Float64, {"3", "5"});
  add_array(*g, "C", T::Float64, {"4", "5"});
  for (const char* n : {"A", "B", "C"}) g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto n = std::make_unique<ir::LibraryNode>();
  n->label = n->name = "product";
  n->classpath = "dace.libraries.blas.nodes.matmul.MatMul";
  n->in_connectors["_a"] = ir::DType{};
  n->in_connectors["_b"] = ir::DType{};
  n->out_connectors["_c"] = ir::DType{};
  const int id = s.add_node(std::move(n));
  edge(s, access(s, "A"), "", id, "_a", "A[0:4, 0:3]");
  edge(s, access(s, "B"), "", id, "_b", "B[0:3, 0:5]");
  edge(s, id, "_c", access(s, "C"), "", "C[0:4, 0:5]");
  Result<CompiledProgram> p = compile_emulated(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  std::vector<double> a(12), b(15), c(20, 3.25);
  std::iota(a.begin(), a.end(), 1.0);
  std::iota(b.begin(), b.end(), -4.0);
  auto call = [&] {
    return run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                    {"C", ArgValue::pointer(c.data())}});
  };
  inject("gemm");
  expect_runtime_error(call(), {"product", "cuBLAS", "dace_cuda_gemm: injected failure"});
  EXPECT_TRUE(std::all_of(c.begin(), c.end(), [](double v) { return v == 3.25; }));
  // Once the failure is cleared it runs: C against a loop.
  clear_injection();
  Status st = call();
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j) {
      double want = 0;
      for (int k = 0; k < 3; ++k) want += a[i * 3 + k] * b[k * 5 + j];
      EXPECT_EQ(c[i * 5 + j], want) << i << "," << j;
    }
}

// A kernel that faults shows up when the host waits for it: with device-memory arguments and
// no transients no copy or free follows the launch, so the exit path's synchronize must be
// checked. B[i] = 2 * A[i] + 1 on GPU_Global arguments passed as emulated device pointers.
TEST(CudaKernelFault, SynchronizeFailureIsTheCallsStatusWithDeviceArguments) {
  REQUIRE_CUDA_PLUGIN();
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_sync_failure";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  for (const char* n : {"A", "B"}) g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i"}, "0:N", S::GPU_Device);
  int t = tasklet(s, "b = 2 * a + 1", {"a"}, {"b"});
  edge_in(s, access(s, "A"), entry, t, "a", "A[0:N]", "A[i]");
  edge_out(s, t, "b", exit, access(s, "B"), "B[i]", "B[0:N]");
  ASSERT_TRUE(analysis::validate(*g).ok());
  Result<CompiledProgram> p = compile_emulated(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  auto malloc_fn = cuda_runtime_entry<void* (*)(int64_t)>("dace_cuda_emu_malloc");
  auto free_fn = cuda_runtime_entry<int32_t (*)(void*)>("dace_cuda_emu_free");
  const int64_t n = 100;
  auto* a = static_cast<double*>(malloc_fn(n * 8));
  auto* b = static_cast<double*>(malloc_fn(n * 8));
  ASSERT_TRUE(a && b);
  for (int64_t i = 0; i < n; ++i) a[i] = 0.25 * static_cast<double>(i) - 3;
  auto call = [&] {
    return run(*p, {{"A", ArgValue::pointer(a)}, {"B", ArgValue::pointer(b)}, {"N", ArgValue::scalar<int64_t>(n)}});
  };
  inject("synchronize");
  Status st = call();
  clear_injection();
  expect_runtime_error(st, {"kernel execution", "dace_cuda_synchronize: injected failure"});
  // Without the injection the same call is OK and B is right (against a loop).
  std::fill(b, b + n, -1.0);
  st = call();
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t i = 0; i < n; ++i) EXPECT_EQ(b[i], 2 * a[i] + 1) << i;
  free_fn(a);
  free_fn(b);
}

// Each of N threads reverses row i of A (K float64) through its own Register array R[K].
std::unique_ptr<ir::SDFG> row_reverse_sdfg(const std::string& name) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = name;
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["K"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N * K"});
  add_array(*g, "B", T::Float64, {"N * K"});
  add_array(*g, "R", T::Float64, {"K"}, true);
  g->arrays.at("A").storage = ir::StorageType::GPU_Global;
  g->arrays.at("B").storage = ir::StorageType::GPU_Global;
  g->arrays.at("R").storage = ir::StorageType::Register;
  ir::State& s = add_state(*g, *g, "s");
  auto [dev, dev_exit] = map(s, {"i"}, "0:N", S::GPU_Device);
  auto [fill, fill_exit] = map(s, {"j"}, "0:K", S::Sequential);
  auto [drain, drain_exit] = map(s, {"j"}, "0:K", S::Sequential);
  int load = tasklet(s, "o = a", {"a"}, {"o"});
  int store = tasklet(s, "o = x", {"x"}, {"o"});
  int row = access(s, "R");
  chain_in(s, access(s, "A"), {dev, fill}, load, "a", "A", {"A[0:N * K]", "A[i * K:i * K + K]", "A[i * K + j]"});
  chain_out(s, load, "o", {fill_exit}, row, "R", {"R[j]", "R[0:K]"});
  chain_in(s, row, {drain}, store, "x", "R", {"R[0:K]", "R[K - 1 - j]"});
  chain_out(s, store, "o", {drain_exit, dev_exit}, access(s, "B"), "B",
            {"B[i * K + j]", "B[i * K:i * K + K]", "B[0:N * K]"});
  return g;
}

// Whether the (emulated) lowering of `g` calls the runtime's stack reservation.
bool reserves_stack(const ir::SDFG& g) {
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(g, ctx, emulated_options());
  EXPECT_TRUE(m.ok()) << m.error().message;
  if (!m.ok()) return false;
  const llvm::Function* f = m->module->getFunction("dace_cuda_emu_reserve_stack");
  return f && !f->use_empty();
}

TEST(CudaStackLimit, KernelWithPerThreadArraysRaisesTheStackToTheirBytes) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = row_reverse_sdfg("emu_stack_rows");
  ASSERT_TRUE(analysis::validate(*g).ok());
  Result<CompiledProgram> p = compile_emulated(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  // K = 6000: each thread's R is 48000 bytes, far above the driver's default 1 KiB.
  const int64_t n = 40, k = 6000;
  std::vector<double> a(n * k), b(a.size(), -1.0);
  std::iota(a.begin(), a.end(), 0.25);
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                       {"N", ArgValue::scalar<int64_t>(n)}, {"K", ArgValue::scalar<int64_t>(k)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  size_t wrong = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < k; ++j) wrong += b[i * k + j] != a[i * k + k - 1 - j];
  EXPECT_EQ(wrong, 0u);
  const int64_t limit = cuda_runtime_entry<int64_t (*)()>("dace_cuda_emu_stack_limit")();
  EXPECT_GE(limit, k * 8) << "the per-thread stack was not raised to R's bytes";
  EXPECT_TRUE(reserves_stack(*g));

  // A failed reservation is the call's status; the kernel does not run.
  std::fill(b.begin(), b.end(), -1.0);
  inject("reserve_stack");
  st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                {"N", ArgValue::scalar<int64_t>(n)}, {"K", ArgValue::scalar<int64_t>(k)}});
  clear_injection();
  expect_runtime_error(st, {"per-thread stack", "dace_cuda_reserve_stack: injected failure"});
  EXPECT_TRUE(std::all_of(b.begin(), b.end(), [](double v) { return v == -1.0; }));
}

// K = 70000: R is 560000 bytes per thread, past CUDA's 512 KiB of local memory per thread
// (the driver would reserve it for every resident thread): refused before the driver is asked,
// naming the kernel and the bytes, and not sticky — the next call runs.
TEST(CudaStackLimit, RequestAboveCudasPerThreadMaximumIsRefusedNotSticky) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = row_reverse_sdfg("emu_stack_too_big");
  Result<CompiledProgram> p = compile_emulated(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  auto call = [&](int64_t n, int64_t k, std::vector<double>& a, std::vector<double>& b) {
    return run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                    {"N", ArgValue::scalar<int64_t>(n)}, {"K", ArgValue::scalar<int64_t>(k)}});
  };
  const int64_t big = 70000;
  std::vector<double> a(2 * big, 1.5), b(a.size(), -1.0);
  const int64_t before = cuda_runtime_entry<int64_t (*)()>("dace_cuda_emu_stack_limit")();
  Status st = call(2, big, a, b);
  expect_runtime_error(st, {"per-thread stack", "bytes per thread exceed CUDA's 524288"});
  // R's 560000 bytes (rounded to 16, + 16) + the 1024-byte frame, computed by hand.
  EXPECT_NE(st.error().message.find(std::to_string(560000 + 16 + 1024)), std::string::npos) << st.error().message;
  EXPECT_TRUE(std::all_of(b.begin(), b.end(), [](double v) { return v == -1.0; }));
  EXPECT_EQ(cuda_runtime_entry<int64_t (*)()>("dace_cuda_emu_stack_limit")(), before);
  std::vector<double> a2(3 * 4), b2(a2.size(), -1.0);
  std::iota(a2.begin(), a2.end(), 1.0);
  st = call(3, 4, a2, b2);
  ASSERT_TRUE(st.ok()) << "the refusal stuck: " << st.error().message;
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 4; ++j) EXPECT_EQ(b2[i * 4 + j], a2[i * 4 + 3 - j]);
}

TEST(CudaStackLimit, KernelWithoutArraysLeavesTheStackAlone) {
  REQUIRE_CUDA_PLUGIN();
  EXPECT_FALSE(reserves_stack(*copy_kernel_copy_sdfg()));
}

}  // namespace
}  // namespace dace::codegen::testing
