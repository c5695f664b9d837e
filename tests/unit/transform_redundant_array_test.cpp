// RedundantArray on hand-built SDFGs: `tmp = f(A); B[block] = tmp` becomes a direct write of
// B (with offset memlets for a sub-block), checked against plain C++ loops; refused for views,
// partial copies, reads of the destination before the write, and transients used elsewhere.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/json/sdfg_json.h"
#include "transform/array_elimination.h"
#include "transform/history.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;  // not the dace::tasklet namespace
using T = ir::ScalarType;

// tmp[i] = A[i + 1] * 2 for i in 0:N-2, then B[1:N-1] = tmp (a sub-block copy).
// `copy_in` / `copy_out` override the copy's two subsets.
std::unique_ptr<ir::SDFG> program(const std::string& copy = "tmp[0:N - 2] -> [1:N - 1]") {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "redundant";
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const char* n : {"A", "B"}) add_array(*g, n, T::Float64, {"N"});
  add_array(*g, "tmp", T::Float64, {"N - 2"}, true);
  ir::State& s = add_state(*g, *g, "s0");
  auto [entry, exit] = map(s, {"i"}, "0:N - 2");
  int t = tasklet(s, "y = x * 2", {"x"}, {"y"});
  edge_in(s, access(s, "A"), entry, t, "x", "A[1:N - 1]", "A[i + 1]");
  const int tmp = access(s, "tmp");
  edge_out(s, t, "y", exit, tmp, "tmp[i]", "tmp[0:N - 2]");
  edge(s, tmp, "", access(s, "B"), "", copy);
  return g;
}

std::vector<double> expected(const std::vector<double>& a, std::vector<double> b) {
  for (size_t i = 1; i + 1 < a.size(); ++i) b[i] = a[i] * 2;
  return b;
}

TEST(TransformRedundantArray, RemovesATransientCopiedIntoASubBlock) {
  auto g = program();
  const int64_t n = 7;
  std::vector<double> a{1, 2, 3, 4, 5, 6, 7}, b(n, -1.0);
  const std::vector<double> expect = expected(a, b);
  ASSERT_TRUE(apply_once(*g, "RedundantArray"));
  EXPECT_EQ(g->arrays.count("tmp"), 0u);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::Access), 2);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  EXPECT_EQ(b, expect);  // B[0] and B[N-1] keep their values
}

TEST(TransformRedundantArray, RemovesAWholeArrayCopyAndIsDeterministic) {
  auto make = [] {
    auto g = program("tmp[0:N - 2]");
    g->arrays["B"].shape = {E("N - 2")};
    g->arrays["B"].strides = {E("1")};
    g->arrays["B"].total_size = E("N - 2");
    return g;
  };
  auto g = make();
  ASSERT_TRUE(apply_once(*g, "RedundantArray"));
  auto h = make();
  ASSERT_TRUE(apply_once(*h, "RedundantArray"));
  EXPECT_EQ(ir::json::write_sdfg(*g), ir::json::write_sdfg(*h));
  const int64_t n = 6;
  std::vector<double> a{1, 2, 3, 4, 5, 6}, b(n - 2, 0);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  EXPECT_EQ(b, (std::vector<double>{4, 6, 8, 10}));
}

TEST(TransformRedundantArray, RefusesAPartialCopy) {
  auto g = program("tmp[0:N - 3] -> [1:N - 2]");
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "RedundantArray", &why));
  EXPECT_NE(why.find("only part"), std::string::npos) << why;
}

TEST(TransformRedundantArray, RefusesAView) {
  auto g = program();
  g->arrays["B"].kind = ir::DataKind::View;
  g->arrays["B"].json_type = "ArrayView";
  EXPECT_FALSE(applies_anywhere(*g, "RedundantArray"));
  auto h = program();
  h->arrays["tmp"].transient = false;
  EXPECT_FALSE(applies_anywhere(*h, "RedundantArray"));
}

