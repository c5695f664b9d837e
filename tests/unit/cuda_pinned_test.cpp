// CPU_Pinned storage (plugins/cuda/lowering/pinned_storage.cpp, docs/cuda.md "Storages"): a
// CPU_Pinned transient that lives through the call is page-locked host memory from the CUDA
// runtime (dace_cuda_malloc_host: cuMemAllocHost where a device is usable, ordinary memory
// where not), host code reads and writes it like heap memory, and the copies to and from
// GPU_Global read and write it directly. Thread-private ones (used only inside map scopes) and
// every CPU_Pinned container compiled without the CUDA plugin stay ordinary heap memory.
// Results against C++ loops, emulated and on a GPU; a failed pinned allocation is the call's
// status; the runtime's pinned memory is page-locked as the driver sees it (on a GPU).
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using S = ir::ScheduleType;

// s1 (host map):    P[i] = 3 * A[i] - 1          P: CPU_Pinned transient
// s2:               P -> G                       pinned -> device
// s3 (GPU_Device):  H[i] = 2 * G[i]              G, H: GPU_Global transients
// s4:               H -> Q                       device -> pinned (Q: CPU_Pinned transient)
// s5 (host map):    B[i] = Q[i] + Z[i] + 0.5     Z: CPU_Pinned transient, zero-initialized
// and, when `with_private`, a host map whose body uses the CPU_Pinned transient W (per
// iteration, as thread-private as in a parallel map): C[i] = W[0] + 1 with W[0] = A[i]
// (ordinary memory).
std::unique_ptr<ir::SDFG> pinned_sdfg(bool with_private = false) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = with_private ? "pinned_private" : "pinned_roundtrip";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  for (const char* n : {"P", "Q", "Z"}) {
    add_array(*g, n, T::Float64, {"N"}, true);
    g->arrays.at(n).storage = ir::StorageType::CPU_Pinned;
  }
  for (const char* n : {"G", "H"}) {
    add_array(*g, n, T::Float64, {"N"}, true);
    g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  }
  int s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0;
  ir::State& host_in = add_state(*g, *g, "host_in", &s1);
  {
    auto [entry, exit] = map(host_in, {"i"}, "0:N", S::Sequential);
    int t = tasklet(host_in, "p = 3 * a - 1", {"a"}, {"p"});
    edge_in(host_in, access(host_in, "A"), entry, t, "a", "A[0:N]", "A[i]");
    edge_out(host_in, t, "p", exit, access(host_in, "P"), "P[i]", "P[0:N]");
  }
  ir::State& to_device = add_state(*g, *g, "to_device", &s2);
  edge(to_device, access(to_device, "P"), "", access(to_device, "G"), "", "P[0:N]");
  ir::State& kernel = add_state(*g, *g, "kernel", &s3);
  {
    auto [entry, exit] = map(kernel, {"i"}, "0:N", S::GPU_Device);
    int t = tasklet(kernel, "h = 2 * x", {"x"}, {"h"});
    edge_in(kernel, access(kernel, "G"), entry, t, "x", "G[0:N]", "G[i]");
    edge_out(kernel, t, "h", exit, access(kernel, "H"), "H[i]", "H[0:N]");
  }
  ir::State& to_host = add_state(*g, *g, "to_host", &s4);
  edge(to_host, access(to_host, "H"), "", access(to_host, "Q"), "", "H[0:N]");
  ir::State& host_out = add_state(*g, *g, "host_out", &s5);
  {
    auto [entry, exit] = map(host_out, {"i"}, "0:N", S::Sequential);
    int t = tasklet(host_out, "b = q + z + 0.5", {"q", "z"}, {"b"});
    const int z = access(host_out, "Z");
    static_cast<ir::AccessNode*>(host_out.node(z))->setzero = true;
    edge_in(host_out, access(host_out, "Q"), entry, t, "q", "Q[0:N]", "Q[i]");
    edge_in(host_out, z, entry, t, "z", "Z[0:N]", "Z[i]");
    edge_out(host_out, t, "b", exit, access(host_out, "B"), "B[i]", "B[0:N]");
  }
  add_interstate(*g, s1, s2);
  add_interstate(*g, s2, s3);
  add_interstate(*g, s3, s4);
  add_interstate(*g, s4, s5);
  if (with_private) {
    add_array(*g, "C", T::Float64, {"N"});
    add_array(*g, "W", T::Float64, {"1"}, true);
    g->arrays.at("W").storage = ir::StorageType::CPU_Pinned;
    int s6 = 0;
    ir::State& priv = add_state(*g, *g, "private", &s6);
    auto [entry, exit] = map(priv, {"i"}, "0:N", S::Sequential);
    int put = tasklet(priv, "w = a", {"a"}, {"w"});
    int w = access(priv, "W");
    int use = tasklet(priv, "c = w + 1", {"w"}, {"c"});
    edge_in(priv, access(priv, "A"), entry, put, "a", "A[0:N]", "A[i]");
    edge(priv, put, "w", w, "", "W[0]");
    edge(priv, w, "", use, "w", "W[0]");
    edge_out(priv, use, "c", exit, access(priv, "C"), "C[i]", "C[0:N]");
    add_interstate(*g, s5, s6);
  }
  return g;
}

