// GPU_Persistent maps holding GPU_Device maps (plugins/cuda/lowering/cooperative.h, docs/cuda.md):
// one cooperative kernel whose inner maps run one after another, grid-strided over the resident
// blocks, with a grid barrier after each. The second map reads the neighbours of what the
// first wrote, which other blocks wrote (3 resident blocks of 256 threads on the emulated
// device, 2000 points): without the barrier the emulated device, which runs each block up to
// its next barrier before the next block starts, reads values not written yet. Results are
// checked against C++ loops, emulated and on a GPU; the PTX must hold the barrier (arrival
// by atom.inc, release and acquire fences, the polled generation) and pass ptxas for sm_80
// and sm_90. What cannot be lowered yet is refused naming the element.
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

class CudaCooperative : public CudaTargetTest {};
INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaCooperative);

// For each s in 0:S (the GPU_Persistent map's points):
//   produce: T[s, i] = A[i] * A[i] + s                        i in 0:N
//   stencil: B[s, i] = T[s, i - 1] + 2 * T[s, i] + T[s, i + 1]  i in 1:N-1
// T is a GPU_Global transient inside the persistent scope.
std::unique_ptr<ir::SDFG> two_phase_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_cooperative";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["S"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "T", T::Float64, {"S", "N"}, /*transient=*/true);
  add_array(*g, "B", T::Float64, {"S", "N"});
  for (const char* n : {"A", "T", "B"}) g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  ir::State& st = add_state(*g, *g, "s");
  auto [pentry, pexit] = map(st, {"s"}, "0:S", S::GPU_Persistent);
  st.node(pentry)->label = "steps";
  auto [produce, produce_exit] = map(st, {"i"}, "0:N", S::GPU_Device);
  st.node(produce)->label = "produce";
  auto [stencil, stencil_exit] = map(st, {"i"}, "1:N-1", S::GPU_Device);
  st.node(stencil)->label = "stencil";
  int square = tasklet(st, "t = a * a + s", {"a"}, {"t"});
  chain_in(st, access(st, "A"), {pentry, produce}, square, "a", "A", {"A[0:N]", "A[0:N]", "A[i]"});
  int t_node = access(st, "T");
  chain_out(st, square, "t", {produce_exit}, t_node, "T", {"T[s, i]", "T[s, 0:N]"});
  int sum = tasklet(st, "b = l + 2 * c + r", {"l", "c", "r"}, {"b"});
  st.node(stencil)->in_connectors["IN_T"] = ir::DType{};
  st.node(stencil)->out_connectors["OUT_T"] = ir::DType{};
  edge(st, t_node, "", stencil, "IN_T", "T[s, 0:N]");
  edge(st, stencil, "OUT_T", sum, "l", "T[s, i - 1]");
  edge(st, stencil, "OUT_T", sum, "c", "T[s, i]");
  edge(st, stencil, "OUT_T", sum, "r", "T[s, i + 1]");
  chain_out(st, sum, "b", {stencil_exit, pexit}, access(st, "B"), "B", {"B[s, i]", "B[s, 1:N-1]", "B[0:S, 1:N-1]"});
  return g;
}

TEST_P(CudaCooperative, SecondMapReadsNeighboursTheFirstWroteInOtherBlocks) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = two_phase_sdfg();
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 2000, steps = 2;  // 2000 points: 3 strides of 3 resident blocks of 256
  std::vector<double> a(static_cast<size_t>(n)), b(static_cast<size_t>(steps * n), -1.0);
  for (size_t k = 0; k < a.size(); ++k) a[k] = 0.5 * static_cast<double>(k % 13) - 2.0;  // exact arithmetic
  Status run_status = run(*p, {{"A", ArgValue::pointer(a.data())},
                               {"B", ArgValue::pointer(b.data())},
                               {"N", ArgValue::scalar<int64_t>(n)},
                               {"S", ArgValue::scalar<int64_t>(steps)}});
  ASSERT_TRUE(run_status.ok()) << run_status.error().message;
  size_t wrong = 0;
  for (int64_t s = 0; s < steps; ++s) {
    auto t = [&](int64_t i) { return a[static_cast<size_t>(i)] * a[static_cast<size_t>(i)] + static_cast<double>(s); };
    for (int64_t i = 0; i < n; ++i) {
      const double want = (i == 0 || i == n - 1) ? -1.0 : t(i - 1) + 2 * t(i) + t(i + 1);
      const double got = b[static_cast<size_t>(s * n + i)];
      if (got != want && ++wrong <= 5) ADD_FAILURE() << "B[" << s << ", " << i << "] = " << got << ", want " << want;
    }
  }
  EXPECT_EQ(wrong, 0u);
}

