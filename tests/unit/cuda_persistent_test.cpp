// GPU_Persistent maps (plugins/cuda/lowering/persistent.h, docs/cuda.md): a persistent kernel
// whose grid is what the device keeps resident (the emulated device: 3 blocks) and whose
// threads walk the map's points in grid strides. The maps here need more blocks than that
// (8 and 16), so without the grid-stride loop points would stay unwritten (outputs start at
// -1); they run emulated (and on the GPU where there is one) against C++ loops, with a WCR
// sum across all threads, and their PTX passes ptxas for sm_80 and sm_90. GPU maps other than
// GPU_Device ones inside a persistent map and 2-D blocks are refused naming the element.
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

class CudaPersistent : public CudaTargetTest {};
INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaPersistent);

// B[i, j] = 2 * A[i, j] + i - 3 j and F[0] += A[i, j] over a GPU_Persistent map (0:N, 0:M).
std::unique_ptr<ir::SDFG> persistent_2d_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_persistent_2d";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "M"});
  add_array(*g, "B", T::Float64, {"N", "M"});
  add_array(*g, "F", T::Float64, {"1"});
  for (const char* n : {"A", "B", "F"}) g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i", "j"}, "0:N, 0:M", S::GPU_Persistent);
  int t = tasklet(s, "b = 2 * a + i - 3 * j\nf = a", {"a"}, {"b", "f"});
  edge_in(s, access(s, "A"), entry, t, "a", "A[0:N, 0:M]", "A[i, j]");
  int b_out = access(s, "B");
  edge_out(s, t, "b", exit, b_out, "B[i, j]", "B[0:N, 0:M]");
  edge_out(s, t, "f", exit, access(s, "F"), "F[0]", "F[0]", "lambda a, b: a + b");
  return g;
}

TEST_P(CudaPersistent, GridStridesCoverA2DMapWithItsSum) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = persistent_2d_sdfg();
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 37, m = 53;  // 1961 points: 8 blocks of 256, more than 3 resident ones
  std::vector<double> a(static_cast<size_t>(n * m)), b(a.size(), -1.0), f(1, 0.5);
  for (size_t k = 0; k < a.size(); ++k) a[k] = 0.25 * static_cast<double>(k % 11);  // exact sums
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())},
                       {"B", ArgValue::pointer(b.data())},
                       {"F", ArgValue::pointer(f.data())},
                       {"N", ArgValue::scalar<int64_t>(n)},
                       {"M", ArgValue::scalar<int64_t>(m)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  double want_f = 0.5;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j) {
      const size_t k = static_cast<size_t>(i * m + j);
      EXPECT_EQ(b[k], 2 * a[k] + static_cast<double>(i - 3 * j)) << i << ", " << j;
      want_f += a[k];
    }
  EXPECT_EQ(f[0], want_f);
  const std::string ptx = checked_ptx(*g);
  EXPECT_NE(ptx.find("atom.global.add.f64"), std::string::npos) << "the sum over all threads is not atomic";
}

// R[i] = 3 * X[i] over 0:N with blocks of 64: 1000 points, 16 blocks' worth.
std::unique_ptr<ir::SDFG> persistent_1d_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_persistent_1d";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "X", T::Int32, {"N"});
  add_array(*g, "R", T::Int32, {"N"});
  for (const char* n : {"X", "R"}) g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i"}, "0:N", S::GPU_Persistent);
  static_cast<ir::MapEntry&>(*s.node(entry)).map.gpu_block_size = {E("64")};
  int t = tasklet(s, "r = 3 * x", {"x"}, {"r"});
  edge_in(s, access(s, "X"), entry, t, "x", "X[0:N]", "X[i]");
  edge_out(s, t, "r", exit, access(s, "R"), "R[i]", "R[0:N]");
  return g;
}

TEST_P(CudaPersistent, GridStridesCoverA1DMapWithBlocksOf64) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = persistent_1d_sdfg();
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 1000;
  std::vector<int32_t> x(static_cast<size_t>(n)), r(x.size(), -1);
  for (size_t k = 0; k < x.size(); ++k) x[k] = static_cast<int32_t>(k) - 400;
  Status st = run(*p, {{"X", ArgValue::pointer(x.data())}, {"R", ArgValue::pointer(r.data())}, {"N", ArgValue::scalar<int64_t>(n)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (size_t k = 0; k < x.size(); ++k) EXPECT_EQ(r[k], 3 * x[k]) << k;
  checked_ptx(*g);
}

Status lower_emulated(const ir::SDFG& g) {
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(g, ctx, emulated_options());
  if (!m.ok()) return m.take_error();
  return Status::success();
}

// GPU_Device maps inside one are a cooperative kernel (cuda_cooperative_test.cpp); other GPU
// maps directly inside are not lowered.
TEST(CudaPersistentRefusal, ThreadBlockMapInsideIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_persistent_nested";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "R", T::Int32, {"N", "4"});
  g->arrays.at("R").storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [outer, outer_exit] = map(s, {"i"}, "0:N", S::GPU_Persistent);
  auto [inner, inner_exit] = map(s, {"j"}, "0:4", S::GPU_ThreadBlock);
  s.node(inner)->label = "inner_threads";
  int t = tasklet(s, "r = i + j", {}, {"r"});
  edge(s, outer, "", inner, "", "");
  edge(s, inner, "", t, "", "");
  chain_out(s, t, "r", {inner_exit, outer_exit}, access(s, "R"), "R", {"R[i, j]", "R[i, 0:4]", "R[0:N, 0:4]"});
  Status st = lower_emulated(*g);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, Code::Unsupported);
  EXPECT_NE(st.error().message.find("map \"inner_threads\" inside a GPU_Persistent map"), std::string::npos)
      << st.error().message;
}

TEST(CudaPersistentRefusal, TwoDimensionalBlockIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = persistent_1d_sdfg();
  ir::State& s = *g->all_states()[0];
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::MapEntry)
      static_cast<ir::MapEntry&>(*s.node(id)).map.gpu_block_size = {E("32"), E("2")};
  Status st = lower_emulated(*g);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, Code::Unsupported);
  EXPECT_NE(st.error().message.find("needs a 1-D block"), std::string::npos) << st.error().message;
}

}  // namespace
}  // namespace dace::codegen::testing
