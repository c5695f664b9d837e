// Transients allocated inside a kernel (docs/cuda.md "Per-thread arrays"): a Register array
// of symbolic size in a GPU_Device map's scope is one array per thread, a stack array of the
// device function (PTX `alloca`), never a heap block (doitgen's per-thread rows). Emulated,
// each thread's array is released before the next thread runs (stacksave/stackrestore).
#include <gtest/gtest.h>

#include <numeric>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using S = ir::ScheduleType;

// Each thread i reverses row i of A (K elements) through its own Register array R[K]:
// R[j] = A[i, j] in one sequential loop, B[i, j] = R[K - 1 - j] in the next.
std::unique_ptr<ir::SDFG> row_reverse_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_row_reverse";
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

TEST(CudaLocalArray, PerThreadArrayOfSymbolicSizeMatchesLoops) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = row_reverse_sdfg();
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_emulated(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  // 2048 threads of 8 KiB arrays: 16 MiB if the emulated threads' arrays were not released.
  const int64_t n = 2048, k = 1024;
  std::vector<double> a(n * k), b(a.size(), -1.0);
  std::iota(a.begin(), a.end(), 0.5);
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                       {"N", ArgValue::scalar<int64_t>(n)}, {"K", ArgValue::scalar<int64_t>(k)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  size_t wrong = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < k; ++j) wrong += b[i * k + j] != a[i * k + k - 1 - j];
  EXPECT_EQ(wrong, 0u);
  std::string ptx = checked_ptx(*g);
  EXPECT_NE(ptx.find("alloca.u64"), std::string::npos) << "R is not a per-thread stack array";
  EXPECT_NE(ptx.find("stackrestore.u64"), std::string::npos) << "R's stack space is not released";
}

}  // namespace
}  // namespace dace::codegen::testing
