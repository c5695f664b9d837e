// MapFusion where the second map holds a nested SDFG, and its require_exclusive_intermediates
// property. Fused results are compared with plain C++ loops; refusals name the reason and
// would not happen without the check they test.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "transform/map_fusion.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

// T[i, 0:w] = A[i] * 2 (and 2 A[i] + 1 as the second element, written by a nested SDFG) over
// i; then over j a nested SDFG reads
// T[j, 0:w] through connector x (a Scalar when w == 1, else an array of shape [w]) and writes
// B[j] = x[0] + k (+ x[1] when w == 2), its symbol k mapped to the outer map parameter j.
std::unique_ptr<ir::SDFG> nested_consumer(int w) {
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "body";
  inner->symbols["k"] = ir::DType::of(T::Int64);
  if (w == 1) add_scalar(*inner, "x", T::Float64);
  else add_array(*inner, "x", T::Float64, {std::to_string(w)});
  add_scalar(*inner, "y", T::Float64);
  ir::State& is = add_state(*inner, *inner, "is");
  const std::string code = w == 1 ? "o = a + k" : "o = a + k + c";
  const int t = w == 1 ? tasklet(is, code, {"a"}, {"o"}) : tasklet(is, code, {"a", "c"}, {"o"});
  const int xn = access(is, "x");
  edge(is, xn, "", t, "a", "x[0]");
  if (w == 2) edge(is, xn, "", t, "c", "x[1]");
  edge(is, t, "o", access(is, "y"), "", "y[0]");

  auto g = std::make_unique<ir::SDFG>();
  g->name = "mf_nested";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "T", T::Float64, {"N", std::to_string(w)}, true);
  add_array(*g, "B", T::Float64, {"N"});
  ir::State& s = add_state(*g, *g, "s");
  auto [e1, x1] = map(s, {"i"}, "0:N");
  auto [e2, x2] = map(s, {"j"}, "0:N");
  const int tn = access(s, "T");
  const std::string ws = std::to_string(w);
  if (w == 1) {
    const int t1 = tasklet(s, "t = a * 2", {"a"}, {"t"});
    edge_in(s, access(s, "A"), e1, t1, "a", "A[0:N]", "A[i]");
    edge_out(s, t1, "t", x1, tn, "T[i, 0]", "T[0:N, 0:1]");
  } else {
    // A nested SDFG writes the block: z[0] = 2 a, z[1] = 2 a + 1, z of shape [2].
    auto maker = std::make_unique<ir::SDFG>();
    maker->name = "maker";
    add_scalar(*maker, "a", T::Float64);
    add_array(*maker, "z", T::Float64, {"2"});
    ir::State& ms = add_state(*maker, *maker, "ms");
    const int an = access(ms, "a"), zn = access(ms, "z");
    const int m0 = tasklet(ms, "o = v * 2", {"v"}, {"o"});
    const int m1 = tasklet(ms, "o = v * 2 + 1", {"v"}, {"o"});
    edge(ms, an, "", m0, "v", "a[0]");
    edge(ms, an, "", m1, "v", "a[0]");
    edge(ms, m0, "o", zn, "", "z[0]");
    edge(ms, m1, "o", zn, "", "z[1]");
    auto mn = std::make_unique<ir::NestedSDFGNode>();
    mn->label = "maker";
    mn->in_connectors["a"] = ir::DType{};
    mn->out_connectors["z"] = ir::DType{};
    maker->parent_node = mn.get();
    mn->sdfg = std::move(maker);
    const int mk = s.add_node(std::move(mn));
    edge_in(s, access(s, "A"), e1, mk, "a", "A[0:N]", "A[i]");
    edge_out(s, mk, "z", x1, tn, "T[i, 0:2]", "T[0:N, 0:2]");
  }
  auto nn = std::make_unique<ir::NestedSDFGNode>();
  nn->label = "body";
  nn->in_connectors["x"] = ir::DType{};
  nn->out_connectors["y"] = ir::DType{};
  nn->symbol_mapping["k"] = E("j");
  inner->parent_node = nn.get();
  nn->sdfg = std::move(inner);
  const int n = s.add_node(std::move(nn));
  edge_in(s, tn, e2, n, "x", "T[0:N, 0:" + ws + "]", "T[j, 0:" + ws + "]");
  edge_out(s, n, "y", x2, access(s, "B"), "B[j]", "B[0:N]");
  return g;
}

