// The CUDA plugin's emulated device (docs/cuda.md "Emulated device") and the kernel-side
// features it shares with PTX: GPU_Device maps (1-D to 4-D grids), GPU_ThreadBlock maps with
// barriers between block-level scopes, GPU_Shared memory and write-conflict resolution with
// atomics. Each program runs emulated (no driver needed) and, where a driver and a GPU are
// present, on the GPU (the `device` instances of CudaKernels), against plain C++ loops; the
// same program lowered for the device gives PTX that ptxas accepts for sm_80 and sm_90.
// Skips, with the reason, when the plugin was not built, when ptxas is absent (PTX checks
// only), and the device instances where there is no driver or no GPU.
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using S = ir::ScheduleType;

// The programs that run: on the emulated device, and on the GPU where there is one.
class CudaKernels : public CudaTargetTest {};
INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaKernels);

// B[i, j] = 2 * A[i, j] + exp(A[i, j]) * C; C a host scalar passed by value.
std::unique_ptr<ir::SDFG> map_2d_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_map_2d";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "M"});
  add_array(*g, "B", T::Float64, {"N", "M"});
  add_scalar(*g, "C", T::Float64);
  g->arrays.at("A").storage = ir::StorageType::GPU_Global;
  g->arrays.at("B").storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i", "j"}, "0:N, 0:M", S::GPU_Device);
  int t = tasklet(s, "b = 2 * a + exp(a) * c", {"a", "c"}, {"b"});
  edge_in(s, access(s, "A"), entry, t, "a", "A[0:N, 0:M]", "A[i, j]");
  edge_in(s, access(s, "C"), entry, t, "c", "C[0]", "C[0]");
  edge_out(s, t, "b", exit, access(s, "B"), "B[i, j]", "B[0:N, 0:M]");
  return g;
}

TEST_P(CudaKernels, DeviceMap2DMatchesLoops) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = map_2d_sdfg();
  ASSERT_TRUE(analysis::validate(*g).ok());
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 5, m = 37;  // 37 columns: two 32-wide blocks, the second mostly idle
  std::vector<double> a(n * m), b(n * m, -1.0);
  for (size_t k = 0; k < a.size(); ++k) a[k] = 0.01 * static_cast<double>(k) - 0.5;
  double c = 0.75;
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())},
                       {"B", ArgValue::pointer(b.data())},
                       {"C", ArgValue::scalar<double>(c)},
                       {"N", ArgValue::scalar<int64_t>(n)},
                       {"M", ArgValue::scalar<int64_t>(m)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  // exp may be the JIT's vector math and 2a + e*c a fused multiply-add: last bits differ.
  for (size_t k = 0; k < a.size(); ++k) {
    const double want = 2 * a[k] + std::exp(a[k]) * c;
    EXPECT_NEAR(b[k], want, 1e-13 * std::max(1.0, std::abs(want))) << k;
  }
  checked_ptx(*g);
}

// B[i, j, k, l] = 2 * A[i, j, k, l] + (1000 i + 100 j + 10 k + l): the first two
// parameters share grid z, which the kernel de-linearizes.
std::unique_ptr<ir::SDFG> map_4d_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_map_4d";
  add_array(*g, "A", T::Float64, {"3", "4", "5", "6"});
  add_array(*g, "B", T::Float64, {"3", "4", "5", "6"});
  g->arrays.at("A").storage = ir::StorageType::GPU_Global;
  g->arrays.at("B").storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i", "j", "k", "l"}, "0:3, 0:4, 0:5, 0:6", S::GPU_Device);
  int t = tasklet(s, "b = 2 * a + (1000 * i + 100 * j + 10 * k + l)", {"a"}, {"b"});
  edge_in(s, access(s, "A"), entry, t, "a", "A[0:3, 0:4, 0:5, 0:6]", "A[i, j, k, l]");
  edge_out(s, t, "b", exit, access(s, "B"), "B[i, j, k, l]", "B[0:3, 0:4, 0:5, 0:6]");
  return g;
}

TEST_P(CudaKernels, DeviceMap4DMatchesLoops) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = map_4d_sdfg();
  ASSERT_TRUE(analysis::validate(*g).ok());
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  std::vector<double> a(3 * 4 * 5 * 6), b(a.size(), -1.0);
  for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<double>(k % 7);
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  size_t at = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 5; ++k)
        for (int l = 0; l < 6; ++l, ++at) EXPECT_EQ(b[at], 2 * a[at] + (1000 * i + 100 * j + 10 * k + l)) << at;
  checked_ptx(*g);
}

