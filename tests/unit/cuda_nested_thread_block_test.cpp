// GPU_ThreadBlock maps nested in GPU_ThreadBlock maps (plugins/cuda/lowering/thread_block.h,
// docs/cuda.md "GPU_ThreadBlock maps"): the inner map runs as loops in each thread of the outer
// one, gives the block nothing (its 64 points do not make a block of 64) and has no barrier of
// its own. Each block b (a point of the GPU_Device map) has 32 threads t, each running 64
// points k of the inner map: R[b, t, k] = 2 A[b, t, k] + b, and S[b, t] = sum over k of
// A[b, t, k] (a WCR sum that only thread t writes: no atomic). Checked against C++ loops,
// emulated and on a GPU; the PTX keeps the block of 32 and passes ptxas for sm_80 and sm_90.
// The same for an inner map in a nested SDFG that each thread of the outer map calls.
// Before, the nested map was refused ("a GPU_ThreadBlock map inside another cannot be
// compiled yet").
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using S = ir::ScheduleType;

constexpr int64_t kThreads = 32, kInner = 64;

std::unique_ptr<ir::SDFG> nested_thread_block_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_nested_thread_block";
  g->symbols["NB"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"NB", "32", "64"});
  add_array(*g, "R", T::Float64, {"NB", "32", "64"});
  add_array(*g, "S", T::Float64, {"NB", "32"});
  for (const char* n : {"A", "R", "S"}) g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  ir::State& st = add_state(*g, *g, "s");
  auto [blocks, blocks_exit] = map(st, {"b"}, "0:NB", S::GPU_Device);
  auto [threads, threads_exit] = map(st, {"t"}, "0:32", S::GPU_ThreadBlock);
  st.node(threads)->label = "threads";
  auto [inner, inner_exit] = map(st, {"k"}, "0:64", S::GPU_ThreadBlock);
  st.node(inner)->label = "inner";
  int body = tasklet(st, "r = 2 * a + b\ns = a", {"a"}, {"r", "s"});
  chain_in(st, access(st, "A"), {blocks, threads, inner}, body, "a", "A",
           {"A[0:NB, 0:32, 0:64]", "A[b, 0:32, 0:64]", "A[b, t, 0:64]", "A[b, t, k]"});
  chain_out(st, body, "r", {inner_exit, threads_exit, blocks_exit}, access(st, "R"), "R",
            {"R[b, t, k]", "R[b, t, 0:64]", "R[b, 0:32, 0:64]", "R[0:NB, 0:32, 0:64]"});
  chain_out(st, body, "s", {inner_exit, threads_exit, blocks_exit}, access(st, "S"), "S",
            {"S[b, t]", "S[b, t]", "S[b, 0:32]", "S[0:NB, 0:32]"}, "lambda x, y: x + y");
  return g;
}

class CudaNestedThreadBlock : public CudaTargetTest {};
INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaNestedThreadBlock);

TEST_P(CudaNestedThreadBlock, InnerMapRunsAsLoopsInEachThread) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = nested_thread_block_sdfg();
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t nb = 5;
  const size_t points = static_cast<size_t>(nb * kThreads * kInner);
  std::vector<double> a(points), r(points, -1.0), s(static_cast<size_t>(nb * kThreads), 0.5);
  for (size_t i = 0; i < points; ++i) a[i] = 0.25 * static_cast<double>(i % 37) - 3.0;  // exact sums
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())},
                       {"R", ArgValue::pointer(r.data())},
                       {"S", ArgValue::pointer(s.data())},
                       {"NB", ArgValue::scalar<int64_t>(nb)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  size_t wrong = 0;
  for (int64_t b = 0; b < nb; ++b)
    for (int64_t t = 0; t < kThreads; ++t) {
      double sum = 0.5;  // S's value before: the WCR adds to it
      for (int64_t k = 0; k < kInner; ++k) {
        const size_t i = static_cast<size_t>((b * kThreads + t) * kInner + k);
        sum += a[i];
        if (r[i] != 2 * a[i] + static_cast<double>(b) && ++wrong <= 5)
          ADD_FAILURE() << "R[" << b << ", " << t << ", " << k << "] = " << r[i];
      }
      const double got = s[static_cast<size_t>(b * kThreads + t)];
      if (got != sum && ++wrong <= 5) ADD_FAILURE() << "S[" << b << ", " << t << "] = " << got << ", want " << sum;
    }
  EXPECT_EQ(wrong, 0u);
}

