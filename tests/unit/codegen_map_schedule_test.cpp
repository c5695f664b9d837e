// Which runtime schedule a CPU_Multicore map with DaCe's Default schedule gets
// (plugins/cpu/lowering/parallel_map.cpp, map_schedule): static blocks for a flat body, the
// dynamic schedule for coarse iterations (a body nesting loops of its own, a nested SDFG, a
// library call), and what the map names whenever it names a schedule or a chunk size.
#include <gtest/gtest.h>

#include <vector>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "parallel_for_calls.h"
#include "triangle_sdfg_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
constexpr int kStatic = 0, kDynamic = 1, kGuided = 2;

// B[i] = i over a one-dimensional CPU_Multicore map: one loop, nothing called.
std::unique_ptr<ir::SDFG> flat_map() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "flat";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "B", T::Int64, {"N"});
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i"}, "0:N", ir::ScheduleType::CPU_Multicore);
  int t = tasklet(s, "b = i", {}, {"b"});
  edge(s, entry, "", t, "", "");
  edge_out(s, t, "b", exit, access(s, "B"), "B[i]", "B[0:N]");
  return g;
}

// C[i, j] = i * 100 + j for j <= i: a parallel map over rows of uneven length, each row a
// sequential inner map (the body nests a loop of its own).
std::unique_ptr<ir::SDFG> triangle_rows(ir::OmpSchedule schedule, int64_t chunk) {
  TriangleSdfg tri = triangle_sdfg("triangle", ir::ScheduleType::CPU_Multicore, ir::ScheduleType::Sequential);
  auto& rows = static_cast<ir::MapEntry*>(tri.state->node(tri.outer_entry))->map;
  rows.omp_schedule = schedule;
  rows.omp_chunk_size = chunk;
  return std::move(tri.sdfg);
}

TEST(CodegenMapSchedule, FlatBodyKeepsStaticBlocks) {
  auto g = flat_map();
  ASSERT_TRUE(analysis::validate(*g).ok()) << analysis::validate(*g).error().message;
  const std::string ir = lower_with_cpu_schedules(*g);
  EXPECT_EQ(parallel_for_schedules(ir), std::vector<int>{kStatic});
  // No BLAS in the body: OpenBLAS's thread count is left alone.
  EXPECT_EQ(ir.find("dace_cpu_vendor_threads"), std::string::npos);
}

// Rows of uneven cost, each microseconds or more: pieces are handed out dynamically, so a
// helper that joins late or is preempted holds one small piece instead of half the rows.
// The result is the same (checked against the triangle written by hand).
TEST(CodegenMapSchedule, CoarseDefaultMapIsDynamic) {
  auto g = triangle_rows(ir::OmpSchedule::Default, 0);
  ASSERT_TRUE(analysis::validate(*g).ok()) << analysis::validate(*g).error().message;
  EXPECT_EQ(parallel_for_schedules(lower_with_cpu_schedules(*g)), std::vector<int>{kDynamic});

  const int64_t n = 37;
  std::vector<int64_t> c(n * n, -1);
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(parallel_for_schedules(p->ir), std::vector<int>{kDynamic});
  ASSERT_TRUE(run(*p, {{"C", ArgValue::pointer(c.data())}, {"N", ArgValue::scalar<int64_t>(n)}}).ok());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) ASSERT_EQ(c[i * n + j], j <= i ? i * 100 + j : -1) << i << ", " << j;
}

// A schedule or a chunk size the map names is kept, coarse body or not.
TEST(CodegenMapSchedule, NamedScheduleOrChunkIsKept) {
  struct Case {
    ir::OmpSchedule schedule;
    int64_t chunk;
    int expected;
  };
  for (const Case& c : {Case{ir::OmpSchedule::Static, 0, kStatic}, Case{ir::OmpSchedule::Default, 4, kStatic},
                        Case{ir::OmpSchedule::Guided, 0, kGuided}, Case{ir::OmpSchedule::Dynamic, 0, kDynamic}}) {
    auto g = triangle_rows(c.schedule, c.chunk);
    ASSERT_TRUE(analysis::validate(*g).ok()) << analysis::validate(*g).error().message;
    EXPECT_EQ(parallel_for_schedules(lower_with_cpu_schedules(*g)), std::vector<int>{c.expected})
        << "schedule " << static_cast<int>(c.schedule) << " chunk " << c.chunk;
  }
}

}  // namespace
}  // namespace dace::codegen::testing
