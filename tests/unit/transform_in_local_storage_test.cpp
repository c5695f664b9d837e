// InLocalStorage on hand-built nested maps: the block an outer map passes to an inner map is
// copied into a local transient first, and the results stay those of plain C++ loops;
// extents that depend on an outer parameter, and entries without a data edge, are refused.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/sdfg.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

// An edge through scope connectors: `conn` is the suffix x of IN_x / OUT_x.
void pass(ir::State& s, int src, int dst, const std::string& x, const std::string& memlet, bool src_scope,
          bool dst_scope) {
  if (src_scope) s.node(src)->out_connectors["OUT_" + x] = ir::DType{};
  if (dst_scope) s.node(dst)->in_connectors["IN_" + x] = ir::DType{};
  edge(s, src, src_scope ? "OUT_" + x : "", dst, dst_scope ? "IN_" + x : "", memlet);
}

// map i in [0, N): map j in `inner`: C[i, j] = A[i, j] * 2 + B[j]
std::unique_ptr<ir::SDFG> nested_maps(const std::string& inner, const std::string& a_block, const std::string& c_block) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "ils";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "M"});
  add_array(*g, "B", T::Float64, {"M"});
  add_array(*g, "C", T::Float64, {"N", "M"});
  ir::State& s = add_state(*g, *g, "s");
  auto [oe, ox] = map(s, {"i"}, "0:N");
  auto [ie, ix] = map(s, {"j"}, inner);
  const int t = tasklet(s, "y = a * 2 + b", {"a", "b"}, {"y"});
  pass(s, access(s, "A"), oe, "A", "A[0:N, 0:M]", false, true);
  pass(s, oe, ie, "A", a_block, true, true);
  s.node(ie)->out_connectors["OUT_A"] = ir::DType{};
  edge(s, ie, "OUT_A", t, "a", "A[i, j]");
  pass(s, access(s, "B"), oe, "B", "B[0:M]", false, true);
  pass(s, oe, ie, "B", "B[0:M]", true, true);
  s.node(ie)->out_connectors["OUT_B"] = ir::DType{};
  edge(s, ie, "OUT_B", t, "b", "B[j]");
  s.node(ix)->in_connectors["IN_C"] = ir::DType{};
  edge(s, t, "y", ix, "IN_C", "C[i, j]");
  pass(s, ix, ox, "C", c_block, true, true);
  pass(s, ox, access(s, "C"), "C", "C[0:N, 0:M]", true, false);
  return g;
}

TEST(TransformInLocalStorage, InnerMapReadsALocalCopy) {
  std::unique_ptr<ir::SDFG> g = nested_maps("0:M", "A[i, 0:M]", "C[i, 0:M]");
  ASSERT_TRUE(apply_once(*g, "InLocalStorage"));
  ASSERT_TRUE(g->arrays.count("trans_A"));
  EXPECT_TRUE(g->arrays.at("trans_A").transient);
  const int64_t N = 3, M = 4;
  std::vector<double> a(N * M), b(M), c(N * M, 0), want(N * M);
  for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<double>(k) * 0.5;
  for (size_t k = 0; k < b.size(); ++k) b[k] = 10.0 + static_cast<double>(k);
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < M; ++j)
      want[static_cast<size_t>(i * M + j)] = a[static_cast<size_t>(i * M + j)] * 2 + b[static_cast<size_t>(j)];
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", N}, {"M", M}});
  EXPECT_EQ(c, want);
}

TEST(TransformInLocalStorage, ArrayPropertyPicksTheContainer) {
  std::unique_ptr<ir::SDFG> g = nested_maps("0:M", "A[i, 0:M]", "C[i, 0:M]");
  std::unique_ptr<Transformation> t = make_transformation("InLocalStorage");
  ASSERT_TRUE(t->properties().set_from_json(R"({"array": "B", "prefix": "loc_"})").ok());
  AnalysisManager am;
  Result<std::optional<Match>> m = apply_first(*g, *t, am);
  ASSERT_TRUE(m.ok() && *m);
  EXPECT_TRUE(g->arrays.count("loc_B"));
  EXPECT_FALSE(g->arrays.count("trans_A"));
  const int64_t N = 2, M = 3;
  std::vector<double> a{1, 2, 3, 4, 5, 6}, b{7, 8, 9}, c(6, 0), want(6);
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < M; ++j)
      want[static_cast<size_t>(i * M + j)] = a[static_cast<size_t>(i * M + j)] * 2 + b[static_cast<size_t>(j)];
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", N}, {"M", M}});
  EXPECT_EQ(c, want);
}

TEST(TransformInLocalStorage, RefusesExtentsOfAnOuterParameter) {
  // map j in [0, i]: the block A[i, 0:i + 1] has no size outside the outer map.
  std::unique_ptr<ir::SDFG> g = nested_maps("0:i + 1", "A[i, 0:i + 1]", "C[i, 0:i + 1]");
  std::unique_ptr<Transformation> t = make_transformation("InLocalStorage");
  ASSERT_TRUE(t->properties().set_from_json(R"({"array": "A"})").ok());
  AnalysisManager am;
  std::string reasons;
  for (const Match& m : t->enumerate(*g, am)) {
    EXPECT_FALSE(t->can_be_applied(*g, m, am));
    reasons += t->why_not();
  }
  EXPECT_NE(reasons.find("depends on the scope parameter 'i'"), std::string::npos) << reasons;
  ASSERT_TRUE(t->properties().set_from_json(R"({"array": "D"})").ok());
  for (const Match& m : t->enumerate(*g, am)) EXPECT_FALSE(t->can_be_applied(*g, m, am));
  EXPECT_NE(t->why_not().find("no data edge of 'D'"), std::string::npos);
}

}  // namespace
}  // namespace dace::transform::testing