TEST(TransformRedundantArray, RefusesWhenTheProducerReadsTheDestination) {
  // B[1:N-1] = B[2:N] * 2 through tmp: writing B directly would race with the reads.
  auto g = std::make_unique<ir::SDFG>();
  g->name = "redundant_rw";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "B", T::Float64, {"N"});
  add_array(*g, "tmp", T::Float64, {"N - 2"}, true);
  ir::State& s = add_state(*g, *g, "s0");
  auto [entry, exit] = map(s, {"i"}, "0:N - 2");
  int t = tasklet(s, "y = x * 2", {"x"}, {"y"});
  edge_in(s, access(s, "B"), entry, t, "x", "B[2:N]", "B[i + 2]");
  const int tmp = access(s, "tmp");
  edge_out(s, t, "y", exit, tmp, "tmp[i]", "tmp[0:N - 2]");
  edge(s, tmp, "", access(s, "B"), "", "tmp[0:N - 2] -> [1:N - 1]");
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "RedundantArray", &why));
  EXPECT_NE(why.find("accessed before"), std::string::npos) << why;
}

TEST(TransformRedundantArray, RefusesATransientReadInAnotherState) {
  auto g = program();
  int s1 = 0;
  ir::State& second = add_state(*g, *g, "s1", &s1);
  edge(second, access(second, "tmp"), "", access(second, "A"), "", "tmp[0:N - 2] -> [0:N - 2]");
  add_interstate(*g, 0, s1);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "RedundantArray", &why));
  EXPECT_NE(why.find("other access nodes"), std::string::npos) << why;
}

// tmp = A[1:N-1] (a copy), then B[1:N-1] = tmp.
std::unique_ptr<ir::SDFG> copy_chain(const std::string& first_copy) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "redundant_copy";
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const char* n : {"A", "B"}) add_array(*g, n, T::Float64, {"N"});
  add_array(*g, "tmp", T::Float64, {"N - 2"}, true);
  ir::State& s = add_state(*g, *g, "s0");
  const int tmp = access(s, "tmp");
  edge(s, access(s, "A"), "", tmp, "", first_copy);
  edge(s, tmp, "", access(s, "B"), "", "tmp[0:N - 2] -> [1:N - 1]");
  return g;
}

TEST(TransformRedundantArray, OffsetsTheOtherEndOfACopyIntoTheTransient) {
  auto g = copy_chain("A[1:N - 1] -> [0:N - 2]");
  ASSERT_TRUE(apply_once(*g, "RedundantArray"));
  const int64_t n = 5;
  std::vector<double> a{1, 2, 3, 4, 5}, b(n, 0);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  EXPECT_EQ(b, (std::vector<double>{0, 2, 3, 4, 0}));
}

TEST(TransformRedundantArray, RefusesACopyWithoutAnOtherSubset) {
  auto g = copy_chain("tmp[0:N - 2]");
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "RedundantArray", &why));
  EXPECT_NE(why.find("no other subset"), std::string::npos) << why;
}

// gemm's tail in one state: T = C * 3 (reads C), tmp = T + A, C = tmp. The read of C is over
// once T is written, so tmp can go and the second map write C directly.
std::unique_ptr<ir::SDFG> read_then_overwrite(bool direct_read) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "gemm_tail";
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const char* n : {"A", "C"}) add_array(*g, n, T::Float64, {"N"});
  for (const char* n : {"T", "tmp"}) add_array(*g, n, T::Float64, {"N"}, true);
  ir::State& s = add_state(*g, *g, "s0");
  const int c = access(s, "C"), tn = access(s, "T"), tmp = access(s, "tmp");
  {
    auto [entry, exit] = map(s, {"i"}, "0:N");
    int t = tasklet(s, "y = x * 3", {"x"}, {"y"});
    edge_in(s, c, entry, t, "x", "C[0:N]", "C[i]");
    edge_out(s, t, "y", exit, tn, "T[i]", "T[0:N]");
  }
  {
    // With `direct_read` the second map also reads C[N - 1 - i] itself: it would then read
    // elements it has already overwritten.
    auto [entry, exit] = map(s, {"i"}, "0:N");
    int t = tasklet(s, direct_read ? "y = u + v + w" : "y = u + v", direct_read ? std::vector<std::string>{"u", "v", "w"}
                                                                                : std::vector<std::string>{"u", "v"},
                    {"y"});
    edge_in(s, tn, entry, t, "u", "T[0:N]", "T[i]");
    edge_in(s, access(s, "A"), entry, t, "v", "A[0:N]", "A[i]");
    if (direct_read) edge_in(s, c, entry, t, "w", "C[0:N]", "C[N - 1 - i]");
    edge_out(s, t, "y", exit, tmp, "tmp[i]", "tmp[0:N]");
  }
  edge(s, tmp, "", access(s, "C"), "", "tmp[0:N] -> [0:N]");
  return g;
}

