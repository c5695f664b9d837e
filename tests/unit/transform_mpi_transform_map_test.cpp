// MPITransformMap on hand-built maps: the structure DaCe 1.0.2 gives (an outer MPI map over
// tiles of N / __dace_comm_size, the original map Sequential over one tile, local copies
// trans_X in and out), results of the tiled program against plain C++ loops (the MPI maps
// run sequentially here, with __dace_comm_size a constant: every tile on one process; the
// MPI schedule itself is tested under mpirun, ctest mpi.map_schedule_np*), and refusals.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/sdfg.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

// B[i] = A[i] * 2 + 1 over `range` (the map `i`), as DaCe's frontend writes it.
std::unique_ptr<ir::SDFG> scale(const std::string& range, ir::ScheduleType schedule = ir::ScheduleType::Default,
                                const std::string& wcr = "") {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "scale";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  ir::State& s = add_state(*g, *g, "s");
  auto [me, mx] = map(s, {"i"}, range, schedule);
  const int t = tasklet(s, "b = a * 2 + 1", {"a"}, {"b"});
  edge_in(s, access(s, "A"), me, t, "a", "A[0:N]", "A[i]");
  edge_out(s, t, "b", mx, access(s, "B"), "B[i]", "B[0:N]", wcr);
  return g;
}

const ir::MapEntry* find_map(const ir::SDFG& g, ir::ScheduleType schedule) {
  for (const ir::State* st : g.all_states())
    for (int id : st->node_ids())
      if (st->node(id)->kind == ir::NodeKind::MapEntry) {
        const auto* e = static_cast<const ir::MapEntry*>(st->node(id));
        if (e->map.schedule == schedule) return e;
      }
  return nullptr;
}

// Runs MPI maps as loops with __dace_comm_size fixed to `ranks`: the tiles one after another.
void as_sequential_tiles(ir::SDFG& g, int64_t ranks) {
  for (ir::State* st : g.all_states())
    for (int id : st->node_ids())
      if (st->node(id)->kind == ir::NodeKind::MapEntry) {
        auto* e = static_cast<ir::MapEntry*>(st->node(id));
        if (e->map.schedule == ir::ScheduleType::MPI) e->map.schedule = ir::ScheduleType::Sequential;
      }
  g.symbols.erase("__dace_comm_size");
  g.constants["__dace_comm_size"] = ir::Constant{ir::DType::of(T::Int32), std::to_string(ranks)};
}

TEST(TransformMPITransformMap, StripMinesIntoAnMpiMapWithLocalCopies) {
  std::unique_ptr<ir::SDFG> g = scale("0:N");
  ASSERT_TRUE(apply_once(*g, "MPITransformMap"));
  const ir::MapEntry* outer = find_map(*g, ir::ScheduleType::MPI);
  const ir::MapEntry* inner = find_map(*g, ir::ScheduleType::Sequential);
  ASSERT_TRUE(outer && inner);
  EXPECT_EQ(outer->map.params, std::vector<std::string>{"mpi_i"});
  EXPECT_EQ(sym::to_string(outer->map.range.dims[0].end), "N - 1");
  EXPECT_EQ(sym::to_string(outer->map.range.dims[0].step), "N/__dace_comm_size");
  EXPECT_EQ(sym::to_string(inner->map.range.dims[0].start), "mpi_i");
  EXPECT_EQ(g->symbols.count("__dace_comm_size"), 1u);
  for (const char* x : {"trans_A", "trans_B"}) {
    ASSERT_TRUE(g->arrays.count(x)) << x;
    EXPECT_TRUE(g->arrays.at(x).transient);
    EXPECT_EQ(sym::to_string(g->arrays.at(x).shape[0]), "N/__dace_comm_size");
  }
  // A map already scheduled MPI is not transformed again.
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "MPITransformMap", &why));
  EXPECT_NE(why.find("already scheduled MPI"), std::string::npos) << why;
}

