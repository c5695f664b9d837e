// ArrayElimination's removal of read views: `A -> V (A[1:N-1]) -> map` reads A directly with
// offset memlets, checked against a C++ loop; a view whose strides differ from its array's
// (a reshape) is kept.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "transform/array_elimination.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;  // not the dace::tasklet namespace
using T = ir::ScalarType;

// B[i] = V[i] * 3 over i in 0:N-2, V a view of A[1:N-1] with stride `stride`.
std::unique_ptr<ir::SDFG> program(const std::string& stride) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "views";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N - 2"});
  add_view(*g, "V", T::Float64, {"N - 2"}, {stride});
  ir::State& s = add_state(*g, *g, "s0");
  const int v = access(s, "V");
  s.node(v)->in_connectors["views"] = ir::DType{};  // DaCe marks the edge that defines a view
  edge(s, access(s, "A"), "", v, "views", "A[1:N - 1] -> [0:N - 2]");
  auto [entry, exit] = map(s, {"i"}, "0:N - 2");
  int t = tasklet(s, "y = x * 3", {"x"}, {"y"});
  edge_in(s, v, entry, t, "x", "V[0:N - 2]", "V[i]");
  edge_out(s, t, "y", exit, access(s, "B"), "B[i]", "B[0:N - 2]");
  return g;
}

bool run_ae(ir::SDFG& g) {
  ArrayElimination p;
  AnalysisManager am;
  Result<bool> r = run_pass(g, p, am);
  EXPECT_TRUE(r.ok()) << r.error().message;
  Status v = analysis::validate(g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return r.ok() && *r;
}

TEST(TransformArrayElimination, RemovesAReadViewOfABlock) {
  auto g = program("1");
  const int64_t n = 6;
  std::vector<double> a{1, 2, 3, 4, 5, 6}, before(n - 2, 0), after(n - 2, 0);
  run_sdfg(*g, {{"A", &a}, {"B", &before}}, {{"N", n}});
  ASSERT_TRUE(run_ae(*g));
  EXPECT_EQ(g->arrays.count("V"), 0u);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::Access), 2);
  run_sdfg(*g, {{"A", &a}, {"B", &after}}, {{"N", n}});
  EXPECT_EQ(after, (std::vector<double>{6, 9, 12, 15}));
  EXPECT_EQ(after, before);
}

TEST(TransformArrayElimination, KeepsAViewWithOtherStrides) {
  auto g = program("2");
  EXPECT_FALSE(run_ae(*g));
  EXPECT_EQ(g->arrays.count("V"), 1u);
}

}  // namespace
}  // namespace dace::transform::testing
