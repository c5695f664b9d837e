// Scope-local heap containers reused across the scope instances of the map around them
// (codegen::begin_block_reuse): a row buffer of symbolic size inside a parallel map over rows
// is allocated once per piece of the map, not once per row, and the results are those of C++
// loops. The JIT session here resolves `aligned_alloc` and `free` to counting wrappers, so the
// number of blocks the program asks for is observed directly, and every call is checked to
// free each block it took exactly once (also when it fails).
#include <gtest/gtest.h>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <atomic>
#include <cstdlib>
#include <optional>
#include <thread>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "cpu_test_registry.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

std::atomic<int64_t> g_blocks{0};
std::atomic<int64_t> g_freed{0};  // blocks freed (free(nullptr) does nothing and is not counted)

extern "C" void* counting_aligned_alloc(size_t alignment, size_t bytes) {
  void* p = std::aligned_alloc(alignment, bytes);
  if (p) ++g_blocks;
  return p;
}

extern "C" void counting_free(void* p) {
  if (p) ++g_freed;
  std::free(p);
}

int64_t blocks_held() { return g_blocks.load() - g_freed.load(); }

// Two pieces, each on its own thread: the split a two-thread static schedule makes.
extern "C" void two_piece_parallel_for(void (*fn)(void*, int64_t, int64_t), void* closure, int64_t begin, int64_t end,
                                       int64_t, int32_t, int32_t) {
  if (end <= begin) return;
  const int64_t mid = begin + (end - begin) / 2;
  std::thread helper([=]() { fn(closure, mid, end); });
  if (mid > begin) fn(closure, begin, mid);
  helper.join();
}

jit::JitSession& counting_session() {
  static std::unique_ptr<jit::JitSession> s = [] {
    auto r = jit::JitSession::create();
    if (!r) std::abort();
    if (!(*r)->define_runtime_symbol("aligned_alloc", reinterpret_cast<void*>(&counting_aligned_alloc)).ok() ||
        !(*r)->define_runtime_symbol("free", reinterpret_cast<void*>(&counting_free)).ok() ||
        !(*r)->define_runtime_symbol("dace_cpu_parallel_for", reinterpret_cast<void*>(&two_piece_parallel_for)).ok())
      std::abort();
    return std::move(*r);
  }();
  return *s;
}

std::unique_ptr<jit::Program> build(const ir::SDFG& g, std::vector<analysis::Argument>& arguments) {
  Status valid = analysis::validate(g);
  EXPECT_TRUE(valid.ok()) << valid.error().message;
  auto ctx = std::make_unique<llvm::LLVMContext>();
  Result<LoweredModule> lowered = lower(g, *ctx, parallel_test_options());
  EXPECT_TRUE(lowered.ok()) << lowered.error().message;
  if (!lowered) return nullptr;
  arguments = lowered->arguments;
  Result<std::unique_ptr<jit::JitModule>> m = counting_session().compile(std::move(lowered->module), std::move(ctx));
  EXPECT_TRUE(m.ok()) << m.error().message;
  if (!m) return nullptr;
  auto p = jit::Program::create(std::move(*m), {lowered->init_function, lowered->program_function, lowered->exit_function},
                                lowered->arguments, lowered->init_arguments);
  EXPECT_TRUE(p.ok()) << p.error().message;
  return p ? std::move(*p) : nullptr;
}

// tasklet -> inner exit -> outer exit -> access node `data`, with the connectors of both
// exits.
void out_through_two_exits(ir::State& s, int tasklet_node, int inner_exit, int outer_exit, const std::string& data,
                           const std::string& point, const std::string& row, const std::string& whole,
                           const std::string& wcr = "") {
  for (int x : {inner_exit, outer_exit}) {
    s.node(x)->in_connectors["IN_" + data] = ir::DType{};
    s.node(x)->out_connectors["OUT_" + data] = ir::DType{};
  }
  edge(s, tasklet_node, "o", inner_exit, "IN_" + data, point, wcr);
  edge(s, inner_exit, "OUT_" + data, outer_exit, "IN_" + data, row, wcr);
  edge(s, outer_exit, "OUT_" + data, access(s, data), "", whole, wcr);
}

// access node -> outer entry -> inner entry -> tasklet connector `a`.
void in_through_two_entries(ir::State& s, int src, int outer_entry, int inner_entry, int tasklet_node,
                            const std::string& data, const std::string& whole, const std::string& row,
                            const std::string& point) {
  for (int e : {outer_entry, inner_entry}) {
    s.node(e)->in_connectors["IN_" + data] = ir::DType{};
    s.node(e)->out_connectors["OUT_" + data] = ir::DType{};
  }
  edge(s, src, "", outer_entry, "IN_" + data, whole);
  edge(s, outer_entry, "OUT_" + data, inner_entry, "IN_" + data, row);
  edge(s, inner_entry, "OUT_" + data, tasklet_node, "a", point);
}

