// MapExpansion, MapInterchange, MapTiling and MapFusionHorizontal on hand-built SDFGs: the
// results after each transformation are compared with plain C++ loops (odd sizes for tiling,
// symbolic extents, 3-D maps, WCR outputs); illegal patterns are refused with a reason.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/json/sdfg_json.h"
#include "transform/history.h"
#include "transform/replay.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;  // builder helpers
using codegen::testing::tasklet;  // not the dace::tasklet namespace
using T = ir::ScalarType;
const char* kSum = "lambda a, b: a + b";

// Applies `name` with `props` (JSON) at its first legal match.
std::optional<Match> apply_with(ir::SDFG& g, const std::string& name, const std::string& props) {
  std::unique_ptr<Transformation> t = make_transformation(name);
  EXPECT_TRUE(t);
  if (!t) return std::nullopt;
  Status p = t->properties().set_from_json(props);
  EXPECT_TRUE(p.ok()) << p.error().message;
  AnalysisManager am;
  Result<std::optional<Match>> m = apply_first(g, *t, am);
  EXPECT_TRUE(m.ok()) << m.error().message;
  if (!m.ok()) return std::nullopt;
  Status v = analysis::validate(g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return *m;
}

// Refusal reasons when `name` with `props` applies nowhere; "APPLIES" when it does.
std::string refusals(ir::SDFG& g, const std::string& name, const std::string& props = "{}") {
  std::unique_ptr<Transformation> t = make_transformation(name);
  EXPECT_TRUE(t->properties().set_from_json(props).ok());
  AnalysisManager am;
  std::string why;
  for (const Match& m : t->enumerate(g, am)) {
    if (t->can_be_applied(g, m, am)) return "APPLIES";
    why += t->why_not() + "\n";
  }
  return why;
}

ir::State& state0(ir::SDFG& g) { return *static_cast<ir::State*>(g.block(0)); }

std::vector<const ir::MapEntry*> map_entries(ir::SDFG& g) {
  std::vector<const ir::MapEntry*> out;
  ir::State& s = state0(g);
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::MapEntry) out.push_back(static_cast<const ir::MapEntry*>(s.node(id)));
  return out;
}

std::vector<double> ramp(size_t n, double scale) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * static_cast<double>(i % 23) - 4;
  return v;
}

// B[i, j, k] = A[i, j, k] * 2 + 1 over one 3-D map i = 0:N, j = 0:M, k = 0:K.
std::unique_ptr<ir::SDFG> map3d(const std::string& ranges = "0:N, 0:M, 0:K") {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "map3d";
  for (const char* n : {"N", "M", "K"}) g->symbols[n] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "M", "K"});
  add_array(*g, "B", T::Float64, {"N", "M", "K"});
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i", "j", "k"}, ranges);
  int t = tasklet(s, "b = a * 2 + 1", {"a"}, {"b"});
  edge_in(s, access(s, "A"), entry, t, "a", "A[0:N, 0:M, 0:K]", "A[i, j, k]");
  edge_out(s, t, "b", exit, access(s, "B"), "B[i, j, k]", "B[0:N, 0:M, 0:K]");
  return g;
}

void check_map3d(ir::SDFG& g, int64_t n, int64_t m, int64_t k) {
  const size_t total = static_cast<size_t>(n * m * k);
  std::vector<double> a = ramp(total, 0.5), b(total, 0), expect(total);
  for (size_t x = 0; x < total; ++x) expect[x] = a[x] * 2 + 1;
  run_sdfg(g, {{"A", &a}, {"B", &b}}, {{"N", n}, {"M", m}, {"K", k}});
  EXPECT_EQ(b, expect);
}

// s[i] = sum over j of A[i, j], the sum written through a WCR edge of a map (i, j).
std::unique_ptr<ir::SDFG> row_sums() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "row_sums";
  for (const char* n : {"N", "M"}) g->symbols[n] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "M"});
  add_array(*g, "S", T::Float64, {"N"});
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i", "j"}, "0:N, 0:M");
  int t = tasklet(s, "o = a", {"a"}, {"o"});
  edge_in(s, access(s, "A"), entry, t, "a", "A[0:N, 0:M]", "A[i, j]");
  edge_out(s, t, "o", exit, access(s, "S"), "S[i]", "S[0:N]", kSum);
  return g;
}