// Each block of 32 reverses its slice of A through shared memory: one GPU_ThreadBlock scope
// writes S[t] = A[32 b + t], the next reads S[31 - t], which another thread wrote. Without
// the barrier between the two scopes (emulated: the first scope's thread loop finishing
// before the second starts) thread t would read S[31 - t] before it is written.
std::unique_ptr<ir::SDFG> block_reverse_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_block_reverse";
  g->symbols["NB"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"32 * NB"});
  add_array(*g, "B", T::Float64, {"32 * NB"});
  add_array(*g, "S", T::Float64, {"32"}, true);
  g->arrays.at("A").storage = ir::StorageType::GPU_Global;
  g->arrays.at("B").storage = ir::StorageType::GPU_Global;
  g->arrays.at("S").storage = ir::StorageType::GPU_Shared;
  ir::State& s = add_state(*g, *g, "s");
  auto [dev, dev_exit] = map(s, {"b"}, "0:NB", S::GPU_Device);
  auto [tb1, tb1_exit] = map(s, {"t"}, "0:32", S::GPU_ThreadBlock);
  auto [tb2, tb2_exit] = map(s, {"t"}, "0:32", S::GPU_ThreadBlock);
  int load = tasklet(s, "o = a", {"a"}, {"o"});
  int store = tasklet(s, "o = x", {"x"}, {"o"});
  int shared = access(s, "S");
  chain_in(s, access(s, "A"), {dev, tb1}, load, "a", "A", {"A[0:32 * NB]", "A[32 * b:32 * b + 32]", "A[32 * b + t]"});
  chain_out(s, load, "o", {tb1_exit}, shared, "S", {"S[t]", "S[0:32]"});
  chain_in(s, shared, {tb2}, store, "x", "S", {"S[0:32]", "S[31 - t]"});
  chain_out(s, store, "o", {tb2_exit, dev_exit}, access(s, "B"), "B",
            {"B[32 * b + t]", "B[32 * b:32 * b + 32]", "B[0:32 * NB]"});
  return g;
}

TEST_P(CudaKernels, ThreadBlockScopesWithBarrierAndSharedMemory) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = block_reverse_sdfg();
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t nb = 3;
  std::vector<double> a(32 * nb), b(a.size(), -1.0);
  std::iota(a.begin(), a.end(), 1.0);
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())}, {"NB", ArgValue::scalar<int64_t>(nb)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t blk = 0; blk < nb; ++blk)
    for (int64_t t = 0; t < 32; ++t) EXPECT_EQ(b[32 * blk + t], a[32 * blk + 31 - t]) << blk << " " << t;
  std::string ptx = checked_ptx(*g);
  EXPECT_NE(ptx.find(".shared .align 16 .b8"), std::string::npos) << "S is not in shared memory";
  EXPECT_GE(count_of(ptx, "bar.sync"), 1u) << "no barrier between the block-level scopes";
}

// CUDA's gridDim read by Python tasklets: a 2-D map (j along x, i along y) in blocks of
// 32 x 2 threads writes G[i, j] = 1000 gridDim.y + 100 gridDim.x + blockDim.y, so a grid of
// ceil(M / 32) x ceil(N / 2) blocks; a map of NB blocks of GPU_ThreadBlock maps writes
// gridDim.x = NB into H[b].
std::unique_ptr<ir::SDFG> grid_dim_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_grid_dim";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["M"] = ir::DType::of(T::Int64);
  g->symbols["NB"] = ir::DType::of(T::Int64);
  add_array(*g, "G", T::Int64, {"N", "M"});
  add_array(*g, "H", T::Int64, {"NB"});
  for (const char* n : {"G", "H"}) g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  int s1 = 0, s2 = 0;
  ir::State& a = add_state(*g, *g, "threads", &s1);
  {
    auto [entry, exit] = map(a, {"i", "j"}, "0:N, 0:M", S::GPU_Device);
    static_cast<ir::MapEntry&>(*a.node(entry)).map.gpu_block_size = {E("32"), E("2"), E("1")};
    int t = tasklet(a, "o = 1000 * gridDim.y + 100 * gridDim.x + blockDim.y", {}, {"o"});
    edge(a, entry, "", t, "", "");
    edge_out(a, t, "o", exit, access(a, "G"), "G[i, j]", "G[0:N, 0:M]");
  }
  ir::State& b = add_state(*g, *g, "blocks", &s2);
  {
    auto [dev, dev_exit] = map(b, {"k"}, "0:NB", S::GPU_Device);
    auto [tb, tb_exit] = map(b, {"t"}, "0:1", S::GPU_ThreadBlock);
    int t = tasklet(b, "o = gridDim.x", {}, {"o"});
    edge(b, dev, "", tb, "", "");
    edge(b, tb, "", t, "", "");
    chain_out(b, t, "o", {tb_exit, dev_exit}, access(b, "H"), "H", {"H[k]", "H[k]", "H[0:NB]"});
  }
  add_interstate(*g, s1, s2);
  return g;
}