struct PinnedCase {
  std::vector<double> a, b, c;
  explicit PinnedCase(size_t n) : a(n), b(n, -9.0), c(n, -9.0) {
    for (size_t i = 0; i < n; ++i) a[i] = 0.25 * static_cast<double>(i) - 3.0;
  }
  Status run_on(const CompiledProgram& p, bool with_private = false) {
    std::map<std::string, ArgValue> args = {{"A", ArgValue::pointer(a.data())},
                                            {"B", ArgValue::pointer(b.data())},
                                            {"N", ArgValue::scalar<int64_t>(static_cast<int64_t>(a.size()))}};
    if (with_private) args["C"] = ArgValue::pointer(c.data());
    return run(p, args);
  }
  // B against the loops the SDFG stands for: 2 * (3 * A - 1) + 0 + 0.5.
  size_t b_wrong() const {
    size_t wrong = 0;
    for (size_t i = 0; i < a.size(); ++i) wrong += b[i] != 2.0 * (3.0 * a[i] - 1.0) + 0.5;
    return wrong;
  }
  bool b_untouched() const {
    return std::all_of(b.begin(), b.end(), [](double v) { return v == -9.0; });
  }
};

// The host IR of `g` lowered for the GPU (not emulated) with the CUDA plugin, or without it.
std::string host_ir(const ir::SDFG& g, bool with_cuda_plugin) {
  LowerOptions o = parallel_test_options();
  if (with_cuda_plugin) o.registry = cuda_registry();
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(g, ctx, o);
  EXPECT_TRUE(m.ok()) << m.error().message;
  return m.ok() ? module_text(*m->module) : "";
}

size_t calls_of(const std::string& ir, const std::string& fn) { return count_of(ir, "call ptr @" + fn + "(") + count_of(ir, "call i32 @" + fn + "("); }

// A host-only program (no GPU storage or map) with a CPU_Pinned transient T:
// B[i] = (A[i] * A[i]) + 1 through T.
std::unique_ptr<ir::SDFG> host_only_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "pinned_host_only";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  add_array(*g, "T", T::Float64, {"N"}, true);
  g->arrays.at("T").storage = ir::StorageType::CPU_Pinned;
  int s1 = 0, s2 = 0;
  ir::State& a = add_state(*g, *g, "square", &s1);
  {
    auto [entry, exit] = map(a, {"i"}, "0:N", S::Sequential);
    int t = tasklet(a, "t = x * x", {"x"}, {"t"});
    edge_in(a, access(a, "A"), entry, t, "x", "A[0:N]", "A[i]");
    edge_out(a, t, "t", exit, access(a, "T"), "T[i]", "T[0:N]");
  }
  ir::State& b = add_state(*g, *g, "add", &s2);
  {
    auto [entry, exit] = map(b, {"i"}, "0:N", S::Sequential);
    int t = tasklet(b, "y = t + 1", {"t"}, {"y"});
    edge_in(b, access(b, "T"), entry, t, "t", "T[0:N]", "T[i]");
    edge_out(b, t, "y", exit, access(b, "B"), "B[i]", "B[0:N]");
  }
  add_interstate(*g, s1, s2);
  return g;
}

class CudaPinned : public CudaTargetTest {};
INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaPinned);

TEST_P(CudaPinned, HostCodeAndCopiesUsePinnedTransients) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = pinned_sdfg();
  ASSERT_TRUE(analysis::validate(*g).ok());
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  auto emulated_blocks = cuda_runtime_entry<int64_t (*)()>("dace_cuda_emu_host_allocations");
  ASSERT_NE(emulated_blocks, nullptr);
  for (size_t n : {size_t{1}, size_t{7}, size_t{1000}, size_t{100000}}) {
    const int64_t before = emulated_blocks();
    PinnedCase c(n);
    Status st = c.run_on(*p);
    ASSERT_TRUE(st.ok()) << st.error().message;
    EXPECT_EQ(c.b_wrong(), 0u) << "N = " << n;
    // P, Q and Z come from the emulated runtime's host allocator (the GPU run uses the real one).
    EXPECT_EQ(emulated_blocks() - before, GetParam() == Where::Emulated ? 3 : 0) << "N = " << n;
  }
}