void check_row_sums(ir::SDFG& g, int64_t n, int64_t m) {
  std::vector<double> a = ramp(static_cast<size_t>(n * m), 0.25), sums(static_cast<size_t>(n), 1), expect(sums);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j) expect[static_cast<size_t>(i)] += a[static_cast<size_t>(i * m + j)];
  run_sdfg(g, {{"A", &a}, {"S", &sums}}, {{"N", n}, {"M", m}});
  EXPECT_EQ(sums, expect);
}

// ---- MapExpansion ----

TEST(TransformMapExpansion, ThreeDimensionalMapBecomesThreeNestedMaps) {
  auto g = map3d();
  ASSERT_TRUE(apply_once(*g, "MapExpansion"));
  auto maps = map_entries(*g);
  ASSERT_EQ(maps.size(), 3u);
  ir::State& s = state0(*g);
  ScopeTree scopes = ScopeTree::compute(s);
  // Outermost i (original schedule), then j, then k (Sequential, DaCe's default).
  for (int id : s.node_ids()) {
    if (s.node(id)->kind != ir::NodeKind::MapEntry) continue;
    const auto& m = static_cast<const ir::MapEntry*>(s.node(id))->map;
    ASSERT_EQ(m.params.size(), 1u);
    int depth = 0;
    for (int p = scopes.parent[static_cast<size_t>(id)]; p >= 0; p = scopes.parent[static_cast<size_t>(p)]) ++depth;
    EXPECT_EQ(m.params[0], std::string(1, "ijk"[depth]));
    EXPECT_EQ(m.schedule, depth == 0 ? ir::ScheduleType::Default : ir::ScheduleType::Sequential);
  }
  check_map3d(*g, 3, 5, 7);
  EXPECT_EQ(refusals(*g, "MapExpansion").find("APPLIES"), std::string::npos);
}

TEST(TransformMapExpansion, ExpansionLimitKeepsTheRestTogether) {
  auto g = map3d();
  ASSERT_TRUE(apply_with(*g, "MapExpansion", R"({"expansion_limit": 1, "inner_schedule": null})"));
  auto maps = map_entries(*g);
  ASSERT_EQ(maps.size(), 2u);
  EXPECT_EQ(maps[0]->map.params, std::vector<std::string>{"i"});
  EXPECT_EQ(maps[1]->map.params, (std::vector<std::string>{"j", "k"}));
  EXPECT_EQ(maps[1]->map.schedule, ir::ScheduleType::Default);  // null: the original schedule
  check_map3d(*g, 4, 3, 6);
}

TEST(TransformMapExpansion, KeepsWcrOutputs) {
  auto g = row_sums();
  ASSERT_TRUE(apply_once(*g, "MapExpansion"));
  EXPECT_EQ(map_entries(*g).size(), 2u);
  ir::State& s = state0(*g);
  for (int e : s.edge_ids())  // every edge towards S carries the sum
    if (s.edge(e)->memlet.data == "S") {
      EXPECT_EQ(s.edge(e)->memlet.wcr, kSum);
    }
  check_row_sums(*g, 5, 9);
}

TEST(TransformMapExpansion, RefusesOneDimensionalMaps) {
  auto g = map3d();
  ASSERT_TRUE(apply_once(*g, "MapExpansion"));
  EXPECT_NE(refusals(*g, "MapExpansion").find("has a single parameter"), std::string::npos);
}

// ---- MapInterchange ----

// Nested maps i = 0:N (outer), j = inner_range; B[i, j] = A[i, j] + 1, or with `wcr` the
// row sums S[i] += A[i, j].
std::unique_ptr<ir::SDFG> nested(const std::string& inner_range, bool wcr) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "nested";
  for (const char* n : {"N", "M"}) g->symbols[n] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "M"});
  add_array(*g, "B", T::Float64, {"N", "M"});
  add_array(*g, "S", T::Float64, {"N"});
  ir::State& s = add_state(*g, *g, "s");
  auto [outer, outer_exit] = map(s, {"i"}, "0:N");
  auto [inner, inner_exit] = map(s, {"j"}, inner_range);
  int t = tasklet(s, "b = a + 1", {"a"}, {"b"});
  const std::string out = wcr ? "S" : "B";
  s.node(outer)->in_connectors["IN_A"] = s.node(inner)->in_connectors["IN_A"] = ir::DType{};
  s.node(outer)->out_connectors["OUT_A"] = s.node(inner)->out_connectors["OUT_A"] = ir::DType{};
  for (int n : {outer_exit, inner_exit}) {
    s.node(n)->in_connectors["IN_" + out] = ir::DType{};
    s.node(n)->out_connectors["OUT_" + out] = ir::DType{};
  }
  edge(s, access(s, "A"), "", outer, "IN_A", "A[0:N, 0:M]");
  edge(s, outer, "OUT_A", inner, "IN_A", "A[i, 0:M]");
  edge(s, inner, "OUT_A", t, "a", "A[i, j]");
  const std::string w = wcr ? kSum : "";
  edge(s, t, "b", inner_exit, "IN_" + out, wcr ? "S[i]" : "B[i, j]", w);
  edge(s, inner_exit, "OUT_" + out, outer_exit, "IN_" + out, wcr ? "S[i]" : "B[i, 0:M]", w);
  edge(s, outer_exit, "OUT_" + out, access(s, out), "", wcr ? "S[0:N]" : "B[0:N, 0:M]", w);
  return g;
}

