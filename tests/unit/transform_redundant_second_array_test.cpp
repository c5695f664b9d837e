// RedundantSecondArray on hand-built SDFGs: `tmp = A[block]; B = f(tmp)` becomes a direct read
// of A at the block (dimensions of size one dropped or added), checked against plain C++
// loops; refused for a second array written elsewhere, a non-transient, a reshaping copy, a
// copy with WCR and a write of the first array that a read could see.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;  // not the dace::tasklet namespace
using T = ir::ScalarType;

// tmp = A[1:N-1] (a copy), then B[i] = tmp[i] * 2 for i in 0:N-2.
std::unique_ptr<ir::SDFG> program(const std::string& copy = "A[1:N - 1] -> [0:N - 2]", const std::string& wcr = "") {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "second";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N - 2"});
  add_array(*g, "tmp", T::Float64, {"N - 2"}, true);
  ir::State& s = add_state(*g, *g, "s0");
  const int tmp = access(s, "tmp");
  edge(s, access(s, "A"), "", tmp, "", copy, wcr);
  auto [entry, exit] = map(s, {"i"}, "0:N - 2");
  int t = tasklet(s, "y = x * 2", {"x"}, {"y"});
  edge_in(s, tmp, entry, t, "x", "tmp[0:N - 2]", "tmp[i]");
  edge_out(s, t, "y", exit, access(s, "B"), "B[i]", "B[0:N - 2]");
  return g;
}

TEST(TransformRedundantSecondArray, ReadsTheCopiedBlockDirectly) {
  auto g = program();
  ASSERT_TRUE(apply_once(*g, "RedundantSecondArray"));
  EXPECT_EQ(g->arrays.count("tmp"), 0u);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::Access), 2);
  const int64_t n = 6;
  std::vector<double> a{1, 2, 3, 4, 5, 6}, b(n - 2, 0);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  std::vector<double> expect(n - 2);
  for (int64_t i = 0; i < n - 2; ++i) expect[i] = a[i + 1] * 2;
  EXPECT_EQ(b, expect);
}

// Inside a map: s = A[i] * 2 (a scalar), t = s (a scalar copy, as MapFusion leaves between
// per-iteration scalars), then a nested SDFG reads t: two scalars have no layout to differ in,
// so t goes and the nested SDFG reads s.
TEST(TransformRedundantSecondArray, ScalarCopyIntoANestedSDFG) {
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "inner";
  add_scalar(*inner, "x", T::Float64);
  add_scalar(*inner, "y", T::Float64);
  ir::State& is = add_state(*inner, *inner, "is");
  const int it = tasklet(is, "o = v + 1", {"v"}, {"o"});
  edge(is, access(is, "x"), "", it, "v", "x[0]");
  edge(is, it, "o", access(is, "y"), "", "y[0]");

  auto g = std::make_unique<ir::SDFG>();
  g->name = "second_scalar";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  add_scalar(*g, "s", T::Float64, true);
  add_scalar(*g, "t", T::Float64, true);
  ir::State& st = add_state(*g, *g, "s0");
  auto [entry, exit] = map(st, {"i"}, "0:N");
  const int mul = tasklet(st, "y = x * 2", {"x"}, {"y"});
  edge_in(st, access(st, "A"), entry, mul, "x", "A[0:N]", "A[i]");
  const int sn = access(st, "s"), tn = access(st, "t");
  edge(st, mul, "y", sn, "", "s[0]");
  edge(st, sn, "", tn, "", "s[0] -> [0]");
  auto nn = std::make_unique<ir::NestedSDFGNode>();
  nn->label = "inner";
  nn->in_connectors["x"] = ir::DType{};
  nn->out_connectors["y"] = ir::DType{};
  inner->parent_node = nn.get();
  nn->sdfg = std::move(inner);
  const int n = st.add_node(std::move(nn));
  edge(st, tn, "", n, "x", "t[0]");
  edge_out(st, n, "y", exit, access(st, "B"), "B[i]", "B[0:N]");

  ASSERT_TRUE(apply_once(*g, "RedundantSecondArray"));
  EXPECT_EQ(g->arrays.count("t"), 0u);
  EXPECT_EQ(g->arrays.count("s"), 1u);
  const int64_t len = 5;
  std::vector<double> a{1, -2, 3.5, 0, 7}, b(len, 0), want(len);
  for (int64_t i = 0; i < len; ++i) want[i] = a[i] * 2 + 1;
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", len}});
  EXPECT_EQ(b, want);
}