TEST(CudaPinnedLowering, WholeCallTransientsArePinnedAndThreadPrivateOnesAreHeap) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = pinned_sdfg(/*with_private=*/true);
  ASSERT_TRUE(analysis::validate(*g).ok());
  const std::string ir = host_ir(*g, true);
  // P, Q and Z: one pinned block each, each freed on the way out; W (thread-private) is not.
  EXPECT_EQ(calls_of(ir, "dace_cuda_malloc_host"), 3u) << ir;
  EXPECT_EQ(calls_of(ir, "dace_cuda_free_host"), 3u) << ir;
  for (const char* n : {"%P.pinned", "%Q.pinned", "%Z.pinned"}) EXPECT_NE(ir.find(n), std::string::npos) << n;
  EXPECT_EQ(ir.find("%W.pinned"), std::string::npos);
  // A host-only program: pinned with the plugin, heap without it (no runtime call at all).
  std::unique_ptr<ir::SDFG> host_only = host_only_sdfg();
  EXPECT_EQ(calls_of(host_ir(*host_only, true), "dace_cuda_malloc_host"), 1u);
  const std::string plain = host_ir(*host_only, false);
  EXPECT_EQ(plain.find("dace_cuda_"), std::string::npos) << plain;
}

// Without the CUDA plugin a CPU_Pinned transient is heap memory, and the program runs.
TEST(CudaPinnedLowering, WithoutThePluginPinnedIsHeapMemory) {
  std::unique_ptr<ir::SDFG> g = host_only_sdfg();
  ASSERT_TRUE(analysis::validate(*g).ok());
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->ir.find("dace_cuda_malloc_host"), std::string::npos);
  std::vector<double> x(513), y(513, 0.0);
  std::iota(x.begin(), x.end(), -256.0);
  Status st = run(*p, {{"A", ArgValue::pointer(x.data())}, {"B", ArgValue::pointer(y.data())},
                       {"N", ArgValue::scalar<int64_t>(513)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(y[i], x[i] * x[i] + 1) << i;
}

// A pinned block the runtime cannot give is the call's out-of-memory status naming the
// container; the outputs stay untouched and the program runs again afterwards.
TEST(CudaPinnedFailure, FailedPinnedAllocationIsTheCallsStatus) {
  REQUIRE_CUDA_PLUGIN();
  Result<CompiledProgram> p = compile_emulated(*pinned_sdfg());
  ASSERT_TRUE(p.ok()) << p.error().message;
  auto inject = cuda_runtime_entry<void (*)(const char*, int64_t)>("dace_cuda_emu_inject_failure");
  for (int64_t skip : {0, 1, 2}) {  // P's, Q's, then Z's block
    PinnedCase c(64);
    inject("malloc_host", skip);
    Status st = c.run_on(*p);
    inject(nullptr, 0);
    ASSERT_FALSE(st.ok()) << "the failed pinned allocation went unnoticed (skip " << skip << ")";
    EXPECT_EQ(st.error().code, Code::OutOfMemory) << st.error().message;
    EXPECT_NE(st.error().message.find("cannot allocate"), std::string::npos) << st.error().message;
    EXPECT_NE(st.error().message.find("pinned_roundtrip"), std::string::npos) << st.error().message;
    EXPECT_TRUE(c.b_untouched());
  }
  PinnedCase again(64);
  Status st = again.run_on(*p);
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(again.b_wrong(), 0u);
}

// The runtime's allocator itself: usable memory in any case; page-locked as the driver sees
// it where a GPU is present, ordinary memory (not page-locked) where there is none.
TEST(CudaPinnedRuntime, MallocHostIsPageLockedWhereADeviceIsUsable) {
  REQUIRE_CUDA_PLUGIN();
  auto malloc_host = cuda_runtime_entry<void* (*)(int64_t)>("dace_cuda_malloc_host");
  auto free_host = cuda_runtime_entry<int32_t (*)(void*)>("dace_cuda_free_host");
  auto page_locked = cuda_runtime_entry<int32_t (*)(const void*)>("dace_cuda_is_page_locked");
  ASSERT_TRUE(malloc_host && free_host && page_locked);
  const bool device = cuda_device_absence().empty();
  for (int64_t bytes : {int64_t{0}, int64_t{1}, int64_t{4096}, int64_t{3} << 20}) {
    void* p = malloc_host(bytes);
    ASSERT_NE(p, nullptr) << bytes;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    std::memset(p, 0x5a, static_cast<size_t>(std::max<int64_t>(bytes, 1)));
    EXPECT_EQ(static_cast<unsigned char*>(p)[std::max<int64_t>(bytes, 1) - 1], 0x5a);
    EXPECT_EQ(page_locked(p), device ? 1 : 0) << bytes << " bytes; " << cuda_device_absence();
    EXPECT_EQ(free_host(p), 0);
  }
  std::vector<char> ordinary(4096);
  EXPECT_EQ(page_locked(ordinary.data()), 0);
  EXPECT_EQ(malloc_host(-1), nullptr);
  EXPECT_EQ(free_host(nullptr), 0);
}

}  // namespace
}  // namespace dace::codegen::testing
