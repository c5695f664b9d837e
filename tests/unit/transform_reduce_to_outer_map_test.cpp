// ReduceToOuterMap and the auto_optimize pass ReductionsIntoRowMaps: a row-wise normalisation
// `S = sum(X, axis=1); R = X / S[:, None]` (the shape of softmax's last two steps), checked
// against C++ loops: the Reduce alone moves into a map over the rows; with the pass and
// MapFusion, everything becomes one map over rows. Refused (each would compute column sums
// over rows if applied): a reduction over the leading axis, and a full reduction.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "codegen_test_builder.h"
#include "ir/json/sdfg_json.h"
#include "ir/sdfg.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using T = ir::ScalarType;

constexpr int64_t kN = 6, kM = 37;

// X is N x M; S = reduce(X, axes) (a transient of N elements for axes [1]); then a map over
// (i, j): R[i, j] = X[i, j] / S[i]. With axes "[0]" S has M elements and the map divides by
// S[j]; with "null" S has one element.
// `divisor` replaces the map's read of S (default S[i] for axes [1]).
std::unique_ptr<ir::SDFG> normalise(const std::string& axes, const std::string& divisor = "") {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "row_normalise";
  for (const char* n : {"N", "M"}) g->symbols[n] = ir::DType::of(T::Int64);
  add_array(*g, "X", T::Float64, {"N", "M"});
  add_array(*g, "R", T::Float64, {"N", "M"});
  const std::string s_len = axes == "[1]" ? "N" : axes == "[0]" ? "M" : "1";
  add_array(*g, "S", T::Float64, {s_len}, true);
  ir::State& s = add_state(*g, *g, "s");
  auto n = std::make_unique<ir::LibraryNode>();
  n->name = n->label = "Reduce";
  n->classpath = "dace.libraries.standard.nodes.reduce.Reduce";
  n->properties["axes"] = axes;
  n->properties["wcr"] = "\"(lambda a, b: (a + b))\"";
  n->properties["identity"] = "0";
  n->in_connectors["_in"] = ir::DType{};
  n->out_connectors["_out"] = ir::DType{};
  const int red = s.add_node(std::move(n));
  const int xn = access(s, "X");
  edge(s, xn, "", red, "_in", "X[0:N, 0:M]");
  const int sn = access(s, "S");
  edge(s, red, "_out", sn, "", "S[0:" + s_len + "]");
  auto [e, x] = map(s, {"i", "j"}, "0:N, 0:M");
  const int t = codegen::testing::tasklet(s, "r = a / b", {"a", "b"}, {"r"});
  edge_in(s, xn, e, t, "a", "X[0:N, 0:M]", "X[i, j]");
  const std::string per = !divisor.empty() ? divisor : axes == "[1]" ? "S[i]" : axes == "[0]" ? "S[j]" : "S[0]";
  edge_in(s, sn, e, t, "b", "S[0:" + s_len + "]", per);
  edge_out(s, t, "r", x, access(s, "R"), "R[i, j]", "R[0:N, 0:M]");
  return g;
}

std::vector<double> input() {
  std::vector<double> v(static_cast<size_t>(kN * kM));
  for (size_t k = 0; k < v.size(); ++k) v[k] = 1.0 + std::fabs(std::sin(0.7 * static_cast<double>(k)));
  return v;
}

// R[i, j] = X[i, j] / sum_j X[i, j], summed in order as the Reduce does.
std::vector<double> expected_rows(const std::vector<double>& x) {
  std::vector<double> r(x.size());
  for (int64_t i = 0; i < kN; ++i) {
    double s = 0;
    for (int64_t j = 0; j < kM; ++j) s += x[static_cast<size_t>(i * kM + j)];
    for (int64_t j = 0; j < kM; ++j) r[static_cast<size_t>(i * kM + j)] = x[static_cast<size_t>(i * kM + j)] / s;
  }
  return r;
}

void expect_rows(const ir::SDFG& g) {
  std::vector<double> x = input(), r(x.size(), -1);
  run_sdfg(g, {{"X", &x}, {"R", &r}}, {{"N", kN}, {"M", kM}});
  const std::vector<double> want = expected_rows(input());
  for (size_t k = 0; k < r.size(); ++k) EXPECT_NEAR(r[k], want[k], 1e-12) << "at " << k;
}