TEST(TransformMPITransformMap, TilesComputeWhatTheLoopComputes) {
  for (int64_t ranks : {1, 2, 4}) {
    SCOPED_TRACE("ranks " + std::to_string(ranks));
    std::unique_ptr<ir::SDFG> g = scale("0:N");
    ASSERT_TRUE(apply_once(*g, "MPITransformMap"));
    as_sequential_tiles(*g, ranks);
    const int64_t N = 12;
    std::vector<double> a(N), b(N, -5), want(N);
    for (int64_t i = 0; i < N; ++i) a[static_cast<size_t>(i)] = 0.5 * static_cast<double>(i) - 2;
    for (int64_t i = 0; i < N; ++i) want[static_cast<size_t>(i)] = a[static_cast<size_t>(i)] * 2 + 1;
    run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", N}});
    EXPECT_EQ(b, want);
  }
}

TEST(TransformMPITransformMap, ARangeNotStartingAtZero) {
  // i in [3, 11): 8 iterations, tile 8 / P; the tiles start at 3.
  std::unique_ptr<ir::SDFG> g = scale("3:11");
  ASSERT_TRUE(apply_once(*g, "MPITransformMap"));
  as_sequential_tiles(*g, 4);
  const int64_t N = 14;
  std::vector<double> a(N), b(N, -5), want(N, -5);
  for (int64_t i = 0; i < N; ++i) a[static_cast<size_t>(i)] = static_cast<double>(i * i) - 3;
  for (int64_t i = 3; i < 11; ++i) want[static_cast<size_t>(i)] = a[static_cast<size_t>(i)] * 2 + 1;
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", N}});
  EXPECT_EQ(b, want);
}

TEST(TransformMPITransformMap, Refusals) {
  struct Case {
    std::unique_ptr<ir::SDFG> g;
    const char* why;
  };
  std::vector<Case> cases;
  cases.push_back({scale("0:N:2"), "has step 2"});
  // DaCe would write the tile size as "(N - 1/__dace_comm_size)".
  cases.push_back({scale("1:N"), "a sum"});
  cases.push_back({scale("0:N", ir::ScheduleType::Default, "lambda a, b: a + b"), "WCR"});
  cases.push_back({scale("0:N", ir::ScheduleType::MPI), "already scheduled MPI"});
  for (Case& c : cases) {
    std::string why;
    EXPECT_FALSE(applies_anywhere(*c.g, "MPITransformMap", &why)) << c.why;
    EXPECT_NE(why.find(c.why), std::string::npos) << why;
  }
}

TEST(TransformMPITransformMap, RefusesTwoDimensionalAndNestedParallelMaps) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "two_d";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "N"});
  ir::State& s = add_state(*g, *g, "s");
  // A 2-D map, and a 1-D map inside a (2-D) CPU_Multicore map.
  auto [me, mx] = map(s, {"i", "j"}, "0:N, 0:N");
  const int t = tasklet(s, "a = 1", {}, {"a"});
  edge(s, me, "", t, "", "");
  edge_out(s, t, "a", mx, access(s, "A"), "A[i, j]", "A[0:N, 0:N]");
  auto [oe, ox] = map(s, {"k", "m"}, "0:N, 0:1", ir::ScheduleType::CPU_Multicore);
  auto [ie, ix] = map(s, {"l"}, "0:N");
  const int t2 = tasklet(s, "a = 2", {}, {"a"});
  edge(s, oe, "", ie, "", "");
  edge(s, ie, "", t2, "", "");
  s.node(ix)->in_connectors["IN_A"] = ir::DType{};
  s.node(ix)->out_connectors["OUT_A"] = ir::DType{};
  s.node(ox)->in_connectors["IN_A"] = ir::DType{};
  s.node(ox)->out_connectors["OUT_A"] = ir::DType{};
  edge(s, t2, "a", ix, "IN_A", "A[k, l]");
  edge(s, ix, "OUT_A", ox, "IN_A", "A[k, 0:N]");
  edge(s, ox, "OUT_A", access(s, "A"), "", "A[0:N, 0:N]");
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "MPITransformMap", &why));
  EXPECT_NE(why.find("is not one-dimensional"), std::string::npos) << why;
  EXPECT_NE(why.find("of schedule CPU_Multicore"), std::string::npos) << why;
}

}  // namespace
}  // namespace dace::transform::testing
