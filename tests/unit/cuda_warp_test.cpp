// Warp collectives (plugins/cuda/lowering/warp_collective.cpp, docs/cuda.md "Warp
// collectives"): DaCe's `dace::warpReduce<dace::ReductionType::OP, T>::reduce(x)` C++
// tasklet inside a GPU_ThreadBlock map, and CUDA built-ins (`threadIdx.x`) read by Python
// tasklets, the form of DaCe's block reduction expansion (softmax.gpu.sdfg). Each program
// runs on the emulated device (the scope cut at the collective) and, where a driver and a
// GPU are present, on the GPU, against plain C++ loops; its PTX must hold the shuffles and
// pass ptxas for sm_80 and sm_90. Refusals name the tasklet or the map.
#include <gtest/gtest.h>

#include <type_traits>
#include <llvm/IR/LLVMContext.h>

#include <algorithm>
#include <cmath>

#include "analysis/validate.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using S = ir::ScheduleType;

int warp_tasklet(ir::State& s, const std::string& op, const std::string& cpp_type) {
  int w = tasklet(s, "__out = dace::warpReduce<dace::ReductionType::" + op + ", " + cpp_type + ">::reduce(__a);",
                  {"__a"}, {"__out"});
  static_cast<ir::Tasklet*>(s.node(w))->code.language = ir::Language::CPP;
  return w;
}

// Per block b of THREADS threads: acc = A[THREADS b + t]; acc = warpReduce(acc);
// B[THREADS b + t] = acc — every lane writes the combination of its warp.
std::unique_ptr<ir::SDFG> every_lane_sdfg(T type, const std::string& op, const std::string& cpp_type, int threads) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "warp_every_lane";
  g->symbols["NB"] = ir::DType::of(T::Int64);
  const std::string n = std::to_string(threads);
  add_array(*g, "A", type, {n + " * NB"});
  add_array(*g, "B", type, {n + " * NB"});
  add_scalar(*g, "acc", type, true);
  g->arrays.at("acc").storage = ir::StorageType::Register;
  for (const char* c : {"A", "B"}) g->arrays.at(c).storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [dev, dev_exit] = map(s, {"b"}, "0:NB", S::GPU_Device);
  auto [tb, tb_exit] = map(s, {"t"}, "0:" + n, S::GPU_ThreadBlock);
  int load = tasklet(s, "o = a", {"a"}, {"o"});
  int w = warp_tasklet(s, op, cpp_type);
  int store = tasklet(s, "o = x", {"x"}, {"o"});
  chain_in(s, access(s, "A"), {dev, tb}, load, "a", "A",
           {"A[0:" + n + " * NB]", "A[" + n + " * b:" + n + " * b + " + n + "]", "A[" + n + " * b + t]"});
  int acc1 = access(s, "acc");
  edge(s, load, "o", acc1, "", "acc[0]");
  edge(s, acc1, "", w, "__a", "acc[0]");
  int acc2 = access(s, "acc");
  edge(s, w, "__out", acc2, "", "acc[0]");
  edge(s, acc2, "", store, "x", "acc[0]");
  chain_out(s, store, "o", {tb_exit, dev_exit}, access(s, "B"), "B",
            {"B[" + n + " * b + t]", "B[" + n + " * b:" + n + " * b + " + n + "]", "B[0:" + n + " * NB]"});
  return g;
}

class CudaWarp : public CudaTargetTest {};
INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaWarp);

// DaCe's ReductionType `op` on two values, as C++ computes it (the reference).
template <class V>
V combine(const std::string& op, V a, V x) {
  if (op == "Sum") return a + x;
  if (op == "Max") return std::max(a, x);
  if (op == "Min") return std::min(a, x);
  if constexpr (std::is_integral_v<V>) {
    if (op == "Bitwise_And") return a & x;
    if (op == "Bitwise_Or") return a | x;
    if (op == "Bitwise_Xor") return a ^ x;
    if (op == "Logical_And") return (a != 0) && (x != 0);
    if (op == "Logical_Or") return (a != 0) || (x != 0);
    if (op == "Logical_Xor") return (a != 0) != (x != 0);
  }
  ADD_FAILURE() << "no reference for " << op;
  return a;
}