TEST_P(CudaKernels, GridDimIsTheGridTheKernelRunsWith) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = grid_dim_sdfg();
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 5, m = 70, nb = 3;
  std::vector<int64_t> gv(n * m, -1), hv(nb, -1);
  Status st = run(*p, {{"G", ArgValue::pointer(gv.data())}, {"H", ArgValue::pointer(hv.data())},
                       {"N", ArgValue::scalar<int64_t>(n)}, {"M", ArgValue::scalar<int64_t>(m)},
                       {"NB", ArgValue::scalar<int64_t>(nb)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  // ceil(70 / 32) = 3 blocks along x, ceil(5 / 2) = 3 along y, blocks of 2 rows.
  for (int64_t k = 0; k < n * m; ++k) EXPECT_EQ(gv[k], 1000 * 3 + 100 * 3 + 2) << k;
  for (int64_t k = 0; k < nb; ++k) EXPECT_EQ(hv[k], nb) << k;
  std::string ptx = checked_ptx(*g);
  EXPECT_NE(ptx.find("%nctaid.x"), std::string::npos);
  EXPECT_NE(ptx.find("%nctaid.y"), std::string::npos);
}

// A zero-initialized GPU_Shared array S of 160 float64 per block, more than the block's 80
// threads clear in one pass: the first block-level scope (32 threads) adds A[32 b + t] into
// S[2 t + 1], the second (80 threads) copies S[t] to B and S[t + 80] to C. Without the
// zeroing every block would see what the block before left in S (or the GPU's garbage).
std::unique_ptr<ir::SDFG> zeroed_shared_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_zeroed_shared";
  g->symbols["NB"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"32 * NB"});
  add_array(*g, "B", T::Float64, {"80 * NB"});
  add_array(*g, "C", T::Float64, {"80 * NB"});
  add_array(*g, "S", T::Float64, {"160"}, true);
  for (const char* n : {"A", "B", "C"}) g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  g->arrays.at("S").storage = ir::StorageType::GPU_Shared;
  ir::State& s = add_state(*g, *g, "s");
  auto [dev, dev_exit] = map(s, {"b"}, "0:NB", S::GPU_Device);
  auto [tb1, tb1_exit] = map(s, {"t"}, "0:32", S::GPU_ThreadBlock);
  auto [tb2, tb2_exit] = map(s, {"t"}, "0:80", S::GPU_ThreadBlock);
  const int s_in = access(s, "S");
  static_cast<ir::AccessNode*>(s.node(s_in))->setzero = true;
  edge(s, dev, "", s_in, "", "");  // S belongs to the kernel's scope
  int add = tasklet(s, "o = old + a", {"old", "a"}, {"o"});
  int copy = tasklet(s, "lo = x\nhi = y", {"x", "y"}, {"lo", "hi"});
  int s_mid = access(s, "S");
  chain_in(s, access(s, "A"), {dev, tb1}, add, "a", "A", {"A[0:32 * NB]", "A[32 * b:32 * b + 32]", "A[32 * b + t]"});
  chain_in(s, s_in, {tb1}, add, "old", "S", {"S[0:160]", "S[2 * t + 1]"});
  chain_out(s, add, "o", {tb1_exit}, s_mid, "S", {"S[2 * t + 1]", "S[0:160]"});
  chain_in(s, s_mid, {tb2}, copy, "x", "S", {"S[0:160]", "S[t]"});
  edge(s, tb2, "OUT_S", copy, "y", "S[t + 80]");
  chain_out(s, copy, "lo", {tb2_exit, dev_exit}, access(s, "B"), "B",
            {"B[80 * b + t]", "B[80 * b:80 * b + 80]", "B[0:80 * NB]"});
  chain_out(s, copy, "hi", {tb2_exit, dev_exit}, access(s, "C"), "C",
            {"C[80 * b + t]", "C[80 * b:80 * b + 80]", "C[0:80 * NB]"});
  return g;
}