// for i in 0:N (outer schedule):  tmp = A[i, :] * 2 (tmp has `tmp_len` elements, its first M
// written);  B[i, k] = tmp[M - 1 - k] + i.  tmp is a transient of symbolic size used only
// inside the outer map, so the code generator allocates it in the outer map's body.
std::unique_ptr<ir::SDFG> reversed_rows(ir::ScheduleType outer, const std::string& tmp_len) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "reversed_rows";
  for (const char* n : {"N", "M"}) g->symbols[n] = ir::DType::of(T::Int64);
  if (tmp_len == "L") g->symbols["L"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "M"});
  add_array(*g, "B", T::Float64, {"N", "M"});
  add_array(*g, "tmp", T::Float64, {tmp_len}, true);
  ir::State& s = add_state(*g, *g, "s");
  auto [oe, ox] = map(s, {"i"}, "0:N", outer);
  auto [e1, x1] = map(s, {"j"}, "0:M");
  const int t1 = tasklet(s, "o = a * 2", {"a"}, {"o"});
  in_through_two_entries(s, access(s, "A"), oe, e1, t1, "A", "A[0:N, 0:M]", "A[i, 0:M]", "A[i, j]");
  const int tmp = access(s, "tmp");
  edge_out(s, t1, "o", x1, tmp, "tmp[j]", "tmp[0:M]");
  auto [e2, x2] = map(s, {"k"}, "0:M");
  const int t2 = tasklet(s, "o = a + i", {"a"}, {"o"});
  edge_in(s, tmp, e2, t2, "a", "tmp[0:M]", "tmp[M - 1 - k]");
  out_through_two_exits(s, t2, x2, ox, "B", "B[i, k]", "B[i, 0:M]", "B[0:N, 0:M]");
  return g;
}

std::vector<double> input(int64_t n, int64_t m) {
  std::vector<double> a(static_cast<size_t>(n * m));
  for (size_t k = 0; k < a.size(); ++k) a[k] = 0.25 * static_cast<double>(k % 97) - 3.0;
  return a;
}

std::vector<double> expected_reversed(const std::vector<double>& a, int64_t n, int64_t m) {
  std::vector<double> b(a.size());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < m; ++k)
      b[static_cast<size_t>(i * m + k)] = a[static_cast<size_t>(i * m + (m - 1 - k))] * 2 + static_cast<double>(i);
  return b;
}

struct Calls {
  Status status = Status::success();
  int64_t blocks_per_call = -1;  // aligned_alloc calls of one program call after the first
};

// One program call with the state of the call before (same symbols): every block it
// allocated is freed by its end, whether it succeeded or failed.
Status call_balanced(jit::Program& p, const std::vector<ArgValue>& ordered) {
  const int64_t held = blocks_held();
  Status s = p.call(ordered);
  EXPECT_EQ(blocks_held(), held) << "blocks allocated and not freed (or freed twice) by one call";
  return s;
}

// Runs three calls of `p` (the first also runs init, whose state lives until reset) and
// counts the blocks of the last two. After the reset every block of the three is freed.
Calls call_three_times(jit::Program& p, const std::vector<analysis::Argument>& arguments,
                       const std::map<std::string, ArgValue>& values) {
  std::vector<ArgValue> ordered;
  for (const auto& a : arguments) ordered.push_back(values.at(a.name));
  const int64_t held = blocks_held();
  Calls out;
  out.status = p.call(ordered);
  if (out.status.ok()) {
    const int64_t before = g_blocks.load();
    for (int c = 0; c < 2 && out.status.ok(); ++c) out.status = call_balanced(p, ordered);
    if (out.status.ok()) out.blocks_per_call = (g_blocks.load() - before) / 2;
  } else {
    // A failed call keeps the state: the next one (the same failure) starts from it.
    (void)call_balanced(p, ordered);
  }
  (void)p.reset();
  EXPECT_EQ(blocks_held(), held) << "blocks of the calls or of the state not freed (or freed twice)";
  return out;
}

Calls run_rows(const ir::SDFG& g, int64_t n, int64_t m, std::vector<double>& b, std::optional<int64_t> l = {}) {
  std::vector<analysis::Argument> arguments;
  std::unique_ptr<jit::Program> p = build(g, arguments);
  if (!p) return Calls{make_error(Code::Internal, "not built"), -1};
  std::vector<double> a = input(n, m);
  b.assign(a.size(), -1.0);
  std::map<std::string, ArgValue> values{{"A", ArgValue::pointer(a.data())},
                                         {"B", ArgValue::pointer(b.data())},
                                         {"N", ArgValue::scalar<int64_t>(n)},
                                         {"M", ArgValue::scalar<int64_t>(m)}};
  if (l) values.emplace("L", ArgValue::scalar<int64_t>(*l));
  return call_three_times(*p, arguments, values);
}