// Map entries outside any scope.
int top_level_maps(const ir::SDFG& g) {
  const ir::State& s = *g.all_states().front();
  const std::vector<int> parents = s.scope_parents();
  int count = 0;
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::MapEntry && parents[static_cast<size_t>(id)] < 0) ++count;
  return count;
}

TEST(TransformReduceToOuterMap, ReduceOverTheLastAxisMovesIntoAMapOverRows) {
  auto g = normalise("[1]");
  ASSERT_TRUE(apply_once(*g, "ReduceToOuterMap"));
  EXPECT_EQ(top_level_maps(*g), 2);
  EXPECT_FALSE(applies_anywhere(*g, "ReduceToOuterMap"));  // the Reduce is inside a map now
  expect_rows(*g);
}

TEST(TransformReduceToOuterMap, PassAndMapFusionGiveOneMapOverRows) {
  auto g = normalise("[1]");
  std::unique_ptr<Pass> p = make_pass("ReductionsIntoRowMaps");
  ASSERT_TRUE(p);
  AnalysisManager am;
  Result<bool> changed = run_pass(*g, *p, am);
  ASSERT_TRUE(changed.ok()) << changed.error().message;
  EXPECT_TRUE(*changed);
  std::unique_ptr<Transformation> fuse = make_transformation("MapFusion");
  Result<int> n = apply_repeated(*g, *fuse, am);
  ASSERT_TRUE(n.ok()) << n.error().message;
  EXPECT_EQ(*n, 1);
  EXPECT_EQ(top_level_maps(*g), 1);
  EXPECT_EQ(g->arrays.count("S"), 0u);  // now one scalar per row inside the map
  expect_rows(*g);
}

TEST(TransformReduceToOuterMap, RefusedForLeadingAxesAndFullReductions) {
  for (const std::string axes : {"[0]", "null"}) {
    auto g = normalise(axes);
    std::string why;
    EXPECT_FALSE(applies_anywhere(*g, "ReduceToOuterMap", &why)) << axes;
    EXPECT_NE(why.find("Reduce"), std::string::npos) << why;
    std::unique_ptr<Pass> p = make_pass("ReductionsIntoRowMaps");
    AnalysisManager am;
    Result<bool> changed = run_pass(*g, *p, am);
    ASSERT_TRUE(changed.ok()) << changed.error().message;
    EXPECT_FALSE(*changed) << axes;
  }
}

ir::LibraryNode& reduce_of(ir::SDFG& g) {
  ir::State& s = *g.all_states().front();
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::Library) return static_cast<ir::LibraryNode&>(*s.node(id));
  throw std::runtime_error("no library node");
}

// MPI's Reduce has the same short name but reduces across ranks; a GPU Reduce or one on
// device memory would end up inside a host map. Each is refused (the MPI node is no match at
// all), naming why.
TEST(TransformReduceToOuterMap, RefusesAnMpiReduceAndDeviceReduces) {
  struct Case {
    const char* what;
    void (*edit)(ir::SDFG&);
    const char* reason;
  };
  const Case cases[] = {
      {"mpi", [](ir::SDFG& g) { reduce_of(g).classpath = "dace.libraries.mpi.nodes.reduce.Reduce"; }, nullptr},
      {"gpu schedule", [](ir::SDFG& g) { reduce_of(g).schedule = ir::ScheduleType::GPU_Device; }, "GPU_Device"},
      {"gpu implementation", [](ir::SDFG& g) { reduce_of(g).implementation = "CUDA (device)"; }, "CUDA (device)"},
      {"device input", [](ir::SDFG& g) { g.arrays.at("X").storage = ir::StorageType::GPU_Global; }, "GPU_Global"},
      {"device output", [](ir::SDFG& g) { g.arrays.at("S").storage = ir::StorageType::GPU_Global; }, "GPU_Global"},
  };
  for (const Case& c : cases) {
    auto g = normalise("[1]");
    c.edit(*g);
    std::string why;
    EXPECT_FALSE(applies_anywhere(*g, "ReduceToOuterMap", &why)) << c.what;
    if (c.reason) {
      EXPECT_NE(why.find(c.reason), std::string::npos) << c.what << ": " << why;
    }
  }
}

