// StripMining on hand-built maps: each tiling type splits one dimension into a tile map and a
// sequential map over one tile, and the results stay those of plain C++ loops for sizes that
// divide the tile and sizes that do not. Refusals: strides other than the tile, strided
// tiles, NumberOfTiles on a dimension not starting at 0, a tile not a multiple of the step,
// an out-of-range dim_idx.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/sdfg.h"
#include "transform/map_utils.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

// map i, j in `ranges`: B[i, j] = A[i, j] * 2 + 1 (A, B of N x M)
std::unique_ptr<ir::SDFG> map2d(const std::string& ranges) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "sm";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "M"});
  add_array(*g, "B", T::Float64, {"N", "M"});
  ir::State& s = add_state(*g, *g, "s");
  auto [me, mx] = map(s, {"i", "j"}, ranges);
  const int t = tasklet(s, "y = a * 2 + 1", {"a"}, {"y"});
  edge_in(s, access(s, "A"), me, t, "a", "A[0:N, 0:M]", "A[i, j]");
  edge_out(s, t, "y", mx, access(s, "B"), "B[i, j]", "B[0:N, 0:M]");
  return g;
}

// Runs `g` at N x M and compares B with the C++ loops over the same ranges (`lo_i`..`hi_i`
// exclusive, step `step_i`; j over all of M); untouched elements keep -1.
void expect_loops(const ir::SDFG& g, int64_t N, int64_t M, int64_t lo_i, int64_t hi_i, int64_t step_i) {
  std::vector<double> a(static_cast<size_t>(N * M)), b(a.size(), -1), want(a.size(), -1);
  for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<double>(k) * 0.5 - 3;
  for (int64_t i = lo_i; i < hi_i; i += step_i)
    for (int64_t j = 0; j < M; ++j) want[static_cast<size_t>(i * M + j)] = a[static_cast<size_t>(i * M + j)] * 2 + 1;
  run_sdfg(g, {{"A", &a}, {"B", &b}}, {{"N", N}, {"M", M}});
  EXPECT_EQ(b, want) << "N = " << N << ", M = " << M;
}

std::unique_ptr<Transformation> strip(const std::string& json) {
  std::unique_ptr<Transformation> t = make_transformation("StripMining");
  EXPECT_TRUE(t->properties().set_from_json(json).ok()) << json;
  return t;
}