TEST(CudaCooperativePtx, HoldsTheGridBarrierAndPassesPtxas) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = two_phase_sdfg();
  const std::string ptx = checked_ptx(*g);
  // One barrier after each inner map: arrival, release fence, generation bump or poll, and
  // the block barriers around it.
  EXPECT_EQ(count_of(ptx, "atom.relaxed.gpu.inc.u32"), 2u) << ptx;
  EXPECT_EQ(count_of(ptx, "red.relaxed.gpu.add.u32"), 2u);
  EXPECT_GE(count_of(ptx, "fence.acq_rel.gpu"), 6u);
  EXPECT_GE(count_of(ptx, "ld.relaxed.gpu.u32"), 4u);
  EXPECT_GE(count_of(ptx, "bar.sync"), 4u);
  EXPECT_NE(ptx.find("%nctaid.x"), std::string::npos) << "the stride must be the grid the kernel runs with";
  EXPECT_NE(ptx.find("__dace_grid_barrier_0"), std::string::npos);
}

// R[i, j] = i + j: the persistent map's points (i) in order, each running the inner map over j.
std::unique_ptr<ir::SDFG> persistent_points_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_persistent_points";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "R", T::Int32, {"N", "600"});
  g->arrays.at("R").storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [outer, outer_exit] = map(s, {"i"}, "0:N", S::GPU_Persistent);
  auto [inner, inner_exit] = map(s, {"j"}, "0:600", S::GPU_Device);
  s.node(inner)->label = "inner_kernel";
  int t = tasklet(s, "r = i + j", {}, {"r"});
  edge(s, outer, "", inner, "", "");
  edge(s, inner, "", t, "", "");
  chain_out(s, t, "r", {inner_exit, outer_exit}, access(s, "R"), "R", {"R[i, j]", "R[i, 0:600]", "R[0:N, 0:600]"});
  return g;
}

TEST_P(CudaCooperative, PersistentPointsEachRunTheInnerMap) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = persistent_points_sdfg();
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 5;
  std::vector<int32_t> r(static_cast<size_t>(n * 600), -1);
  Status st = run(*p, {{"R", ArgValue::pointer(r.data())}, {"N", ArgValue::scalar<int64_t>(n)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < 600; ++j) ASSERT_EQ(r[static_cast<size_t>(i * 600 + j)], i + j) << i << ", " << j;
}

// DaCe's persistent states: the persistent map (one point) holds a nested SDFG of two states,
// `produce` (T[i] = A[i] * A[i] + 1 over 0:N) then `stencil` (B[i] = T[i - 1] + 2 T[i] +
// T[i + 1] over 1:N-1), each a GPU_Device map: a grid barrier after each.
std::unique_ptr<ir::SDFG> persistent_states_sdfg() {
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "phases";
  inner->symbols["N"] = ir::DType::of(T::Int64);
  for (const char* n : {"A", "T", "B"}) {
    add_array(*inner, n, T::Float64, {"N"});
    inner->arrays.at(n).storage = ir::StorageType::GPU_Global;
  }
  int first = -1, second = -1;
  ir::State& produce = add_state(*inner, *inner, "produce", &first);
  auto [m1, m1_exit] = map(produce, {"i"}, "0:N", S::GPU_Device);
  int square = tasklet(produce, "t = a * a + 1", {"a"}, {"t"});
  chain_in(produce, access(produce, "A"), {m1}, square, "a", "A", {"A[0:N]", "A[i]"});
  chain_out(produce, square, "t", {m1_exit}, access(produce, "T"), "T", {"T[i]", "T[0:N]"});
  ir::State& stencil = add_state(*inner, *inner, "stencil", &second);
  auto [m2, m2_exit] = map(stencil, {"i"}, "1:N-1", S::GPU_Device);
  int sum = tasklet(stencil, "b = l + 2 * c + r", {"l", "c", "r"}, {"b"});
  stencil.node(m2)->in_connectors["IN_T"] = ir::DType{};
  stencil.node(m2)->out_connectors["OUT_T"] = ir::DType{};
  edge(stencil, access(stencil, "T"), "", m2, "IN_T", "T[0:N]");
  edge(stencil, m2, "OUT_T", sum, "l", "T[i - 1]");
  edge(stencil, m2, "OUT_T", sum, "c", "T[i]");
  edge(stencil, m2, "OUT_T", sum, "r", "T[i + 1]");
  chain_out(stencil, sum, "b", {m2_exit}, access(stencil, "B"), "B", {"B[i]", "B[1:N-1]"});
  add_interstate(*inner, first, second);

  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_persistent_states";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "T", T::Float64, {"N"}, /*transient=*/true);
  add_array(*g, "B", T::Float64, {"N"});
  for (const char* n : {"A", "T", "B"}) g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [pentry, pexit] = map(s, {"p"}, "0:1", S::GPU_Persistent);
  auto nn = std::make_unique<ir::NestedSDFGNode>();
  nn->label = "phases";
  nn->in_connectors["A"] = ir::DType{};
  nn->out_connectors["T"] = ir::DType{};
  nn->out_connectors["B"] = ir::DType{};
  nn->symbol_mapping["N"] = E("N");
  inner->parent_node = nn.get();
  nn->sdfg = std::move(inner);
  const int phases = s.add_node(std::move(nn));
  chain_in(s, access(s, "A"), {pentry}, phases, "A", "A", {"A[0:N]", "A[0:N]"});
  chain_out(s, phases, "T", {pexit}, access(s, "T"), "T", {"T[0:N]", "T[0:N]"});
  chain_out(s, phases, "B", {pexit}, access(s, "B"), "B", {"B[0:N]", "B[0:N]"});
  return g;
}

TEST_P(CudaCooperative, PersistentStatesOfANestedSdfgEachEndWithABarrier) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = persistent_states_sdfg();
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 1500;  // 2 strides of 3 resident blocks of 256
  std::vector<double> a(static_cast<size_t>(n)), b(a.size(), -1.0);
  for (size_t k = 0; k < a.size(); ++k) a[k] = 0.5 * static_cast<double>(k % 7) - 1.0;
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())}, {"N", ArgValue::scalar<int64_t>(n)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  auto t = [&](int64_t i) { return a[static_cast<size_t>(i)] * a[static_cast<size_t>(i)] + 1; };
  size_t wrong = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double want = (i == 0 || i == n - 1) ? -1.0 : t(i - 1) + 2 * t(i) + t(i + 1);
    if (b[static_cast<size_t>(i)] != want && ++wrong <= 5) ADD_FAILURE() << "B[" << i << "] = " << b[static_cast<size_t>(i)];
  }
  EXPECT_EQ(wrong, 0u);
  const std::string ptx = checked_ptx(*g);
  EXPECT_EQ(count_of(ptx, "atom.relaxed.gpu.inc.u32"), 2u);
}