// A Reduce without identity adds to what its output held; after fusion that output is a
// fresh per-row scalar, so MapFusion must not fuse the map holding it with its reader. The
// pass, which keeps its steps only where that fusion follows, then changes nothing; the
// steps done by hand (the Reduce into a map over rows, the reader split into rows around
// columns) leave two maps over rows that MapFusion refuses, naming the Reduce.
TEST(TransformReduceToOuterMap, MapFusionRefusesAReduceWithoutIdentity) {
  auto g = normalise("[1]");
  reduce_of(*g).properties["identity"] = "null";
  std::unique_ptr<Pass> p = make_pass("ReductionsIntoRowMaps");
  AnalysisManager am;
  Result<bool> changed = run_pass(*g, *p, am);
  ASSERT_TRUE(changed.ok()) << changed.error().message;
  EXPECT_FALSE(*changed);
  ASSERT_TRUE(apply_once(*g, "ReduceToOuterMap"));
  ASSERT_TRUE(apply_once(*g, "MapExpansion"));
  EXPECT_EQ(top_level_maps(*g), 2);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "MapFusion", &why));
  EXPECT_NE(why.find("Reduce"), std::string::npos) << why;
}

// Whether any memlet inside a map scope resolves write conflicts, or a Reduce is inside one
// (it would update its output with one atomic per element in a parallel map).
bool conflict_updates_inside_maps(const ir::SDFG& g) {
  for (const ir::State* s : g.all_states()) {
    const std::vector<int> parents = s->scope_parents();
    for (int e : s->edge_ids()) {
      const ir::DataflowEdge* edge = s->edge(e);
      if (!edge->memlet.wcr.empty() && (parents[static_cast<size_t>(edge->src)] >= 0 ||
                                        s->node(edge->src)->kind == ir::NodeKind::MapExit))
        return true;
    }
    for (int id : s->node_ids())
      if (s->node(id)->kind == ir::NodeKind::Library && parents[static_cast<size_t>(id)] >= 0) return true;
  }
  return false;
}

// The reader divides row i by the sum of row N - 1 - i: a map over rows cannot hold both the
// Reduce of row i and that read, so MapFusion would refuse, and the Reduce would stay alone in
// a map over rows (run in parallel with an atomic update per element). The pass leaves the
// SDFG as it was (same bytes), auto_optimize's fusion steps after it find nothing with a
// Reduce inside a map or a conflict-resolving memlet inside one, and the result is the C++
// loops'.
TEST(TransformReduceToOuterMap, PassChangesNothingWhereFusionWouldNotFollow) {
  auto g = normalise("[1]", "S[N - 1 - i]");
  const std::string before = ir::json::write_sdfg(*g);
  std::unique_ptr<Pass> p = make_pass("ReductionsIntoRowMaps");
  AnalysisManager am;
  Result<bool> changed = run_pass(*g, *p, am);
  ASSERT_TRUE(changed.ok()) << changed.error().message;
  EXPECT_FALSE(*changed);
  EXPECT_EQ(ir::json::write_sdfg(*g), before);
  for (const char* props : {R"({"require_exclusive_intermediates": true})", "{}"}) {
    std::unique_ptr<Transformation> fuse = make_transformation("MapFusion");
    ASSERT_TRUE(fuse->properties().set_from_json(props).ok());
    ASSERT_TRUE(apply_repeated(*g, *fuse, am).ok());
  }
  EXPECT_FALSE(conflict_updates_inside_maps(*g));
  std::vector<double> x = input(), r(x.size(), -1);
  run_sdfg(*g, {{"X", &x}, {"R", &r}}, {{"N", kN}, {"M", kM}});
  std::vector<double> sums(static_cast<size_t>(kN), 0.0);
  for (int64_t i = 0; i < kN; ++i)
    for (int64_t j = 0; j < kM; ++j) sums[static_cast<size_t>(i)] += x[static_cast<size_t>(i * kM + j)];
  for (int64_t i = 0; i < kN; ++i)
    for (int64_t j = 0; j < kM; ++j)
      EXPECT_NEAR(r[static_cast<size_t>(i * kM + j)],
                  x[static_cast<size_t>(i * kM + j)] / sums[static_cast<size_t>(kN - 1 - i)], 1e-12);
}

}  // namespace
}  // namespace dace::transform::testing
