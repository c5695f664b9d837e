// OutLocalStorage and AccumulateTransient on hand-built nested maps: the block an inner map
// writes goes through a local transient, and the results stay those of plain C++ loops.
// Refusals: inner writes that may not fill the block (the copy-out would write elements
// nobody wrote), a WCR edge for OutLocalStorage, AccumulateTransient without an identity (the
// transient would start uninitialized) and with the accumulated array read inside the map.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/sdfg.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

void pass(ir::State& s, int src, int dst, const std::string& x, const std::string& memlet, bool src_scope,
          bool dst_scope, const std::string& wcr = "") {
  if (src_scope) s.node(src)->out_connectors["OUT_" + x] = ir::DType{};
  if (dst_scope) s.node(dst)->in_connectors["IN_" + x] = ir::DType{};
  edge(s, src, src_scope ? "OUT_" + x : "", dst, dst_scope ? "IN_" + x : "", memlet, wcr);
}

// map i in [0, N): map j in `inner`: C[i, j] = A[i, j] * 2 (C's block on the exits: c_block)
std::unique_ptr<ir::SDFG> nested_write(const std::string& inner, const std::string& c_block) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "ols";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "M"});
  add_array(*g, "C", T::Float64, {"N", "M"});
  ir::State& s = add_state(*g, *g, "s");
  auto [oe, ox] = map(s, {"i"}, "0:N");
  auto [ie, ix] = map(s, {"j"}, inner);
  const int t = tasklet(s, "y = a * 2", {"a"}, {"y"});
  pass(s, access(s, "A"), oe, "A", "A[0:N, 0:M]", false, true);
  pass(s, oe, ie, "A", "A[i, 0:M]", true, true);
  s.node(ie)->out_connectors["OUT_A"] = ir::DType{};
  edge(s, ie, "OUT_A", t, "a", "A[i, j]");
  s.node(ix)->in_connectors["IN_C"] = ir::DType{};
  edge(s, t, "y", ix, "IN_C", "C[i, j]");
  pass(s, ix, ox, "C", c_block, true, true);
  pass(s, ox, access(s, "C"), "C", "C[0:N, 0:M]", true, false);
  return g;
}

// map i in [0, N): map j in [0, M): R[r] += A[i, j], the inner exit passing R[r_block] out
// with the sum; R is also read inside when `read_r`.
std::unique_ptr<ir::SDFG> nested_sum(const std::string& r, const std::string& r_block, bool read_r = false,
                                     const std::string& op = "+") {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "acc";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "M"});
  add_array(*g, "R", T::Float64, {"N"});
  ir::State& s = add_state(*g, *g, "s");
  auto [oe, ox] = map(s, {"i"}, "0:N");
  auto [ie, ix] = map(s, {"j"}, "0:M");
  const int t = tasklet(s, read_r ? "y = a * r" : "y = a", read_r ? std::vector<std::string>{"a", "r"} : std::vector<std::string>{"a"}, {"y"});
  pass(s, access(s, "A"), oe, "A", "A[0:N, 0:M]", false, true);
  pass(s, oe, ie, "A", "A[i, 0:M]", true, true);
  s.node(ie)->out_connectors["OUT_A"] = ir::DType{};
  edge(s, ie, "OUT_A", t, "a", "A[i, j]");
  if (read_r) {
    pass(s, access(s, "R"), oe, "R", "R[0:N]", false, true);
    pass(s, oe, ie, "R", "R[0:N]", true, true);
    s.node(ie)->out_connectors["OUT_R"] = ir::DType{};
    edge(s, ie, "OUT_R", t, "r", "R[0]");
  }
  const std::string sum = "lambda a, b: a " + op + " b";
  s.node(ix)->in_connectors["IN_R"] = ir::DType{};
  edge(s, t, "y", ix, "IN_R", "R[" + r + "]", sum);
  pass(s, ix, ox, "R", "R[" + r_block + "]", true, true, sum);
  pass(s, ox, access(s, "R"), "R", "R[0:N]", true, false, sum);
  return g;
}

std::unique_ptr<Transformation> with_props(const std::string& name, const std::string& json) {
  std::unique_ptr<Transformation> t = make_transformation(name);
  EXPECT_TRUE(t->properties().set_from_json(json).ok()) << json;
  return t;
}

std::string refusals(ir::SDFG& g, Transformation& t) {
  AnalysisManager am;
  std::string out;
  for (const Match& m : t.enumerate(g, am)) {
    EXPECT_FALSE(t.can_be_applied(g, m, am)) << to_string(m);
    out += t.why_not() + "\n";
  }
  return out;
}

TEST(TransformOutLocalStorage, InnerMapWritesALocalBlock) {
  std::unique_ptr<ir::SDFG> g = nested_write("0:M", "C[i, 0:M]");
  ASSERT_TRUE(apply_once(*g, "OutLocalStorage"));
  ASSERT_TRUE(g->arrays.count("trans_C"));
  EXPECT_TRUE(g->arrays.at("trans_C").transient);
  EXPECT_EQ(sym::to_string(g->arrays.at("trans_C").shape[1]), "M");
  const int64_t N = 3, M = 5;
  std::vector<double> a(N * M), c(N * M, -1), want(N * M);
  for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<double>(k) * 0.25 - 1;
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < M; ++j) want[static_cast<size_t>(i * M + j)] = a[static_cast<size_t>(i * M + j)] * 2;
  run_sdfg(*g, {{"A", &a}, {"C", &c}}, {{"N", N}, {"M", M}});
  EXPECT_EQ(c, want);
}

