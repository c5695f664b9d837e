// Default block sizes of 1-D GPU_Device maps (lowering/kernel.h): a map whose threads each
// run a loop (a nested sequential map: a row sum, as syrk's rows) launches blocks of one warp
// (32 threads, DaCe's default), so few long threads spread over many multiprocessors; a map
// whose threads each compute one element keeps blocks of 256, also when its body is wrapped in a
// nested SDFG (as GPUTransformSDFG wraps bodies); a nested SDFG counts as looping only when it
// holds a loop (here a LoopRegion). All run emulated against C++
// loops over a row count that leaves the last block partly idle, and their PTX passes ptxas.
#include <gtest/gtest.h>

#include <llvm/IR/LLVMContext.h>

#include "analysis/validate.h"
#include "ir/control_flow.h"
#include "codegen/lower.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using S = ir::ScheduleType;

// Row i of A (N x M): R[i] = sum_j A[i, j] through a sequential map in thread i; with
// `looping` false, R[i] = 2 * A[i, 0] (one element per thread).
std::unique_ptr<ir::SDFG> rows_sdfg(bool looping) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = looping ? "emu_row_sums" : "emu_row_heads";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "M"});
  add_array(*g, "R", T::Float64, {"N"});
  g->arrays.at("A").storage = ir::StorageType::GPU_Global;
  g->arrays.at("R").storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [dev, dev_exit] = map(s, {"i"}, "0:N", S::GPU_Device);
  if (looping) {
    auto [row, row_exit] = map(s, {"j"}, "0:M", S::Sequential);
    int t = tasklet(s, "o = a", {"a"}, {"o"});
    chain_in(s, access(s, "A"), {dev, row}, t, "a", "A", {"A[0:N, 0:M]", "A[i, 0:M]", "A[i, j]"});
    chain_out(s, t, "o", {row_exit, dev_exit}, access(s, "R"), "R", {"R[i]", "R[i]", "R[0:N]"}, "lambda a, b: a + b");
  } else {
    int t = tasklet(s, "o = 2 * a", {"a"}, {"o"});
    edge_in(s, access(s, "A"), dev, t, "a", "A[0:N, 0:M]", "A[i, 0]");
    edge_out(s, t, "o", dev_exit, access(s, "R"), "R[i]", "R[0:N]");
  }
  return g;
}

// rows_sdfg with the map's body in a nested SDFG over row i (x: A[i, 0:M], y: R[i]): with
// `looping`, a LoopRegion for j in 0:M adds x[j] to y[0] (R[i] += sum_j A[i, j]); else one
// state writes y[0] = 2 * x[0].
std::unique_ptr<ir::SDFG> nested_rows_sdfg(bool looping) {
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = looping ? "row_sum" : "row_head";
  inner->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*inner, "x", T::Float64, {"M"});
  add_array(*inner, "y", T::Float64, {"1"});
  if (looping) {
    inner->symbols["j"] = ir::DType::of(T::Int64);
    auto loop = std::make_unique<ir::LoopRegion>();
    loop->label = "over_j";
    loop->loop_variable = "j";
    loop->init_statement = ir::CodeBlock{"j = 0", ir::Language::Python};
    loop->loop_condition = ir::CodeBlock{"j < M", ir::Language::Python};
    loop->update_statement = ir::CodeBlock{"j = j + 1", ir::Language::Python};
    inner->register_block(*loop);
    ir::LoopRegion& body = *loop;
    inner->add_block(std::move(loop));
    ir::State& is = add_state(body, *inner, "add");
    int t = tasklet(is, "o = a", {"a"}, {"o"});
    edge(is, access(is, "x"), "", t, "a", "x[j]");
    edge(is, t, "o", access(is, "y"), "", "y[0]", "lambda a, b: a + b");
  } else {
    ir::State& is = add_state(*inner, *inner, "head");
    int t = tasklet(is, "o = 2 * a", {"a"}, {"o"});
    edge(is, access(is, "x"), "", t, "a", "x[0]");
    edge(is, t, "o", access(is, "y"), "", "y[0]");
  }
  auto g = std::make_unique<ir::SDFG>();
  g->name = looping ? "emu_nested_row_sums" : "emu_nested_row_heads";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "M"});
  add_array(*g, "R", T::Float64, {"N"});
  g->arrays.at("A").storage = ir::StorageType::GPU_Global;
  g->arrays.at("R").storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [dev, dev_exit] = map(s, {"i"}, "0:N", S::GPU_Device);
  auto nn = std::make_unique<ir::NestedSDFGNode>();
  nn->label = "body";
  nn->in_connectors["x"] = ir::DType{};
  nn->out_connectors["y"] = ir::DType{};
  nn->symbol_mapping["M"] = E("M");
  inner->parent_node = nn.get();
  nn->sdfg = std::move(inner);
  const int body = s.add_node(std::move(nn));
  edge_in(s, access(s, "A"), dev, body, "x", "A[0:N, 0:M]", "A[i, 0:M]");
  edge_out(s, body, "y", dev_exit, access(s, "R"), "R[i]", "R[0:N]");
  return g;
}