// The same inner map in a nested SDFG called by each thread of the outer map: y[k] = 3 x[k] over
// its 64 points, x = A[b, t, 0:64], y = R[b, t, 0:64].
std::unique_ptr<ir::SDFG> nested_sdfg_thread_block_sdfg() {
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "per_thread";
  add_array(*inner, "x", T::Float64, {"64"});
  add_array(*inner, "y", T::Float64, {"64"});
  ir::State& is = add_state(*inner, *inner, "triple");
  auto [k_map, k_exit] = map(is, {"k"}, "0:64", S::GPU_ThreadBlock);
  int t3 = tasklet(is, "o = 3 * v", {"v"}, {"o"});
  chain_in(is, access(is, "x"), {k_map}, t3, "v", "x", {"x[0:64]", "x[k]"});
  chain_out(is, t3, "o", {k_exit}, access(is, "y"), "y", {"y[k]", "y[0:64]"});

  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_nested_sdfg_thread_block";
  g->symbols["NB"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"NB", "32", "64"});
  add_array(*g, "R", T::Float64, {"NB", "32", "64"});
  for (const char* n : {"A", "R"}) g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  ir::State& st = add_state(*g, *g, "s");
  auto [blocks, blocks_exit] = map(st, {"b"}, "0:NB", S::GPU_Device);
  auto [threads, threads_exit] = map(st, {"t"}, "0:32", S::GPU_ThreadBlock);
  auto nn = std::make_unique<ir::NestedSDFGNode>();
  nn->label = "per_thread";
  nn->in_connectors["x"] = ir::DType{};
  nn->out_connectors["y"] = ir::DType{};
  inner->parent_node = nn.get();
  nn->sdfg = std::move(inner);
  const int call = st.add_node(std::move(nn));
  chain_in(st, access(st, "A"), {blocks, threads}, call, "x", "A",
           {"A[0:NB, 0:32, 0:64]", "A[b, 0:32, 0:64]", "A[b, t, 0:64]"});
  chain_out(st, call, "y", {threads_exit, blocks_exit}, access(st, "R"), "R",
            {"R[b, t, 0:64]", "R[b, 0:32, 0:64]", "R[0:NB, 0:32, 0:64]"});
  return g;
}

TEST_P(CudaNestedThreadBlock, InnerMapInANestedSdfgRunsAsLoopsInEachThread) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = nested_sdfg_thread_block_sdfg();
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t nb = 3;
  const size_t points = static_cast<size_t>(nb * kThreads * kInner);
  std::vector<double> a(points), r(points, -1.0);
  for (size_t i = 0; i < points; ++i) a[i] = 0.5 * static_cast<double>(i % 29) - 4.0;
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"R", ArgValue::pointer(r.data())},
                       {"NB", ArgValue::scalar<int64_t>(nb)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (size_t i = 0; i < points; ++i) ASSERT_EQ(r[i], 3 * a[i]) << i;
}

TEST(CudaNestedThreadBlockPtx, InANestedSdfgKeepsTheOuterBlock) {
  REQUIRE_CUDA_PLUGIN();
  const std::string ptx = checked_ptx(*nested_sdfg_thread_block_sdfg());
  EXPECT_NE(ptx.find(".maxntid 32, 1, 1"), std::string::npos) << "the nested map's 64 points must not size the block";
}

TEST(CudaNestedThreadBlockPtx, KeepsTheOuterBlockAndPassesPtxas) {
  REQUIRE_CUDA_PLUGIN();
  const std::string ptx = checked_ptx(*nested_thread_block_sdfg());
  EXPECT_NE(ptx.find(".maxntid 32, 1, 1"), std::string::npos) << "the inner map's 64 points must not size the block";
  EXPECT_EQ(count_of(ptx, "bar.sync"), 1u) << "one barrier, after the outer map";
  EXPECT_EQ(count_of(ptx, "atom.global"), 0u) << "S[b, t] has one writer thread";
}

}  // namespace
}  // namespace dace::codegen::testing