template <class V>
void check_every_lane(Where where, T type, const std::string& op, const std::string& cpp_type) {
  const int threads = 64;  // two warps per block: each combines only its own lanes
  std::unique_ptr<ir::SDFG> g = every_lane_sdfg(type, op, cpp_type, threads);
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, where);
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t nb = 3;
  std::vector<V> a(static_cast<size_t>(threads * nb)), b(a.size(), V(-1));
  for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<V>(static_cast<int64_t>((k * 37) % 101) - 50) / V(4);
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                       {"NB", ArgValue::scalar<int64_t>(nb)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (size_t warp = 0; warp < a.size() / 32; ++warp) {
    V want = a[warp * 32];
    for (size_t l = 1; l < 32; ++l) {
      const V x = a[warp * 32 + l];
      want = combine(op, want, x);
    }
    for (size_t l = 0; l < 32; ++l) EXPECT_EQ(b[warp * 32 + l], want) << "warp " << warp << " lane " << l;  // exact: quarters
  }
  std::string ptx = checked_ptx(*g);
  EXPECT_GE(count_of(ptx, "shfl.sync.bfly"), 5u) << "the butterfly's five levels are missing";
}

TEST_P(CudaWarp, SumOfDoublesReachesEveryLaneOfItsWarp) {
  REQUIRE_CUDA_TARGET();
  check_every_lane<double>(GetParam(), T::Float64, "Sum", "double");
}

TEST_P(CudaWarp, MaxOfFloatsReachesEveryLaneOfItsWarp) {
  REQUIRE_CUDA_TARGET();
  check_every_lane<float>(GetParam(), T::Float32, "Max", "float");
}

TEST_P(CudaWarp, MinOfInt32ReachesEveryLaneOfItsWarp) {
  REQUIRE_CUDA_TARGET();
  check_every_lane<int32_t>(GetParam(), T::Int32, "Min", "int");
}

// Bitwise and logical reductions of integers (inputs -12..12, a few zeros per warp).
TEST_P(CudaWarp, BitwiseAndLogicalReductionsOfIntegersReachEveryLane) {
  REQUIRE_CUDA_TARGET();
  check_every_lane<int32_t>(GetParam(), T::Int32, "Bitwise_Xor", "int");
  check_every_lane<int64_t>(GetParam(), T::Int64, "Bitwise_Or", "long long");
  check_every_lane<int32_t>(GetParam(), T::Int32, "Bitwise_And", "int32_t");
  check_every_lane<int32_t>(GetParam(), T::Int32, "Logical_And", "int");
  check_every_lane<int64_t>(GetParam(), T::Int64, "Logical_Or", "int64_t");
  check_every_lane<int32_t>(GetParam(), T::Int32, "Logical_Xor", "int");
}

// DaCe's block reduction expansion: in a GPU_ThreadBlock map of 32 threads each thread
// starts acc from -9999 and takes the max over A[b, t::32]; the warp combines; acc leaves the
// map; kernel-level code writes it where `threadIdx.x == 0`.
std::unique_ptr<ir::SDFG> dace_block_max_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "warp_block_max";
  g->symbols["NB"] = ir::DType::of(T::Int64);
  g->symbols["C"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float32, {"NB", "C"});
  add_array(*g, "B", T::Float32, {"NB"});
  add_scalar(*g, "acc", T::Float32, true);
  g->arrays.at("acc").storage = ir::StorageType::Register;
  for (const char* c : {"A", "B"}) g->arrays.at(c).storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [dev, dev_exit] = map(s, {"b"}, "0:NB", S::GPU_Device);
  auto [tb, tb_exit] = map(s, {"t"}, "0:32", S::GPU_ThreadBlock);
  auto [seq, seq_exit] = map(s, {"i"}, "t:C:32", S::Sequential);
  int init = tasklet(s, "o = -9999", {}, {"o"});
  edge(s, tb, "", init, "", "");
  int acc0 = access(s, "acc");
  edge(s, init, "o", acc0, "", "acc[0]");
  // acc = max(acc, A[b, i]) along the thread's elements (WCR into its own register).
  int take = tasklet(s, "o = a", {"a"}, {"o"});
  edge(s, acc0, "", seq, "", "");  // the loop starts after the initialization
  chain_in(s, access(s, "A"), {dev, tb, seq}, take, "a", "A", {"A[0:NB, 0:C]", "A[b, 0:C]", "A[b, t:C:32]", "A[b, i]"});
  int acc1 = access(s, "acc");
  chain_out(s, take, "o", {seq_exit}, acc1, "acc", {"acc[0]", "acc[0]"}, "lambda a, b: max(a, b)");
  int w = warp_tasklet(s, "Max", "float");
  edge(s, acc1, "", w, "__a", "acc[0]");
  int acc2 = access(s, "acc");
  chain_out(s, w, "__out", {tb_exit}, acc2, "acc", {"acc[0]", "acc[0]"});
  int write = tasklet(s, "if (threadIdx.x == 0):\n    _output = _input", {"_input"}, {"_output"});
  edge(s, acc2, "", write, "_input", "acc[0]");
  s.node(dev_exit)->in_connectors["IN_B"] = ir::DType{};
  s.node(dev_exit)->out_connectors["OUT_B"] = ir::DType{};
  int to_exit = edge(s, write, "_output", dev_exit, "IN_B", "B[b]");
  s.edge(to_exit)->memlet.dynamic = true;
  edge(s, dev_exit, "OUT_B", access(s, "B"), "", "B[0:NB]");
  return g;
}

