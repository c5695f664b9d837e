// GPU_ThreadBlock maps of symbolic range (plugins/cuda/lowering/thread_block.cpp, docs/cuda.md):
// a tile `ti:Min(N, ti + 32)` of a GPU_Device map over `0:N:32` gets a block of its constant
// bound (32); in the last tile the threads past N skip the map. Each tile is reversed
// through shared memory in two block-level scopes (a thread reads what another wrote), run
// emulated and on a GPU against C++ loops, N not a multiple of 32; PTX passes ptxas. A range
// without a constant bound strides over the map's gpu_block_size or DaCe's default block of 32
// (two block-level scopes, a thread reading what others wrote), emulated against C++ loops;
// code reading threadIdx in such a map, and a symbolic gpu_block_size, are refused naming it.
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using S = ir::ScheduleType;

class CudaSymbolicBlock : public CudaTargetTest {};
INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaSymbolicBlock);

// For each tile ti (0, 32, ...): S[i - ti] = A[i] over the tile, then B[i] = S[e - 1 - i] + i
// with e = Min(N, ti + 32) - ti + ti (the tile's end): the tile reversed.
std::unique_ptr<ir::SDFG> tile_reverse_sdfg(const std::string& tile_range) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_tile_reverse";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  add_array(*g, "S", T::Float64, {"32"}, true);
  g->arrays.at("A").storage = ir::StorageType::GPU_Global;
  g->arrays.at("B").storage = ir::StorageType::GPU_Global;
  g->arrays.at("S").storage = ir::StorageType::GPU_Shared;
  ir::State& s = add_state(*g, *g, "s");
  auto [dev, dev_exit] = map(s, {"ti"}, "0:N:32", S::GPU_Device);
  auto [load_map, load_exit] = map(s, {"i"}, tile_range, S::GPU_ThreadBlock);
  s.node(load_map)->label = "tile_load";
  auto [store_map, store_exit] = map(s, {"i"}, tile_range, S::GPU_ThreadBlock);
  int load = tasklet(s, "o = a", {"a"}, {"o"});
  int store = tasklet(s, "o = x + i", {"x"}, {"o"});
  int shared = access(s, "S");
  chain_in(s, access(s, "A"), {dev, load_map}, load, "a", "A", {"A[0:N]", "A[ti:Min(N, ti + 32)]", "A[i]"});
  chain_out(s, load, "o", {load_exit}, shared, "S", {"S[i - ti]", "S[0:32]"});
  chain_in(s, shared, {store_map}, store, "x", "S", {"S[0:32]", "S[Min(N, ti + 32) - 1 - i]"});
  chain_out(s, store, "o", {store_exit, dev_exit}, access(s, "B"), "B", {"B[i]", "B[ti:Min(N, ti + 32)]", "B[0:N]"});
  return g;
}

TEST_P(CudaSymbolicBlock, TilesOfSymbolicRangeGetTheirBoundAsBlock) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = tile_reverse_sdfg("ti:Min(N, ti + 32)");
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 100;  // tiles of 32, 32, 32 and 4 points
  std::vector<double> a(static_cast<size_t>(n)), b(a.size(), -1.0);
  for (size_t k = 0; k < a.size(); ++k) a[k] = 1.5 * static_cast<double>(k) - 7.0;
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())}, {"N", ArgValue::scalar<int64_t>(n)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t ti = 0; ti < n; ti += 32) {
    const int64_t end = std::min(n, ti + 32);
    for (int64_t i = ti; i < end; ++i)
      EXPECT_EQ(b[static_cast<size_t>(i)], a[static_cast<size_t>(ti + end - 1 - i)] + static_cast<double>(i)) << i;
  }
  std::string ptx = checked_ptx(*g);
  EXPECT_GE(count_of(ptx, "bar.sync"), 1u);
}