TEST(TransformOutLocalStorage, RefusesWritesThatMayNotFillTheBlock) {
  // map j in [1, M) writes C[i, 1:M] but the exit passes C[i, 0:M]: copying the whole
  // transient out would overwrite C[i, 0] with an element nobody wrote.
  std::unique_ptr<ir::SDFG> g = nested_write("1:M", "C[i, 0:M]");
  std::unique_ptr<Transformation> t = make_transformation("OutLocalStorage");
  const std::string why = refusals(*g, *t);
  EXPECT_NE(why.find("may not fill dimension 1"), std::string::npos) << why;
  const int64_t N = 2, M = 4;
  std::vector<double> a(N * M, 3), c(N * M, -7), want(N * M, 6);
  for (int64_t i = 0; i < N; ++i) want[static_cast<size_t>(i * M)] = -7;
  run_sdfg(*g, {{"A", &a}, {"C", &c}}, {{"N", N}, {"M", M}});
  EXPECT_EQ(c, want);
}

TEST(TransformOutLocalStorage, RefusesAWcrEdge) {
  std::unique_ptr<ir::SDFG> g = nested_sum("i", "i");
  std::unique_ptr<Transformation> t = with_props("OutLocalStorage", R"({"array": "R"})");
  const std::string why = refusals(*g, *t);
  EXPECT_NE(why.find("has a WCR"), std::string::npos) << why;
}

TEST(TransformAccumulateTransient, RowSumsAccumulateLocally) {
  // R[i] += sum_j A[i, j]: a one-element transient per outer iteration, initialized to 0.
  std::unique_ptr<ir::SDFG> g = nested_sum("i", "i");
  std::unique_ptr<Transformation> t = with_props("AccumulateTransient", R"({"identity": "0"})");
  AnalysisManager am;
  Result<std::optional<Match>> m = apply_first(*g, *t, am);
  ASSERT_TRUE(m.ok() && *m) << t->why_not();
  ASSERT_TRUE(g->arrays.count("trans_R"));
  const int64_t N = 3, M = 4;
  std::vector<double> a(N * M), r{1, 2, 3}, want = r;
  for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<double>(k) + 0.5;
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < M; ++j) want[static_cast<size_t>(i)] += a[static_cast<size_t>(i * M + j)];
  run_sdfg(*g, {{"A", &a}, {"R", &r}}, {{"N", N}, {"M", M}});
  EXPECT_EQ(r, want);
}

TEST(TransformAccumulateTransient, ColumnSumsInitializeEveryElement) {
  // R[j] += A[i, j] (R of length N = M here): each outer iteration accumulates a whole
  // block R[0:M] into a transient of M elements, all set to the identity first.
  std::unique_ptr<ir::SDFG> g = nested_sum("j", "0:M");
  std::unique_ptr<Transformation> t = with_props("AccumulateTransient", R"({"array": "R", "identity": "0"})");
  AnalysisManager am;
  Result<std::optional<Match>> m = apply_first(*g, *t, am);
  ASSERT_TRUE(m.ok() && *m) << t->why_not();
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::MapEntry), 3);
  const int64_t N = 4, M = 4;
  std::vector<double> a(N * M), r{10, 20, 30, 40}, want = r;
  for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<double>(k % 7) - 2;
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < M; ++j) want[static_cast<size_t>(j)] += a[static_cast<size_t>(i * M + j)];
  run_sdfg(*g, {{"A", &a}, {"R", &r}}, {{"N", N}, {"M", M}});
  EXPECT_EQ(r, want);
}

TEST(TransformAccumulateTransient, ProductsStartFromTheIdentity) {
  // R[i] *= prod_j A[i, j] with identity 1: a transient left at 0 (or garbage) would show.
  std::unique_ptr<ir::SDFG> g = nested_sum("i", "i", false, "*");
  std::unique_ptr<Transformation> t = with_props("AccumulateTransient", R"({"identity": "1"})");
  AnalysisManager am;
  Result<std::optional<Match>> m = apply_first(*g, *t, am);
  ASSERT_TRUE(m.ok() && *m) << t->why_not();
  const int64_t N = 2, M = 3;
  std::vector<double> a{1, 2, 3, 0.5, 4, 2}, r{2, 3}, want = r;
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < M; ++j) want[static_cast<size_t>(i)] *= a[static_cast<size_t>(i * M + j)];
  run_sdfg(*g, {{"A", &a}, {"R", &r}}, {{"N", N}, {"M", M}});
  EXPECT_EQ(r, want);
}

TEST(TransformAccumulateTransient, RefusesWithoutIdentity) {
  std::unique_ptr<ir::SDFG> g = nested_sum("i", "i");
  std::unique_ptr<Transformation> t = make_transformation("AccumulateTransient");
  const std::string why = refusals(*g, *t);
  EXPECT_NE(why.find("no identity"), std::string::npos) << why;
}

TEST(TransformAccumulateTransient, RefusesTheArrayReadInsideTheMap) {
  std::unique_ptr<ir::SDFG> g = nested_sum("i", "i", true);
  std::unique_ptr<Transformation> t = with_props("AccumulateTransient", R"({"identity": "0"})");
  const std::string why = refusals(*g, *t);
  EXPECT_NE(why.find("also reads 'R'"), std::string::npos) << why;
}

}  // namespace
}  // namespace dace::transform::testing