TEST(TransformRedundantArray, AReadOfTheDestinationBeforeAnotherArrayIsOver) {
  auto g = read_then_overwrite(false);
  ASSERT_TRUE(apply_once(*g, "RedundantArray"));
  EXPECT_EQ(g->arrays.count("tmp"), 0u);
  std::vector<double> a{1, 2, 3, 4}, c{5, 6, 7, 8}, expect(4);
  for (size_t i = 0; i < 4; ++i) expect[i] = c[i] * 3 + a[i];
  run_sdfg(*g, {{"A", &a}, {"C", &c}}, {{"N", 4}});
  EXPECT_EQ(c, expect);
}

TEST(TransformRedundantArray, RefusesWhenTheProducerItselfReadsTheDestination) {
  auto g = read_then_overwrite(true);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "RedundantArray", &why));
  EXPECT_NE(why.find("C is accessed before tmp is written"), std::string::npos) << why;
}

TEST(TransformRedundantArray, RefusesAnAccessOfTheDestinationUnorderedWithTheCopy) {
  // A second, unconnected read of B beside `tmp -> B`: which value it sees depends on when
  // the producers write.
  auto g = program();
  ir::State& s = *static_cast<ir::State*>(g->block(0));
  g->arrays["D"] = g->arrays["A"];
  edge(s, access(s, "B"), "", access(s, "D"), "", "B[0:N] -> [0:N]");
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "RedundantArray", &why));
  EXPECT_NE(why.find("unordered with the copy"), std::string::npos) << why;
}

TEST(TransformArrayElimination, AppliesRedundantArrayAndRecordsOnePassEntry) {
  auto g = program();
  ArrayElimination p;
  AnalysisManager am;
  Result<bool> r = run_pass(*g, p, am);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(*r);
  EXPECT_EQ(g->arrays.count("tmp"), 0u);
  std::vector<HistoryEntry> h = history_of(*g);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].transformation, "ArrayElimination");
  EXPECT_EQ(h[0].kind, HistoryEntry::Kind::Pass);
  const int64_t n = 5;
  std::vector<double> a{1, 2, 3, 4, 5}, b(n, 7.0);
  const std::vector<double> expect = expected(a, b);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  EXPECT_EQ(b, expect);
  Result<bool> again = run_pass(*g, p, am);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);
}

TEST(TransformArrayElimination, MergesSourceAndSinkNodesOfOneContainer) {
  // B[0:H] = A[0:H] + 1 and B[H:N] = A[H:N] * 2 in one state, each map with its own A and B
  // nodes: the two A sources become one node, and so do the two B sinks.
  auto g = std::make_unique<ir::SDFG>();
  g->name = "merge";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["H"] = ir::DType::of(T::Int64);
  for (const char* n : {"A", "B"}) add_array(*g, n, T::Float64, {"N"});
  ir::State& s = add_state(*g, *g, "s0");
  for (const auto& [range, code] : {std::pair<std::string, std::string>{"0:H", "y = x + 1"}, {"H:N", "y = x * 2"}}) {
    auto [entry, exit] = map(s, {"i"}, range);
    int t = tasklet(s, code, {"x"}, {"y"});
    edge_in(s, access(s, "A"), entry, t, "x", "A[" + range + "]", "A[i]");
    edge_out(s, t, "y", exit, access(s, "B"), "B[i]", "B[" + range + "]");
  }
  ArrayElimination p;
  AnalysisManager am;
  Result<bool> r = run_pass(*g, p, am);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(*r);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::Access), 2);  // one A, one B
  const int64_t n = 6;
  std::vector<double> a{1, 2, 3, 4, 5, 6}, b(n, 0);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}, {"H", 2}});
  EXPECT_EQ(b, (std::vector<double>{2, 3, 6, 8, 10, 12}));
}

}  // namespace
}  // namespace dace::transform::testing
