// Reduce library nodes on GPU_Global data in host code (docs/cuda.md "Reductions"): the
// plugin's reduction kernel (one block per output element, a tree in shared memory with
// barriers) runs on the emulated device, and on the GPU where a driver and one are present,
// against plain C++ loops, and its PTX passes ptxas for sm_80 and sm_90. Without the
// plugin, or for a function it has no starting value for, the node is refused by name.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

// B = reduce(wcr, A[0:R, 0:C], axes, identity) with A and B in GPU_Global memory; B has
// the kept dimension's length (one element when both are reduced).
std::unique_ptr<ir::SDFG> device_reduce(const std::string& name, T type, const std::string& axes, const std::string& wcr,
                                        const std::string& identity, const std::string& out_len) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = name;
  g->symbols["R"] = ir::DType::of(T::Int64);
  g->symbols["C"] = ir::DType::of(T::Int64);
  add_array(*g, "A", type, {"R", "C"});
  add_array(*g, "B", type, {out_len});
  g->arrays.at("A").storage = ir::StorageType::GPU_Global;
  g->arrays.at("B").storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto n = std::make_unique<ir::LibraryNode>();
  n->label = n->name = "reduce";
  n->classpath = "dace.libraries.standard.nodes.reduce.Reduce";
  n->properties["axes"] = axes;
  n->properties["wcr"] = "\"" + wcr + "\"";
  n->properties["identity"] = identity;
  n->in_connectors["_in"] = ir::DType{};
  n->out_connectors["_out"] = ir::DType{};
  const int id = s.add_node(std::move(n));
  edge(s, access(s, "A"), "", id, "_in", "A[0:R, 0:C]");
  edge(s, id, "_out", access(s, "B"), "", "B[0:" + out_len + "]");
  return g;
}

template <typename V>
Status run_reduce(const ir::SDFG& g, std::vector<V>& a, std::vector<V>& b, int64_t rows, int64_t cols, Where where) {
  Result<CompiledProgram> p = compile_on(g, where);
  if (!p) return p.take_error();
  return run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                  {"R", ArgValue::scalar<int64_t>(rows)}, {"C", ArgValue::scalar<int64_t>(cols)}});
}

// The reductions that run: on the emulated device, and on the GPU where there is one.
class CudaReduceRuns : public CudaTargetTest {};
INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaReduceRuns);

TEST_P(CudaReduceRuns, RowSumsMatchLoops) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = device_reduce("cuda_row_sums", T::Float64, "[1]", "lambda a, b: a + b", "0", "R");
  ASSERT_TRUE(analysis::validate(*g).ok());
  const int64_t rows = 5, cols = 1003;  // four strides of a 256-thread block, the last partial
  std::vector<double> a(static_cast<size_t>(rows * cols)), b(static_cast<size_t>(rows), -7.0);
  for (size_t i = 0; i < a.size(); ++i) a[i] = std::sin(0.37 * static_cast<double>(i)) * 10.0;
  Status st = run_reduce(*g, a, b, rows, cols, GetParam());
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t r = 0; r < rows; ++r) {
    double want = 0;  // the identity replaces what B held
    for (int64_t c = 0; c < cols; ++c) want += a[static_cast<size_t>(r * cols + c)];
    EXPECT_NEAR(b[static_cast<size_t>(r)], want, 1e-11 * cols) << "row " << r;
  }
  std::string ptx = checked_ptx(*g);
  EXPECT_NE(ptx.find(".shared"), std::string::npos) << "the tree does not use shared memory";
  EXPECT_GE(count_of(ptx, "bar.sync"), 8u) << "a barrier between the tree's levels is missing";
}

TEST_P(CudaReduceRuns, ColumnMaxWithoutIdentityCombinesWithTheOutput) {
  REQUIRE_CUDA_TARGET();
  // Axis 0 reduced: each block walks a column (stride C); no identity: B's values take part.
  std::unique_ptr<ir::SDFG> g = device_reduce("cuda_col_max", T::Int32, "[0]", "lambda a, b: max(a, b)", "null", "C");
  ASSERT_TRUE(analysis::validate(*g).ok());
  const int64_t rows = 300, cols = 7;
  std::vector<int32_t> a(static_cast<size_t>(rows * cols)), b(static_cast<size_t>(cols));
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int32_t>((i * 7919) % 1000) - 2000;  // all negative
  for (int64_t c = 0; c < cols; ++c) b[static_cast<size_t>(c)] = c % 2 ? -5000 : -1500;  // odd columns below every A
  std::vector<int32_t> want = b;
  for (int64_t c = 0; c < cols; ++c)
    for (int64_t r = 0; r < rows; ++r)
      want[static_cast<size_t>(c)] = std::max(want[static_cast<size_t>(c)], a[static_cast<size_t>(r * cols + c)]);
  Status st = run_reduce(*g, a, b, rows, cols, GetParam());
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(b, want);
  checked_ptx(*g);
}

TEST_P(CudaReduceRuns, WholeArrayProductOfFloats) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = device_reduce("cuda_all_product", T::Float32, "null", "lambda a, b: a * b", "1", "1");
  ASSERT_TRUE(analysis::validate(*g).ok());
  const int64_t rows = 3, cols = 40;
  std::vector<float> a(static_cast<size_t>(rows * cols)), b(1, 0.0f);
  for (size_t i = 0; i < a.size(); ++i) a[i] = i % 3 == 0 ? 2.0f : (i % 3 == 1 ? 0.5f : 1.0f);  // exact in any order
  float want = 1.0f;
  for (float v : a) want *= v;
  Status st = run_reduce(*g, a, b, rows, cols, GetParam());
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(b[0], want);
  checked_ptx(*g);
}

TEST(CudaReduce, FunctionWithoutStartingValueIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  // No identity and a function with no known neutral element: a thread without elements
  // would have nothing to start from.
  std::unique_ptr<ir::SDFG> g = device_reduce("cuda_custom", T::Float64, "[1]", "lambda a, b: a + 2 * b", "null", "R");
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, emulated_options());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::Unsupported);
  EXPECT_NE(m.error().message.find("LibraryNode \"reduce\""), std::string::npos) << m.error().message;
  EXPECT_NE(m.error().message.find("needs an identity"), std::string::npos) << m.error().message;
}

TEST(CudaReduce, WithoutThePluginDeviceOperandsAreRefused) {
  std::unique_ptr<ir::SDFG> g = device_reduce("cuda_no_plugin", T::Float64, "[1]", "lambda a, b: a + b", "0", "R");
  llvm::LLVMContext ctx;
  LowerOptions o = parallel_test_options();
  Result<LoweredModule> m = lower(*g, ctx, o);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::Unsupported);
  EXPECT_NE(m.error().message.find("LibraryNode \"reduce\""), std::string::npos) << m.error().message;
  EXPECT_NE(m.error().message.find("GPU_Global memory, which host code cannot access"), std::string::npos)
      << m.error().message;
}

}  // namespace
}  // namespace dace::codegen::testing