// The host module's `dace_cuda_launch` call of a one-kernel SDFG lowered for the device (its
// grid, block and shared-memory operands), or "" after a recorded failure.
std::string launch_line(const ir::SDFG& g) {
  LowerOptions o = parallel_test_options();
  o.registry = cuda_registry();
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(g, ctx, o);
  if (!m.ok()) {
    ADD_FAILURE() << m.error().message;
    return "";
  }
  const std::string host = module_text(*m->module);
  const size_t call = host.find("call i32 @dace_cuda_launch(");
  if (call == std::string::npos) {
    ADD_FAILURE() << "no dace_cuda_launch call in the host module";
    return "";
  }
  return host.substr(call, host.find('\n', call) - call);
}

TEST(CudaSymbolicBlockLaunch, TheBlockIsTheTilesBound) {
  REQUIRE_CUDA_PLUGIN();
  const std::string line = launch_line(*tile_reverse_sdfg("ti:Min(N, ti + 32)"));
  EXPECT_NE(line.find("i64 32, i64 1, i64 1, i32 0"), std::string::npos) << line;
}

// GPU_ThreadBlock maps of a range without a constant bound (j in 0:N): one block per row r
// of a GPU_Device map; the first map writes T[r, j] = 2 A[r, j], the second B[r, j] =
// T[r, N - 1 - j] + j (each thread reads what others wrote: the barrier between the scopes).
// The block is the first map's gpu_block_size (`block` > 0) or one warp (libdace's choice), and its
// threads stride over the N points of each map.
std::unique_ptr<ir::SDFG> strided_rows_sdfg(int64_t block) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_strided_rows_b" + std::to_string(block);
  for (const char* n : {"R", "N"}) g->symbols[n] = ir::DType::of(T::Int64);
  for (const char* n : {"A", "T", "B"}) {
    add_array(*g, n, T::Float64, {"R", "N"});
    g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  }
  ir::State& s = add_state(*g, *g, "s");
  auto [dev, dev_exit] = map(s, {"r"}, "0:R", S::GPU_Device);
  auto [first, first_exit] = map(s, {"j"}, "0:N", S::GPU_ThreadBlock);
  s.node(first)->label = "row_double";
  if (block) static_cast<ir::MapEntry&>(*s.node(first)).map.gpu_block_size = {E(std::to_string(block))};
  auto [second, second_exit] = map(s, {"j"}, "0:N", S::GPU_ThreadBlock);
  s.node(second)->label = "row_reverse";
  int dbl = tasklet(s, "o = 2.0 * a", {"a"}, {"o"});
  int rev = tasklet(s, "o = t + j", {"t"}, {"o"});
  int mid = access(s, "T");
  chain_in(s, access(s, "A"), {dev, first}, dbl, "a", "A", {"A[0:R, 0:N]", "A[r, 0:N]", "A[r, j]"});
  chain_out(s, dbl, "o", {first_exit}, mid, "T", {"T[r, j]", "T[r, 0:N]"});
  chain_in(s, mid, {second}, rev, "t", "T", {"T[r, 0:N]", "T[r, N - 1 - j]"});
  chain_out(s, rev, "o", {second_exit, dev_exit}, access(s, "B"), "B", {"B[r, j]", "B[r, 0:N]", "B[0:R, 0:N]"});
  // T leaves the kernel too (it is an argument): its writes reach the host.
  s.node(dev_exit)->in_connectors["IN_T"] = ir::DType{};
  s.node(dev_exit)->out_connectors["OUT_T"] = ir::DType{};
  edge(s, mid, "", dev_exit, "IN_T", "T[r, 0:N]");
  edge(s, dev_exit, "OUT_T", access(s, "T"), "", "T[0:R, 0:N]");
  return g;
}

class CudaStridedBlock : public CudaTargetTest {};
INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaStridedBlock);