TEST(TransformRedundantSecondArray, DropsAndAddsDimensionsOfSizeOne) {
  // tmp[0:N, 0] = A[0:N, 2] (syrk's column slice, kept as a 2-D transient of width one), then
  // B[i] = tmp[i, 0] + 1.
  auto g = std::make_unique<ir::SDFG>();
  g->name = "squeeze";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "3"});
  add_array(*g, "B", T::Float64, {"N"});
  add_array(*g, "tmp", T::Float64, {"N", "1"}, true);
  ir::State& s = add_state(*g, *g, "s0");
  const int tmp = access(s, "tmp");
  edge(s, access(s, "A"), "", tmp, "", "A[0:N, 2] -> [0:N, 0]");
  auto [entry, exit] = map(s, {"i"}, "0:N");
  int t = tasklet(s, "y = x + 1", {"x"}, {"y"});
  edge_in(s, tmp, entry, t, "x", "tmp[0:N, 0]", "tmp[i, 0]");
  edge_out(s, t, "y", exit, access(s, "B"), "B[i]", "B[0:N]");
  ASSERT_TRUE(apply_once(*g, "RedundantSecondArray"));
  EXPECT_EQ(g->arrays.count("tmp"), 0u);
  const int64_t n = 4;
  std::vector<double> a(n * 3), b(n, 0), expect(n);
  for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<double>(k) * 0.5;
  for (int64_t i = 0; i < n; ++i) expect[i] = a[i * 3 + 2] + 1;
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  EXPECT_EQ(b, expect);
}

TEST(TransformRedundantSecondArray, RefusesASecondArrayWrittenElsewhere) {
  auto g = program();
  int s1 = 0;
  ir::State& second = add_state(*g, *g, "s1", &s1);
  edge(second, access(second, "A"), "", access(second, "tmp"), "", "A[0:N - 2] -> [0:N - 2]");
  add_interstate(*g, 0, s1);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "RedundantSecondArray", &why));
  EXPECT_NE(why.find("tmp has other access nodes"), std::string::npos) << why;

  // Also written in the same state, besides the copy.
  auto h = program();
  ir::State& s = *static_cast<ir::State*>(h->block(0));
  int t = tasklet(s, "y = 1", {}, {"y"});
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::Access && static_cast<ir::AccessNode*>(s.node(id))->data == "tmp")
      edge(s, t, "y", id, "", "tmp[0]");
  why.clear();
  EXPECT_FALSE(applies_anywhere(*h, "RedundantSecondArray", &why));
  EXPECT_NE(why.find("only edge into tmp"), std::string::npos) << why;
}

TEST(TransformRedundantSecondArray, RefusesANonTransient) {
  auto g = program();
  g->arrays["tmp"].transient = false;
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "RedundantSecondArray", &why));
  EXPECT_NE(why.find("tmp is not a transient"), std::string::npos) << why;
}

TEST(TransformRedundantSecondArray, RefusesAReshapingCopy) {
  // tmp[0:2, 0:H] = A[0:N] with N = 2 * H: the elements land in another arrangement.
  auto g = std::make_unique<ir::SDFG>();
  g->name = "reshape";
  g->symbols["H"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"2 * H"});
  add_array(*g, "B", T::Float64, {"2", "H"});
  add_array(*g, "tmp", T::Float64, {"2", "H"}, true);
  ir::State& s = add_state(*g, *g, "s0");
  const int tmp = access(s, "tmp");
  edge(s, access(s, "A"), "", tmp, "", "A[0:2 * H] -> [0:2, 0:H]");
  edge(s, tmp, "", access(s, "B"), "", "tmp[0:2, 0:H] -> [0:2, 0:H]");
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "RedundantSecondArray", &why));
  EXPECT_NE(why.find("extents"), std::string::npos) << why;
}

TEST(TransformRedundantSecondArray, RefusesACopyWithWCR) {
  auto g = program("A[1:N - 1] -> [0:N - 2]", "lambda a, b: a + b");
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "RedundantSecondArray", &why));
  EXPECT_NE(why.find("has a WCR"), std::string::npos) << why;
}

TEST(TransformRedundantSecondArray, RefusesWhenAReadCouldSeeAWriteOfTheFirstArray) {
  // tmp = A[0:N-1]; A[i + 1] = tmp[i]: the shift must read the old values. Reading A directly
  // in the map that writes A would race (run in order, it smears A[0] over the array).
  auto g = std::make_unique<ir::SDFG>();
  g->name = "shift";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "tmp", T::Float64, {"N - 1"}, true);
  ir::State& s = add_state(*g, *g, "s0");
  const int tmp = access(s, "tmp");
  edge(s, access(s, "A"), "", tmp, "", "A[0:N - 1] -> [0:N - 1]");
  auto [entry, exit] = map(s, {"i"}, "0:N - 1");
  int t = tasklet(s, "y = x", {"x"}, {"y"});
  edge_in(s, tmp, entry, t, "x", "tmp[0:N - 1]", "tmp[i]");
  edge_out(s, t, "y", exit, access(s, "A"), "A[i + 1]", "A[1:N]");
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "RedundantSecondArray", &why));
  EXPECT_NE(why.find("A is written in the state"), std::string::npos) << why;
  const int64_t n = 4;
  std::vector<double> a{1, 2, 3, 4};
  run_sdfg(*g, {{"A", &a}}, {{"N", n}});
  EXPECT_EQ(a, (std::vector<double>{1, 1, 2, 3}));
}

}  // namespace
}  // namespace dace::transform::testing