Status lower_emulated(const ir::SDFG& g) {
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(g, ctx, emulated_options());
  if (!m.ok()) return m.take_error();
  return Status::success();
}

TEST(CudaCooperativeRefusal, TaskletBesideTheInnerMapsIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = two_phase_sdfg();
  add_array(*g, "C", T::Float64, {"1"});
  g->arrays.at("C").storage = ir::StorageType::GPU_Global;
  ir::State& st = *g->all_states()[0];
  int pentry = -1, pexit = -1;
  for (int id : st.node_ids()) {
    if (st.node(id)->label == "steps") pentry = id;
    if (st.node(id)->kind == ir::NodeKind::MapExit && st.scope_parents()[static_cast<size_t>(id)] == -1) pexit = id;
  }
  ASSERT_GE(pentry, 0);
  ASSERT_GE(pexit, 0);
  int lone = tasklet(st, "c = 1.0", {}, {"c"});
  st.node(lone)->label = "lone_tasklet";
  edge(st, pentry, "", lone, "", "");
  chain_out(st, lone, "c", {pexit}, access(st, "C"), "C", {"C[0]", "C[0]"});
  Status s = lower_emulated(*g);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Code::Unsupported);
  EXPECT_NE(s.error().message.find("Tasklet \"lone_tasklet\" beside the GPU_Device maps"), std::string::npos)
      << s.error().message;
}

TEST(CudaCooperativeRefusal, BoundsChecksAreRefused) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = two_phase_sdfg();
  LowerOptions o = emulated_options();
  o.bounds_check = true;
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, o);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::Unsupported);
  EXPECT_NE(m.error().message.find("\"steps\""), std::string::npos) << m.error().message;
  EXPECT_NE(m.error().message.find("cannot be compiled with bounds checks yet"), std::string::npos) << m.error().message;
}

TEST(CudaCooperativeRefusal, ThreadBlockMapInsideAnInnerMapIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_cooperative_tb";
  add_array(*g, "R", T::Int32, {"4", "32"});
  g->arrays.at("R").storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [outer, outer_exit] = map(s, {"p"}, "0:1", S::GPU_Persistent);
  auto [device, device_exit] = map(s, {"i"}, "0:4", S::GPU_Device);
  s.node(device)->label = "device_map";
  auto [block, block_exit] = map(s, {"j"}, "0:32", S::GPU_ThreadBlock);
  s.node(block)->label = "threads";
  int t = tasklet(s, "r = i + j", {}, {"r"});
  edge(s, outer, "", device, "", "");
  edge(s, device, "", block, "", "");
  edge(s, block, "", t, "", "");
  chain_out(s, t, "r", {block_exit, device_exit, outer_exit}, access(s, "R"), "R",
            {"R[i, j]", "R[i, 0:32]", "R[0:4, 0:32]", "R[0:4, 0:32]"});
  Status st = lower_emulated(*g);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, Code::Unsupported);
  EXPECT_NE(st.error().message.find("map \"threads\" inside the GPU_Device map \"device_map\" of a GPU_Persistent map"), std::string::npos)
      << st.error().message;
}

}  // namespace
}  // namespace dace::codegen::testing