void expect_strided_rows(Where where, int64_t block) {
  std::unique_ptr<ir::SDFG> g = strided_rows_sdfg(block);
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, where);
  ASSERT_TRUE(p.ok()) << p.error().message;
  for (int64_t n : {int64_t{100}, int64_t{7}}) {  // wider than the block, not a multiple of it; narrower
    SCOPED_TRACE(n);
    const int64_t r = 5;
    std::vector<double> a(static_cast<size_t>(r * n)), t(a.size(), -1.0), b(a.size(), -1.0);
    for (size_t k = 0; k < a.size(); ++k) a[k] = 0.75 * static_cast<double>(k % 13) - 2.0;
    Status st = run(*p, {{"A", ArgValue::pointer(a.data())},
                         {"T", ArgValue::pointer(t.data())},
                         {"B", ArgValue::pointer(b.data())},
                         {"R", ArgValue::scalar<int64_t>(r)},
                         {"N", ArgValue::scalar<int64_t>(n)}});
    ASSERT_TRUE(st.ok()) << st.error().message;
    for (int64_t row = 0; row < r; ++row)
      for (int64_t j = 0; j < n; ++j) {
        const auto at = static_cast<size_t>(row * n + j);
        EXPECT_EQ(t[at], 2.0 * a[at]) << row << ", " << j;
        EXPECT_EQ(b[at], 2.0 * a[static_cast<size_t>(row * n + n - 1 - j)] + static_cast<double>(j)) << row << ", " << j;
      }
  }
  std::string ptx = checked_ptx(*g);
  EXPECT_GE(count_of(ptx, "bar.sync"), 1u);
}

TEST_P(CudaStridedBlock, UnboundedRangeStridesOverDaCesDefaultBlock) {
  REQUIRE_CUDA_TARGET();
  expect_strided_rows(GetParam(), 0);
}

TEST_P(CudaStridedBlock, UnboundedRangeStridesOverItsGpuBlockSize) {
  REQUIRE_CUDA_TARGET();
  expect_strided_rows(GetParam(), 48);
}

// The launch's block: one warp (libdace's choice), or the map's gpu_block_size.
TEST(CudaStridedBlockLaunch, TheBlockIsTheMapsBlockSizeOrOneWarp) {
  REQUIRE_CUDA_PLUGIN();
  for (auto [block, want] : {std::pair<int64_t, const char*>{0, "i64 32, i64 1, i64 1, i32 0"},
                             std::pair<int64_t, const char*>{48, "i64 48, i64 1, i64 1, i32 0"}}) {
    SCOPED_TRACE(block);
    const std::string line = launch_line(*strided_rows_sdfg(block));
    EXPECT_NE(line.find(want), std::string::npos) << line;
  }
}

// A thread of a strided map runs several points, so code that takes threadIdx for the point
// (as DaCe's generated code may) is refused naming the map; so is a gpu_block_size that is no
// constant.
TEST(CudaStridedBlockRefusal, ThreadIndexInAStridedMapIsRefusedNamingIt) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = strided_rows_sdfg(0);
  ir::State& s = *g->all_states()[0];
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::Tasklet && static_cast<ir::Tasklet&>(*s.node(id)).code.code == "o = 2.0 * a")
      static_cast<ir::Tasklet&>(*s.node(id)).code.code = "o = 2.0 * a + threadIdx.x";
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, emulated_options());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::Unsupported);
  EXPECT_NE(m.error().message.find("(MapEntry \"row_double\")"), std::string::npos) << m.error().message;
  EXPECT_NE(m.error().message.find("reads threadIdx or blockDim"), std::string::npos) << m.error().message;
}

TEST(CudaStridedBlockRefusal, SymbolicBlockSizeIsRefusedNamingTheMap) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = strided_rows_sdfg(0);
  ir::State& s = *g->all_states()[0];
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::MapEntry && s.node(id)->label == "row_reverse")
      static_cast<ir::MapEntry&>(*s.node(id)).map.gpu_block_size = {E("N")};
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, emulated_options());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::Unsupported);
  EXPECT_NE(m.error().message.find("GPU_ThreadBlock map \"row_reverse\": gpu_block_size entry 0 must be a positive constant"),
            std::string::npos)
      << m.error().message;
}

}  // namespace
}  // namespace dace::codegen::testing