std::string refusals(ir::SDFG& g, MapFusion& t) {
  AnalysisManager am;
  std::string out;
  for (const Match& m : t.enumerate(g, am)) {
    if (t.can_be_applied(g, m, am)) return "";
    out += t.why_not() + "\n";
  }
  return out;
}

TEST(TransformMapFusionNested, RenamesIntoTheSymbolMappingOfANestedSDFG) {
  auto g = nested_consumer(1);
  ASSERT_TRUE(apply_once(*g, "MapFusion"));
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::MapEntry), 1);
  EXPECT_FALSE(g->arrays.count("T")) << "the intermediate becomes a per-iteration scalar";
  // The nested SDFG's k now follows the fused map's parameter i.
  for (const ir::State* s : g->all_states())
    for (int id : s->node_ids())
      if (s->node(id)->kind == ir::NodeKind::NestedSDFG && s->node(id)->label == "body") {
        EXPECT_EQ(sym::to_string(static_cast<const ir::NestedSDFGNode*>(s->node(id))->symbol_mapping.at("k")), "i");
      }
  const int64_t n = 6;
  std::vector<double> a(n), b(n, -1), want(n);
  for (int64_t i = 0; i < n; ++i) a[i] = 1.5 * static_cast<double>(i) - 2;
  for (int64_t i = 0; i < n; ++i) want[i] = a[i] * 2 + static_cast<double>(i);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  EXPECT_EQ(b, want);
}

TEST(TransformMapFusionNested, RefusesAMultiElementConnectorOfANestedSDFG) {
  // Two elements per iteration: the nested SDFGs' z[2] and x[2] would need the small
  // container's strides, which MapFusion does not rewrite.
  auto g = nested_consumer(2);
  MapFusion t;
  const std::string why = refusals(*g, t);
  EXPECT_NE(why.find("whose inner container would need new strides"), std::string::npos) << why;
  // Unfused, the program computes B[j] = 2 A[j] + j + 2 A[j] + 1.
  const int64_t n = 4;
  std::vector<double> a{1, -2, 0.5, 3}, b(n, 0), want(n);
  for (int64_t i = 0; i < n; ++i) want[i] = a[i] * 2 + static_cast<double>(i) + a[i] * 2 + 1;
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  EXPECT_EQ(b, want);
}

TEST(TransformMapFusionNested, RequireExclusiveIntermediatesRefusesAKeptOne) {
  // T read again in a later state must be kept: refused with the property, fused without.
  auto g = nested_consumer(1);
  ir::State& later = add_state(*g, *g, "later");
  add_array(*g, "C", T::Float64, {"N", "1"});
  edge(later, access(later, "T"), "", access(later, "C"), "", "T[0:N, 0:1] -> [0:N, 0:1]");
  add_interstate(*g, g->slot_of(g->all_states()[0]), g->slot_of(&later));
  MapFusion strict;
  ASSERT_TRUE(strict.properties().set_from_json(R"({"require_exclusive_intermediates": true})").ok());
  const std::string why = refusals(*g, strict);
  EXPECT_NE(why.find("require_exclusive_intermediates"), std::string::npos) << why;
  EXPECT_EQ(strict.properties().to_json(), R"({"require_exclusive_intermediates":true})");
  MapFusion plain;
  EXPECT_EQ(refusals(*g, plain), "");
  ASSERT_TRUE(apply_once(*g, "MapFusion"));
  const int64_t n = 3;
  std::vector<double> a{2, 4, -1}, b(n, 0), c(n, 0), want_b(n), want_c(n);
  for (int64_t i = 0; i < n; ++i) want_b[i] = a[i] * 2 + static_cast<double>(i), want_c[i] = a[i] * 2;
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", n}});
  EXPECT_EQ(b, want_b);
  EXPECT_EQ(c, want_c);
}

}  // namespace
}  // namespace dace::transform::testing