TEST(TransformMapInterchange, SwapsPerfectlyNestedMaps) {
  auto g = nested("0:M", false);
  std::optional<Match> m = apply_once(*g, "MapInterchange");
  ASSERT_TRUE(m);
  ir::State& s = state0(*g);
  ScopeTree scopes = ScopeTree::compute(s);
  // The matched outer node (parameter i) now sits inside the j map, as in DaCe.
  const int i_map = m->subgraph[0], j_map = m->subgraph[1];
  EXPECT_EQ(static_cast<const ir::MapEntry*>(s.node(i_map))->map.params, std::vector<std::string>{"i"});
  EXPECT_EQ(scopes.parent[static_cast<size_t>(i_map)], j_map);
  EXPECT_EQ(scopes.parent[static_cast<size_t>(j_map)], -1);
  // Between the maps: one column over all i.
  for (int e : s.out_edges(j_map)) EXPECT_EQ(ir::to_string(s.edge(e)->memlet), "A[0:N, j]");
  const int64_t n = 6, mm = 11;
  std::vector<double> a = ramp(static_cast<size_t>(n * mm), 1.5), b(a.size(), 0), expect(a.size());
  for (size_t x = 0; x < a.size(); ++x) expect[x] = a[x] + 1;
  std::vector<double> sums(static_cast<size_t>(n), 0);
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"S", &sums}}, {{"N", n}, {"M", mm}});
  EXPECT_EQ(b, expect);
}

TEST(TransformMapInterchange, KeepsWcrOutputs) {
  auto g = nested("0:M", true);
  ASSERT_TRUE(apply_once(*g, "MapInterchange"));
  const int64_t n = 7, m = 5;
  std::vector<double> a = ramp(static_cast<size_t>(n * m), 0.75), b(a.size(), 0), sums(static_cast<size_t>(n), 2);
  std::vector<double> expect = sums;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j) expect[static_cast<size_t>(i)] += a[static_cast<size_t>(i * m + j)] + 1;
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"S", &sums}}, {{"N", n}, {"M", m}});
  EXPECT_EQ(sums, expect);
}

TEST(TransformMapInterchange, RefusesAnInnerRangeThatDependsOnTheOuterParameter) {
  auto g = nested("0:i + 1", false);  // triangular: j's range needs i
  std::string why = refusals(*g, "MapInterchange");
  EXPECT_NE(why.find("depends on outer parameter \"i\""), std::string::npos) << why;
}

TEST(TransformMapInterchange, RefusesImperfectNesting) {
  auto g = nested("0:M", false);
  ir::State& s = state0(*g);
  // A second tasklet directly in the outer scope: it cannot follow the i map inside.
  int t = tasklet(s, "c = 3", {}, {"c"});
  edge(s, 0, "", t, "", "");
  s.node(1)->in_connectors["IN_S"] = ir::DType{};
  s.node(1)->out_connectors["OUT_S"] = ir::DType{};
  edge(s, t, "c", 1, "IN_S", "S[i]");
  edge(s, 1, "OUT_S", access(s, "S"), "", "S[0:N]");
  std::string why = refusals(*g, "MapInterchange");
  EXPECT_NE(why.find("feeds a node other than the inner map"), std::string::npos) << why;
}

// ---- MapTiling ----

// B[i] = A[i] * 3 - 1 over i = range (1-D, symbolic N).
std::unique_ptr<ir::SDFG> map1d(const std::string& range = "0:N") {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "map1d";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i"}, range);
  int t = tasklet(s, "b = a * 3 - 1", {"a"}, {"b"});
  edge_in(s, access(s, "A"), entry, t, "a", "A[0:N]", "A[i]");
  edge_out(s, t, "b", exit, access(s, "B"), "B[i]", "B[0:N]");
  return g;
}

