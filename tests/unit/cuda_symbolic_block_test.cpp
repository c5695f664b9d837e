// GPU_ThreadBlock maps of symbolic range (plugins/cuda/lowering/thread_block.cpp, docs/cuda.md):
// a tile `ti:Min(N, ti + 32)` of a GPU_Device map over `0:N:32` gets a block of its constant
// bound (32); in the last tile the threads past N skip the map. Each tile is reversed
// through shared memory in two block-level scopes (a thread reads what another wrote), run
// emulated and on a GPU against C++ loops, N not a multiple of 32; PTX passes ptxas. A range
// without a constant bound is refused naming the map (block sizes are fixed at compile time).
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

TEST(CudaSymbolicBlockLaunch, TheBlockIsTheTilesBound) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = tile_reverse_sdfg("ti:Min(N, ti + 32)");
  LowerOptions o = parallel_test_options();
  o.registry = cuda_registry();
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, o);
  ASSERT_TRUE(m.ok()) << m.error().message;
  const std::string host = module_text(*m->module);
  const size_t call = host.find("call i32 @dace_cuda_launch(");
  ASSERT_NE(call, std::string::npos);
  const std::string line = host.substr(call, host.find('\n', call) - call);
  EXPECT_NE(line.find("i64 32, i64 1, i64 1, i32 0"), std::string::npos) << line;
}

TEST(CudaSymbolicBlockRefusal, UnboundedRangeIsRefusedNamingTheMap) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = tile_reverse_sdfg("ti:N");
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, emulated_options());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::Unsupported);
  EXPECT_NE(m.error().message.find("GPU_ThreadBlock map \"tile_load\": its range must be constant or bounded by a constant"),
            std::string::npos)
      << m.error().message;
}

}  // namespace
}  // namespace dace::codegen::testing