TEST_P(CudaKernels, ZeroInitializedSharedMemoryStartsAtZeroInEveryBlock) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = zeroed_shared_sdfg();
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t nb = 4;
  std::vector<double> a(32 * nb), b(80 * nb, -1.0), c(80 * nb, -1.0);
  std::iota(a.begin(), a.end(), 1.5);
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                       {"C", ArgValue::pointer(c.data())}, {"NB", ArgValue::scalar<int64_t>(nb)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t blk = 0; blk < nb; ++blk)
    for (int64_t k = 0; k < 80; ++k) {
      // S[k] after the first scope: A[32 blk + (k - 1) / 2] at odd k < 64, else 0.
      const double want = k % 2 == 1 && k < 64 ? a[32 * blk + k / 2] : 0.0;
      EXPECT_EQ(b[80 * blk + k], want) << blk << " " << k;
      EXPECT_EQ(c[80 * blk + k], 0.0) << blk << " " << k + 80;
    }
  std::string ptx = checked_ptx(*g);
  EXPECT_GE(count_of(ptx, "bar.sync"), 3u) << "the zeroing's barrier and the two scopes' barriers";
}

// Per block: S[0] = 0 (one thread), S[0] += A[32 b + t] (32 threads, atomics on shared
// memory), B[b] = S[0] (one thread): a block reduction through three block-level scopes.
std::unique_ptr<ir::SDFG> block_sum_sdfg(T type) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = type == T::Int64 ? "emu_block_sum_i64" : "emu_block_sum_f64";
  g->symbols["NB"] = ir::DType::of(T::Int64);
  add_array(*g, "A", type, {"32 * NB"});
  add_array(*g, "B", type, {"NB"});
  add_array(*g, "S", type, {"1"}, true);
  g->arrays.at("A").storage = ir::StorageType::GPU_Global;
  g->arrays.at("B").storage = ir::StorageType::GPU_Global;
  g->arrays.at("S").storage = ir::StorageType::GPU_Shared;
  ir::State& s = add_state(*g, *g, "s");
  auto [dev, dev_exit] = map(s, {"b"}, "0:NB", S::GPU_Device);
  auto [init, init_exit] = map(s, {"t"}, "0:1", S::GPU_ThreadBlock);
  auto [acc, acc_exit] = map(s, {"t"}, "0:32", S::GPU_ThreadBlock);
  auto [out, out_exit] = map(s, {"t"}, "0:1", S::GPU_ThreadBlock);
  int zero = tasklet(s, "o = 0", {}, {"o"});
  int add = tasklet(s, "o = a", {"a"}, {"o"});
  int copy = tasklet(s, "o = x", {"x"}, {"o"});
  edge(s, dev, "", init, "", "");
  edge(s, init, "", zero, "", "");
  int s_zeroed = access(s, "S");
  chain_out(s, zero, "o", {init_exit}, s_zeroed, "S", {"S[0]", "S[0]"});
  edge(s, s_zeroed, "", acc, "", "");  // orders the accumulation after the zeroing
  chain_in(s, access(s, "A"), {dev, acc}, add, "a", "A", {"A[0:32 * NB]", "A[32 * b:32 * b + 32]", "A[32 * b + t]"});
  int s_sum = access(s, "S");
  chain_out(s, add, "o", {acc_exit}, s_sum, "S", {"S[0]", "S[0]"}, "lambda a, b: a + b");
  chain_in(s, s_sum, {out}, copy, "x", "S", {"S[0]", "S[0]"});
  chain_out(s, copy, "o", {out_exit, dev_exit}, access(s, "B"), "B", {"B[b]", "B[b]", "B[0:NB]"});
  return g;
}

template <class V>
void check_block_sum(T type, Where where) {
  std::unique_ptr<ir::SDFG> g = block_sum_sdfg(type);
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, where);
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t nb = 4;
  std::vector<V> a(32 * nb), b(nb, V(-1));
  for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<V>((k * 7) % 11);  // small integers: exact in either type
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())}, {"NB", ArgValue::scalar<int64_t>(nb)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t blk = 0; blk < nb; ++blk) {
    V want = 0;
    for (int64_t t = 0; t < 32; ++t) want += a[static_cast<size_t>(32 * blk + t)];
    EXPECT_EQ(b[static_cast<size_t>(blk)], want) << blk;
  }
  std::string ptx = checked_ptx(*g);
  EXPECT_GE(count_of(ptx, "bar.sync"), 2u);
  EXPECT_NE(ptx.find("atom.shared"), std::string::npos) << "the shared accumulation is not atomic";
}

TEST_P(CudaKernels, BlockReductionInSharedMemoryInt64) {
  REQUIRE_CUDA_TARGET();
  check_block_sum<int64_t>(T::Int64, GetParam());
}

TEST_P(CudaKernels, BlockReductionInSharedMemoryFloat64) {
  REQUIRE_CUDA_TARGET();
  check_block_sum<double>(T::Float64, GetParam());
}