// Runs map1d-shaped SDFGs: B[i] = A[i] * 3 - 1 for i in [lo, N) with the given step.
void check_map1d(ir::SDFG& g, int64_t n, int64_t lo = 0, int64_t step = 1) {
  std::vector<double> a = ramp(static_cast<size_t>(n), 0.5), b(static_cast<size_t>(n), -7), expect(b);
  for (int64_t i = lo; i < n; i += step) expect[static_cast<size_t>(i)] = a[static_cast<size_t>(i)] * 3 - 1;
  run_sdfg(g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  EXPECT_EQ(b, expect) << "N = " << n;
}

TEST(TransformMapTiling, OddSymbolicSizeIsExact) {
  auto g = map1d();
  ASSERT_TRUE(apply_with(*g, "MapTiling", R"({"tile_sizes": ["8"]})"));
  auto maps = map_entries(*g);
  ASSERT_EQ(maps.size(), 2u);
  const ir::MapEntry* outer = maps[0]->map.params[0] == "tile_i" ? maps[0] : maps[1];
  const ir::MapEntry* inner = outer == maps[0] ? maps[1] : maps[0];
  EXPECT_EQ(sym::to_string(outer->map.range), "0:N:8");
  EXPECT_EQ(inner->map.params, std::vector<std::string>{"i"});
  EXPECT_NE(sym::to_string(inner->map.range).find("Min"), std::string::npos) << sym::to_string(inner->map.range);
  for (int64_t n : {37, 8, 1, 64, 9}) check_map1d(*g, n);
}

TEST(TransformMapTiling, DividesEvenlyDropsTheMin) {
  auto g = map1d();
  ASSERT_TRUE(apply_with(*g, "MapTiling", R"({"tile_sizes": [8], "divides_evenly": true})"));
  for (const ir::MapEntry* m : map_entries(*g))
    EXPECT_EQ(sym::to_string(m->map.range).find("Min"), std::string::npos) << sym::to_string(m->map.range);
  check_map1d(*g, 32);
}

TEST(TransformMapTiling, StepTwoWithAMultipleTile) {
  auto g = map1d("1:N:2");
  ASSERT_TRUE(apply_with(*g, "MapTiling", R"({"tile_sizes": ["4"]})"));
  for (int64_t n : {37, 12, 3}) check_map1d(*g, n, 1, 2);
}

TEST(TransformMapTiling, RefusesATileThatIsNotAMultipleOfTheStep) {
  auto g = map1d("0:N:2");
  std::string why = refusals(*g, "MapTiling", R"({"tile_sizes": ["3"]})");
  EXPECT_NE(why.find("is not a multiple of its step 2"), std::string::npos) << why;
}

TEST(TransformMapTiling, ThreeDimensionsWithTheLastTileRepeating) {
  auto g = map3d();
  ASSERT_TRUE(apply_with(*g, "MapTiling", R"({"tile_sizes": ["4", "3"]})"));
  auto maps = map_entries(*g);
  ASSERT_EQ(maps.size(), 2u);
  const ir::MapEntry* outer = maps[0]->map.params[0] == "tile_i" ? maps[0] : maps[1];
  EXPECT_EQ(outer->map.params, (std::vector<std::string>{"tile_i", "tile_j", "tile_k"}));
  EXPECT_EQ(sym::to_string(outer->map.range), "0:N:4, 0:M:3, 0:K:3");
  check_map3d(*g, 9, 7, 5);
  check_map3d(*g, 4, 3, 3);
}

TEST(TransformMapTiling, WcrOutputsStayExact) {
  auto g = row_sums();
  ASSERT_TRUE(apply_with(*g, "MapTiling", R"({"tile_sizes": ["8", "3"]})"));
  check_row_sums(*g, 37, 11);
  check_row_sums(*g, 5, 2);
}

TEST(TransformMapTiling, TileOfOneMovesTheDimensionOut) {
  auto g = map3d();
  ASSERT_TRUE(apply_with(*g, "MapTiling", R"({"tile_sizes": ["1", "4", "4"]})"));
  auto maps = map_entries(*g);
  ASSERT_EQ(maps.size(), 2u);
  const ir::MapEntry* outer = maps[0]->map.params[0] == "i" ? maps[0] : maps[1];
  const ir::MapEntry* inner = outer == maps[0] ? maps[1] : maps[0];
  EXPECT_EQ(outer->map.params, (std::vector<std::string>{"i", "tile_j", "tile_k"}));
  EXPECT_EQ(inner->map.params, (std::vector<std::string>{"j", "k"}));
  check_map3d(*g, 3, 9, 5);
}

TEST(TransformMapTiling, TileSpanningTheDimensionOnlyWithTileTrivial) {
  auto g = map1d("0:8");
  std::string why = refusals(*g, "MapTiling", R"({"tile_sizes": ["8"]})");
  EXPECT_NE(why.find("nothing to tile"), std::string::npos) << why;
  ASSERT_TRUE(apply_with(*g, "MapTiling", R"({"tile_sizes": ["8"], "tile_trivial": true})"));
  EXPECT_EQ(map_entries(*g).size(), 2u);
  std::vector<double> a = ramp(10, 1.0), b(10, 0), expect(10, 0);
  for (size_t i = 0; i < 8; ++i) expect[i] = a[i] * 3 - 1;
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", 10}});
  EXPECT_EQ(b, expect);
}

TEST(TransformMapTiling, SkewStartsTilesAtZero) {
  auto g = map1d();
  ASSERT_TRUE(apply_with(*g, "MapTiling", R"({"tile_sizes": ["8"], "skew": true})"));
  for (const ir::MapEntry* m : map_entries(*g))
    if (m->map.params[0] == "i") {
      EXPECT_EQ(sym::as_integer(m->map.range.dims[0].start), 0);
    }
  for (int64_t n : {37, 16}) check_map1d(*g, n);
}

TEST(TransformMapTiling, RefusesStridesOtherThanTheTile) {
  auto g = map1d();
  std::string why = refusals(*g, "MapTiling", R"({"tile_sizes": ["8"], "strides": ["4"]})");
  EXPECT_NE(why.find("differs from its tile size"), std::string::npos) << why;
}

TEST(TransformMapTiling, PropertiesUseDaceNames) {
  std::unique_ptr<Transformation> t = make_transformation("MapTiling");
  ASSERT_TRUE(t->properties().set_from_json(R"({"tile_sizes": [8, "N"], "tile_offset": null})").ok());
  const std::string json = t->properties().to_json();
  EXPECT_NE(json.find(R"("tile_sizes":["8","N"])"), std::string::npos) << json;
  for (const char* key : {"prefix", "strides", "tile_offset", "divides_evenly", "tile_trivial", "skew"})
    EXPECT_NE(json.find(std::string("\"") + key + "\""), std::string::npos) << key;
  EXPECT_FALSE(t->properties().set_from_json(R"({"tile_sizes": [true]})").ok());
}

// ---- MapFusionHorizontal ----

// Map 1: B[i] = A[i] + 1 over i = 0:N; map 2: C[j] = A[j] * 2 over `second_range`. With
// `dependent`, map 2 reads B (its own access node, no path) instead of A.
std::unique_ptr<ir::SDFG> two_maps(const std::string& second_range, bool dependent) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "two_maps";
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const char* n : {"A", "B", "C"}) add_array(*g, n, T::Float64, {"N"});
  ir::State& s = add_state(*g, *g, "s");
  int a = access(s, "A");
  auto [e1, x1] = map(s, {"i"}, "0:N");
  int t1 = tasklet(s, "b = a + 1", {"a"}, {"b"});
  edge_in(s, a, e1, t1, "a", "A[0:N]", "A[i]");
  edge_out(s, t1, "b", x1, access(s, "B"), "B[i]", "B[0:N]");
  auto [e2, x2] = map(s, {"j"}, second_range);
  int t2 = tasklet(s, "c = a * 2", {"a"}, {"c"});
  if (dependent) edge_in(s, access(s, "B"), e2, t2, "a", "B[0:N]", "B[j]");
  else edge_in(s, a, e2, t2, "a", "A[0:N]", "A[j]");
  edge_out(s, t2, "c", x2, access(s, "C"), "C[j]", "C[0:N]");
  return g;
}