// The block (x, y, z) of the program's launch as the host IR passes it.
std::string launch_block(const ir::SDFG& g) {
  LowerOptions o = parallel_test_options();
  o.registry = cuda_registry();
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(g, ctx, o);
  EXPECT_TRUE(m.ok()) << m.error().message;
  if (!m.ok()) return "";
  const std::string host = module_text(*m->module);
  const size_t call = host.find("call i32 @dace_cuda_launch(");
  if (call == std::string::npos) return "no launch";
  const size_t end = host.find(", i32 0, ptr", call);
  const size_t grid = host.find("i64 %grid, i64 1, i64 1, ", call);
  if (end == std::string::npos || grid == std::string::npos || grid > end) return host.substr(call, 300);
  const size_t from = grid + std::string("i64 %grid, i64 1, i64 1, ").size();
  return host.substr(from, end - from);
}

void run_rows(const ir::SDFG& g, bool looping) {
  Result<CompiledProgram> p = compile_emulated(g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 70, m = 9;  // 3 blocks of 32 (the last with 6 rows), or 1 of 256
  std::vector<double> a(n * m), r(n, 0.5);
  for (size_t k = 0; k < a.size(); ++k) a[k] = 0.25 * static_cast<double>(k % 13) - 1.0;
  std::vector<double> want = r;
  for (int64_t i = 0; i < n; ++i) {
    if (!looping) {
      want[i] = 2 * a[i * m];
      continue;
    }
    for (int64_t j = 0; j < m; ++j) want[i] += a[i * m + j];
  }
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"R", ArgValue::pointer(r.data())},
                       {"N", ArgValue::scalar<int64_t>(n)}, {"M", ArgValue::scalar<int64_t>(m)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t i = 0; i < n; ++i) EXPECT_DOUBLE_EQ(r[i], want[i]) << "row " << i;
}

// One program of each kind: how it is built, whether its threads run loops, and the block
// its launch must pass.
struct BlockCase {
  const char* name;
  std::unique_ptr<ir::SDFG> (*build)(bool looping);
  bool looping;
  const char* block;
};

class CudaBlockSize : public ::testing::TestWithParam<BlockCase> {};

TEST_P(CudaBlockSize, LaunchesItsBlockAndMatchesLoops) {
  REQUIRE_CUDA_PLUGIN();
  const BlockCase& c = GetParam();
  std::unique_ptr<ir::SDFG> g = c.build(c.looping);
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_EQ(launch_block(*g), c.block);
  run_rows(*g, c.looping);
  checked_ptx(*g);
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, CudaBlockSize,
    ::testing::Values(
        // A map whose threads each run a loop (a nested sequential map): one warp per block.
        BlockCase{"MapWhoseThreadsRunLoopsLaunchesOneWarpPerBlock", rows_sdfg, true, "i64 32, i64 1, i64 1"},
        BlockCase{"MapOfOneElementPerThreadKeepsBlocksOf256", rows_sdfg, false, "i64 256, i64 1, i64 1"},
        // GPUTransformSDFG's wrapping of an element-wise body in a nested SDFG is no loop:
        // blocks of 256 (they were 32 when any nested SDFG counted as looping).
        BlockCase{"ElementBodyInNestedSdfgKeepsBlocksOf256", nested_rows_sdfg, false, "i64 256, i64 1, i64 1"},
        // A nested SDFG holding a LoopRegion makes each thread run a loop: one warp per block.
        BlockCase{"NestedSdfgWithLoopRegionLaunchesOneWarpPerBlock", nested_rows_sdfg, true, "i64 32, i64 1, i64 1"}),
    [](const ::testing::TestParamInfo<BlockCase>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace dace::codegen::testing