// Every thread adds into a few global counters: H[i % 4] += 1 (integer atomics) and
// F[0] += A[i] (double: a compare-and-swap loop or native atom.add), across blocks.
std::unique_ptr<ir::SDFG> global_wcr_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_global_wcr";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "H", T::Int64, {"4"});
  add_array(*g, "F", T::Float64, {"1"});
  for (const char* n : {"A", "H", "F"}) g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i"}, "0:N", S::GPU_Device);
  int t = tasklet(s, "h = 1\nf = a", {"a"}, {"h", "f"});
  edge_in(s, access(s, "A"), entry, t, "a", "A[0:N]", "A[i]");
  edge_out(s, t, "h", exit, access(s, "H"), "H[i % 4]", "H[0:4]", "lambda a, b: a + b");
  edge_out(s, t, "f", exit, access(s, "F"), "F[0]", "F[0]", "lambda a, b: a + b");
  return g;
}

TEST_P(CudaKernels, GlobalWriteConflictsUseAtomics) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = global_wcr_sdfg();
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 1000;  // four 256-thread blocks, the last partly idle
  std::vector<double> a(n);
  for (int64_t k = 0; k < n; ++k) a[static_cast<size_t>(k)] = 0.5 * static_cast<double>(k % 13);  // exact sums
  std::vector<int64_t> h(4, 10);  // WCR adds to what is there
  std::vector<double> f(1, 1.0);
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())},
                       {"H", ArgValue::pointer(h.data())},
                       {"F", ArgValue::pointer(f.data())},
                       {"N", ArgValue::scalar<int64_t>(n)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  std::vector<int64_t> want_h(4, 10);
  double want_f = 1.0;
  for (int64_t k = 0; k < n; ++k) {
    ++want_h[static_cast<size_t>(k % 4)];
    want_f += a[static_cast<size_t>(k)];
  }
  EXPECT_EQ(h, want_h);
  EXPECT_EQ(f[0], want_f);
  std::string ptx = checked_ptx(*g);
  EXPECT_NE(ptx.find("atom.global"), std::string::npos) << "the global accumulation is not atomic";
}

TEST(CudaEmulation, ThreadBlockMapOutsideAKernelIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_tb_outside";
  add_array(*g, "A", T::Float64, {"32"});
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"t"}, "0:32", S::GPU_ThreadBlock);
  int t = tasklet(s, "o = 1", {}, {"o"});
  edge(s, entry, "", t, "", "");
  edge_out(s, t, "o", exit, access(s, "A"), "A[t]", "A[0:32]");
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, emulated_options());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::Unsupported);
  EXPECT_NE(m.error().message.find("must be inside a GPU_Device map"), std::string::npos) << m.error().message;
}

TEST(CudaEmulation, SharedMemoryOfSymbolicSizeIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = block_reverse_sdfg();
  g->arrays.at("S").shape = {E("NB")};
  g->arrays.at("S").strides = {E("1")};
  g->arrays.at("S").total_size = E("NB");
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, emulated_options());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::Unsupported);
  EXPECT_NE(m.error().message.find("GPU_Shared container needs a constant size"), std::string::npos) << m.error().message;
}

// Zeroing shared memory needs the whole block at one point: a kernel of one thread per map
// point has threads past the range that would miss the barrier.
TEST(CudaEmulation, ZeroInitializedSharedMemoryWithoutBlockMapsIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_zeroed_shared_thread_kernel";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "B", T::Float64, {"N"});
  add_array(*g, "S", T::Float64, {"4"}, true);
  g->arrays.at("B").storage = ir::StorageType::GPU_Global;
  g->arrays.at("S").storage = ir::StorageType::GPU_Shared;
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i"}, "0:N", S::GPU_Device);
  const int sh = access(s, "S");
  static_cast<ir::AccessNode*>(s.node(sh))->setzero = true;
  int t = tasklet(s, "o = x", {"x"}, {"o"});
  edge(s, entry, "", sh, "", "");
  edge(s, sh, "", t, "x", "S[0]");
  edge_out(s, t, "o", exit, access(s, "B"), "B[i]", "B[0:N]");
  ASSERT_TRUE(analysis::validate(*g).ok());
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, emulated_options());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::Unsupported);
  EXPECT_NE(m.error().message.find("zero-initialized GPU_Shared container"), std::string::npos) << m.error().message;
  EXPECT_NE(m.error().message.find("\"S\""), std::string::npos) << m.error().message;
}

}  // namespace
}  // namespace dace::codegen::testing