TEST(TransformMapFusionHorizontal, FusesIndependentMaps) {
  auto g = two_maps("0:N", false);
  ASSERT_TRUE(apply_once(*g, "MapFusionHorizontal"));
  auto maps = map_entries(*g);
  ASSERT_EQ(maps.size(), 1u);
  EXPECT_EQ(maps[0]->map.params, std::vector<std::string>{"i"});
  const int64_t n = 13;
  std::vector<double> a = ramp(n, 0.5), b(n, 0), c(n, 0), eb(n), ec(n);
  for (size_t i = 0; i < static_cast<size_t>(n); ++i) eb[i] = a[i] + 1, ec[i] = a[i] * 2;
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", n}});
  EXPECT_EQ(b, eb);
  EXPECT_EQ(c, ec);
}

TEST(TransformMapFusionHorizontal, RefusesAMapReadingWhatTheOtherWrites) {
  auto g = two_maps("0:N", true);
  std::string why = refusals(*g, "MapFusionHorizontal");
  EXPECT_NE(why.find("writes \"B\", which"), std::string::npos) << why;
}

TEST(TransformMapFusionHorizontal, RefusesMapsConnectedByAPath) {
  auto g = two_maps("0:N", false);
  ir::State& s = state0(*g);
  // B (written by map 1) -> empty edge -> map 2: map 2 must run after map 1.
  int b = -1;
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::Access && static_cast<ir::AccessNode*>(s.node(id))->data == "B") b = id;
  int e2 = -1;
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::MapEntry && static_cast<ir::MapEntry*>(s.node(id))->map.params[0] == "j") e2 = id;
  edge(s, b, "", e2, "", "");
  std::string why = refusals(*g, "MapFusionHorizontal");
  EXPECT_NE(why.find("a path leads from one map to the other"), std::string::npos) << why;
}