TEST_P(CudaWarp, DaCeBlockReductionWritesFromThreadZero) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = dace_block_max_sdfg();
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t nb = 5, cols = 450;  // 14 full strides of 32 and a partial one
  std::vector<float> a(static_cast<size_t>(nb * cols)), b(static_cast<size_t>(nb), 7.0f);
  for (size_t k = 0; k < a.size(); ++k) a[k] = std::sin(0.7f * static_cast<float>(k)) * 100.0f;
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                       {"NB", ArgValue::scalar<int64_t>(nb)}, {"C", ArgValue::scalar<int64_t>(cols)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t r = 0; r < nb; ++r) {
    float want = -9999.0f;
    for (int64_t c = 0; c < cols; ++c) want = std::max(want, a[static_cast<size_t>(r * cols + c)]);
    EXPECT_EQ(b[static_cast<size_t>(r)], want) << r;
  }
  std::string ptx = checked_ptx(*g);
  EXPECT_NE(ptx.find("%tid.x"), std::string::npos);
  EXPECT_GE(count_of(ptx, "shfl.sync.bfly"), 5u);
}

TEST(CudaWarpRefusal, PartialWarpIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  // 48 threads: the second warp would shuffle with lanes that do not exist.
  std::unique_ptr<ir::SDFG> g = every_lane_sdfg(T::Float64, "Sum", "double", 48);
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, emulated_options());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::Unsupported);
  EXPECT_NE(m.error().message.find("full warps of 32 threads"), std::string::npos) << m.error().message;
}

TEST(CudaWarpRefusal, UnknownReductionTypeIsRefusedNamingTheTasklet) {
  REQUIRE_CUDA_PLUGIN();
  // An unknown type, and a bitwise reduction of floating-point values.
  for (const char* op : {"Min_Location", "Bitwise_Xor"}) {
    std::unique_ptr<ir::SDFG> g = every_lane_sdfg(T::Float64, op, "double", 32);
    llvm::LLVMContext ctx;
    Result<LoweredModule> m = lower(*g, ctx, emulated_options());
    ASSERT_FALSE(m.ok()) << op;
    EXPECT_EQ(m.error().code, Code::Unsupported);
    EXPECT_NE(m.error().message.find("Tasklet"), std::string::npos) << m.error().message;
    EXPECT_NE(m.error().message.find(std::string("ReductionType::") + op), std::string::npos) << m.error().message;
  }
}

TEST(CudaWarpRefusal, ThreadIndexInHostCodeIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  auto g = std::make_unique<ir::SDFG>();
  g->name = "host_thread_index";
  add_array(*g, "B", T::Int64, {"1"});
  ir::State& s = add_state(*g, *g, "s");
  int t = tasklet(s, "o = threadIdx.x", {}, {"o"});
  edge(s, t, "o", access(s, "B"), "", "B[0]");
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, emulated_options());
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("exists only inside a GPU kernel"), std::string::npos) << m.error().message;
}

}  // namespace
}  // namespace dace::codegen::testing