bool apply_with(ir::SDFG& g, Transformation& t) {
  AnalysisManager am;
  Result<std::optional<Match>> m = apply_first(g, t, am);
  EXPECT_TRUE(m.ok()) << m.error().message;
  if (!m.ok() || !*m) return false;
  Status v = analysis::validate(g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return true;
}

const ir::MapEntry* map_with_param(const ir::SDFG& g, const std::string& p) {
  for (const ir::State* s : g.all_states())
    for (int id : s->node_ids())
      if (const ir::MapEntry* e = transform::as_map_entry(s->node(id)))
        if (!e->map.params.empty() && e->map.params[0] == p) return e;
  return nullptr;
}

std::string refusal(ir::SDFG& g, Transformation& t) {
  AnalysisManager am;
  std::string why;
  for (const Match& m : t.enumerate(g, am)) {
    EXPECT_FALSE(t.can_be_applied(g, m, am));
    why += t.why_not() + "\n";
  }
  return why;
}

TEST(TransformStripMining, NormalTilesTheLastDimension) {
  for (int64_t M : {1, 8, 13, 37}) {
    std::unique_ptr<ir::SDFG> g = map2d("0:N, 0:M");
    std::unique_ptr<Transformation> t = strip(R"({"tile_size": "8"})");
    ASSERT_TRUE(apply_with(*g, *t)) << t->why_not();
    const ir::MapEntry* outer = map_with_param(*g, "tile_j");
    const ir::MapEntry* inner = map_with_param(*g, "i");
    ASSERT_TRUE(outer && inner);
    EXPECT_EQ(sym::to_string(outer->map.range.dims[0].step), "8");
    EXPECT_EQ(inner->map.schedule, ir::ScheduleType::Sequential);
    EXPECT_EQ(sym::to_string(inner->map.range.dims[1].end), "Min(M - 1, tile_j + 7)");
    expect_loops(*g, 3, M, 0, 3, 1);
  }
}

TEST(TransformStripMining, FirstDimensionStepTwoAndDividesEvenly) {
  // i = 1:N:2 with tiles of 4: tiles start at 1, 5, 9, ...
  std::unique_ptr<ir::SDFG> g = map2d("1:N:2, 0:M");
  std::unique_ptr<Transformation> t = strip(R"({"dim_idx": 0, "tile_size": "4"})");
  ASSERT_TRUE(apply_with(*g, *t)) << t->why_not();
  for (int64_t N : {2, 9, 12}) expect_loops(*g, N, 3, 1, N, 2);
  // divides_evenly: no Min, right when 8 divides M.
  std::unique_ptr<ir::SDFG> h = map2d("0:N, 0:M");
  std::unique_ptr<Transformation> u = strip(R"({"tile_size": "8", "divides_evenly": true})");
  ASSERT_TRUE(apply_with(*h, *u));
  EXPECT_EQ(sym::to_string(map_with_param(*h, "i")->map.range.dims[1].end), "tile_j + 7");
  expect_loops(*h, 2, 16, 0, 2, 1);
}

TEST(TransformStripMining, CeilRangeCountsTiles) {
  std::unique_ptr<ir::SDFG> g = map2d("2:N, 0:M");
  std::unique_ptr<Transformation> t = strip(R"({"dim_idx": 0, "tile_size": "4", "tiling_type": "CeilRange"})");
  ASSERT_TRUE(apply_with(*g, *t)) << t->why_not();
  const ir::MapEntry* outer = map_with_param(*g, "tile_i");
  ASSERT_TRUE(outer);
  EXPECT_EQ(sym::to_string(outer->map.range.dims[0].start), "0");
  for (int64_t N : {3, 6, 11, 14}) expect_loops(*g, N, 2, 2, N, 1);
}

TEST(TransformStripMining, NumberOfTilesSplitsTheRange) {
  std::unique_ptr<ir::SDFG> g = map2d("0:N, 0:M");
  std::unique_ptr<Transformation> t = strip(R"({"dim_idx": 0, "tile_size": "3", "tiling_type": "NumberOfTiles"})");
  ASSERT_TRUE(apply_with(*g, *t)) << t->why_not();
  const ir::MapEntry* outer = map_with_param(*g, "tile_i");
  ASSERT_TRUE(outer);
  EXPECT_EQ(sym::to_string(outer->map.range.dims[0].end), "2");
  for (int64_t N : {1, 2, 3, 10, 11}) expect_loops(*g, N, 2, 0, N, 1);
}

TEST(TransformStripMining, SkewStartsTheInnerRangeAtZero) {
  std::unique_ptr<ir::SDFG> g = map2d("0:N, 0:M");
  std::unique_ptr<Transformation> t = strip(R"({"tile_size": "4", "skew": true})");
  ASSERT_TRUE(apply_with(*g, *t)) << t->why_not();
  EXPECT_EQ(sym::to_string(map_with_param(*g, "i")->map.range.dims[1].start), "0");
  for (int64_t M : {3, 9}) expect_loops(*g, 2, M, 0, 2, 1);
}

TEST(TransformStripMining, RefusesWhatWouldChangeResults) {
  struct Case {
    const char* ranges;
    const char* props;
    const char* why;
  };
  const Case cases[] = {
      {"0:N, 0:M", R"({"tile_size": "4", "tile_stride": "3"})", "tile_stride 3 differs"},
      {"0:N, 0:M", R"({"tile_size": "4", "tiling_type": "CeilRange", "strided": true})", "strided tiles"},
      {"1:N, 0:M", R"({"dim_idx": 0, "tile_size": "2", "tiling_type": "NumberOfTiles"})", "does not start at 0"},
      {"0:N:2, 0:M", R"({"dim_idx": 0, "tile_size": "3"})", "not a multiple of the step 2"},
      {"0:N, 0:M", R"({"dim_idx": 2})", "dim_idx 2 is out of range"},
      {"0:N, 0:M", R"({"tile_offset": "1"})", "tile_offset"},
      {"0:N, 0:M", R"({"tiling_type": "Diagonal"})", "unknown tiling_type"},
  };
  for (const Case& c : cases) {
    std::unique_ptr<ir::SDFG> g = map2d(c.ranges);
    std::unique_ptr<Transformation> t = strip(c.props);
    const std::string why = refusal(*g, *t);
    EXPECT_NE(why.find(c.why), std::string::npos) << c.props << ": " << why;
  }
}

}  // namespace
}  // namespace dace::transform::testing