// 40 rows of 1000 doubles (8 KB: a heap block, not a stack slot) over two pieces: two blocks
// per call instead of 40.
TEST(CodegenScopeBlockReuse, ParallelMapAllocatesOneRowBufferPerPiece) {
  auto g = reversed_rows(ir::ScheduleType::CPU_Multicore, "M");
  const int64_t n = 40, m = 1000;
  std::vector<double> b;
  Calls c = run_rows(*g, n, m, b);
  ASSERT_TRUE(c.status.ok()) << c.status.error().message;
  EXPECT_EQ(c.blocks_per_call, 2);
  EXPECT_EQ(b, expected_reversed(input(n, m), n, m));
}

// A sequential map (here at the top level of the function) keeps one block for all rows.
TEST(CodegenScopeBlockReuse, SequentialMapAllocatesOneRowBuffer) {
  auto g = reversed_rows(ir::ScheduleType::Sequential, "M");
  const int64_t n = 9, m = 700;
  std::vector<double> b;
  Calls c = run_rows(*g, n, m, b);
  ASSERT_TRUE(c.status.ok()) << c.status.error().message;
  EXPECT_EQ(c.blocks_per_call, 1);
  EXPECT_EQ(b, expected_reversed(input(n, m), n, m));
}

// A size that fails its checks (L = -2) is reported with the container's name, as for a
// block allocated per row, from the parallel map; the program stays callable. With no rows
// there is no scope instance, so no block is asked for and nothing is reported (the block
// is taken by the first instance that needs it, never ahead of it).
TEST(CodegenScopeBlockReuse, BadSizeIsReportedOnlyWhenARowRuns) {
  auto g = reversed_rows(ir::ScheduleType::CPU_Multicore, "L");
  std::vector<double> b;
  Calls c = run_rows(*g, 6, 3, b, -2);
  ASSERT_FALSE(c.status.ok());
  EXPECT_NE(c.status.error().message.find("\"tmp\""), std::string::npos) << c.status.error().message;
  EXPECT_NE(c.status.error().message.find("negative extent"), std::string::npos) << c.status.error().message;
  Calls none = run_rows(*g, 0, 3, b, -2);
  ASSERT_TRUE(none.status.ok()) << none.status.error().message;
  EXPECT_EQ(none.blocks_per_call, 0);
}

// for i in 0:N (parallel): acc (K elements, setzero) gets acc[j % K] += A[i, j] for j in 0:M;
// C[i, k] = acc[k]. Each row must start from zeros although its block held the previous
// row's sums.
TEST(CodegenScopeBlockReuse, SetzeroContainerIsZeroedForEveryRow) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "row_bins";
  for (const char* n : {"N", "M", "K"}) g->symbols[n] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "M"});
  add_array(*g, "C", T::Float64, {"N", "K"});
  add_array(*g, "acc", T::Float64, {"K"}, true);
  ir::State& s = add_state(*g, *g, "s");
  auto [oe, ox] = map(s, {"i"}, "0:N", ir::ScheduleType::CPU_Multicore);
  auto [e1, x1] = map(s, {"j"}, "0:M");
  const int t1 = tasklet(s, "o = a", {"a"}, {"o"});
  in_through_two_entries(s, access(s, "A"), oe, e1, t1, "A", "A[0:N, 0:M]", "A[i, 0:M]", "A[i, j]");
  const int acc = access(s, "acc");
  static_cast<ir::AccessNode*>(s.node(acc))->setzero = true;
  edge_out(s, t1, "o", x1, acc, "acc[j % K]", "acc[0:K]", "lambda a, b: a + b");
  auto [e2, x2] = map(s, {"k"}, "0:K");
  const int t2 = tasklet(s, "o = a", {"a"}, {"o"});
  edge_in(s, acc, e2, t2, "a", "acc[0:K]", "acc[k]");
  out_through_two_exits(s, t2, x2, ox, "C", "C[i, k]", "C[i, 0:K]", "C[0:N, 0:K]");

  const int64_t n = 10, m = 1500, k = 600;  // K * 8 bytes: above the stack-slot limit
  std::vector<analysis::Argument> arguments;
  std::unique_ptr<jit::Program> p = build(*g, arguments);
  ASSERT_TRUE(p);
  std::vector<double> a = input(n, m), c(static_cast<size_t>(n * k), -1.0);
  Calls r = call_three_times(*p, arguments,
                             {{"A", ArgValue::pointer(a.data())},
                              {"C", ArgValue::pointer(c.data())},
                              {"N", ArgValue::scalar<int64_t>(n)},
                              {"M", ArgValue::scalar<int64_t>(m)},
                              {"K", ArgValue::scalar<int64_t>(k)}});
  ASSERT_TRUE(r.status.ok()) << r.status.error().message;
  EXPECT_EQ(r.blocks_per_call, 2);
  std::vector<double> want(c.size(), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j) want[static_cast<size_t>(i * k + j % k)] += a[static_cast<size_t>(i * m + j)];
  EXPECT_EQ(c, want);
}

}  // namespace
}  // namespace dace::codegen::testing