TEST(TransformMapFusionHorizontal, RefusesDifferentRanges) {
  auto g = two_maps("1:N", false);
  std::string why = refusals(*g, "MapFusionHorizontal");
  EXPECT_NE(why.find("differ"), std::string::npos) << why;
}

TEST(TransformMapFusionHorizontal, RefusesRenamingAParameterUsedInCode) {
  auto g = two_maps("0:N", false);
  ir::State& s = state0(*g);
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::Tasklet && s.node(id)->out_connectors.count("c"))
      static_cast<ir::Tasklet*>(s.node(id))->code.code = "c = a * j";
  std::string why = refusals(*g, "MapFusionHorizontal");
  EXPECT_NE(why.find("parameter \"j\" of the second map occurs in the code"), std::string::npos) << why;
}

TEST(TransformMapFusionHorizontal, ScopeFiltersFollowTheProperties) {
  auto g = two_maps("0:N", false);
  EXPECT_EQ(refusals(*g, "MapFusionHorizontal", R"({"only_toplevel_maps": true})"), "APPLIES");
  EXPECT_NE(refusals(*g, "MapFusionHorizontal", R"({"only_inner_maps": true})").find("only_inner_maps"),
            std::string::npos);
  // Both maps read the same access node of A: a common direct ancestor.
  EXPECT_EQ(refusals(*g, "MapFusionHorizontal", R"({"only_if_common_ancestor": true})"), "APPLIES");
}

TEST(TransformMapTiling, RefusesATileOffset) {
  auto g = map1d();
  std::string why = refusals(*g, "MapTiling", R"({"tile_sizes": ["8"], "tile_offset": ["2"]})");
  EXPECT_NE(why.find("tile_offset of dimension i is not 0"), std::string::npos) << why;
  EXPECT_EQ(refusals(*g, "MapTiling", R"({"tile_sizes": ["8"], "tile_offset": ["0"]})"), "APPLIES");
}

TEST(TransformMapTiling, SymbolicTileSize) {
  auto g = map1d();
  g->symbols["T"] = ir::DType::of(T::Int64);
  ASSERT_TRUE(apply_with(*g, "MapTiling", R"({"tile_sizes": ["T"]})"));
  for (int64_t tile : {1, 5, 37, 50}) {
    std::vector<double> a = ramp(37, 0.5), b(37, 0), expect(37);
    for (size_t i = 0; i < 37; ++i) expect[i] = a[i] * 3 - 1;
    run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", 37}, {"T", tile}});
    EXPECT_EQ(b, expect) << "T = " << tile;
  }
}

TEST(TransformMapTiling, HistoryEntryReplaysToTheSameBytes) {
  auto g = map3d();
  auto fresh = g->clone_sdfg();
  ASSERT_TRUE(apply_with(*g, "MapTiling", R"({"tile_sizes": ["4", "3"], "prefix": "blk"})"));
  std::vector<HistoryEntry> h = history_of(*g);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_NE(h[0].properties.find(R"("prefix":"blk")"), std::string::npos) << h[0].properties;
  AnalysisManager am;
  Status r = replay(*fresh, h, am);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(ir::json::write_sdfg(*fresh), ir::json::write_sdfg(*g));
}

}  // namespace
}  // namespace dace::transform::testing
