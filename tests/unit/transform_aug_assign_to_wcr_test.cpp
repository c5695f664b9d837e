// AugAssignToWCR on hand-built states: `A[x] = A[x] op e` becomes a WCR write of `e`, with the
// results of plain C++ statements; reads of another element, a non-commutative operator with
// the element on the right, and writes that never conflict are refused.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/sdfg.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

struct One {
  std::unique_ptr<ir::SDFG> g;
  ir::State* s = nullptr;
};

One make(const std::string& name) {
  One o;
  o.g = std::make_unique<ir::SDFG>();
  o.g->name = name;
  o.g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*o.g, "A", T::Float64, {"N"});
  add_array(*o.g, "B", T::Float64, {"N"});
  o.s = &add_state(*o.g, *o.g, "s");
  return o;
}

// out[w] = code(a <- A[ra], b <- B[rb]) in one tasklet at the top level.
void update(ir::State& s, const std::string& code, const std::string& ra, const std::string& rb,
            const std::string& w, const std::string& second = "B") {
  const int t = tasklet(s, code, {"a", "b"}, {"y"});
  edge(s, access(s, "A"), "", t, "a", "A[" + ra + "]");
  edge(s, access(s, second), "", t, "b", second + "[" + rb + "]");
  edge(s, t, "y", access(s, "A"), "", "A[" + w + "]");
}

const ir::DataflowEdge* write_of(const ir::State& s) {
  for (int e : s.edge_ids())
    if (s.node(s.edge(e)->dst)->kind == ir::NodeKind::Access && s.edge(e)->memlet.data == "A") return s.edge(e);
  return nullptr;
}

std::string why(ir::SDFG& g) {
  std::string reasons;
  EXPECT_FALSE(applies_anywhere(g, "AugAssignToWCR", &reasons));
  return reasons;
}

TEST(TransformAugAssignToWCR, FreeTaskletBecomesAWcrWrite) {
  One o = make("aug_free");
  update(*o.s, "y = a + b * 2", "1", "0", "1");
  ASSERT_TRUE(apply_once(*o.g, "AugAssignToWCR"));
  const ir::DataflowEdge* w = write_of(*o.s);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->memlet.wcr, "lambda a, b: a + b");
  EXPECT_EQ(count_nodes(*o.g, ir::NodeKind::Access), 2);  // the read of A went
  std::vector<double> a{1, 2, 3}, b{10, 20, 30}, want = a;
  want[1] = want[1] + b[0] * 2;
  run_sdfg(*o.g, {{"A", &a}, {"B", &b}}, {{"N", 3}});
  EXPECT_EQ(a, want);
}

TEST(TransformAugAssignToWCR, SubtractionAndProduct) {
  One sub = make("aug_sub");
  update(*sub.s, "y = a - b", "2", "1", "2");
  ASSERT_TRUE(apply_once(*sub.g, "AugAssignToWCR"));
  EXPECT_EQ(write_of(*sub.s)->memlet.wcr, "lambda a, b: a + b");  // a + (-b), as DaCe maps it
  std::vector<double> a{1, 2, 3}, b{10, 20, 30}, want = a;
  want[2] = want[2] - b[1];
  run_sdfg(*sub.g, {{"A", &a}, {"B", &b}}, {{"N", 3}});
  EXPECT_EQ(a, want);

  One mul = make("aug_mul");
  update(*mul.s, "y = b * a", "0", "2", "0");  // the element on the right of a commutative op
  ASSERT_TRUE(apply_once(*mul.g, "AugAssignToWCR"));
  EXPECT_EQ(write_of(*mul.s)->memlet.wcr, "lambda a, b: a * b");
  std::vector<double> a2{3, 2, 1}, b2{10, 20, 30}, want2 = a2;
  want2[0] = b2[2] * want2[0];
  run_sdfg(*mul.g, {{"A", &a2}, {"B", &b2}}, {{"N", 3}});
  EXPECT_EQ(a2, want2);
}

TEST(TransformAugAssignToWCR, ReductionInsideAMap) {
  // map j: A[0] = A[0] + B[j]: every iteration updates A[0]; the WCR makes that a sum.
  One o = make("aug_map");
  ir::State& s = *o.s;
  auto [en, ex] = map(s, {"j"}, "0:N");
  const int t = tasklet(s, "y = a + b", {"a", "b"}, {"y"});
  edge_in(s, access(s, "A"), en, t, "a", "A[0]", "A[0]");
  edge_in(s, access(s, "B"), en, t, "b", "B[0:N]", "B[j]");
  edge_out(s, t, "y", ex, access(s, "A"), "A[0]", "A[0]");
  std::optional<Match> m = apply_once(*o.g, "AugAssignToWCR");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->expr_index, 1);
  EXPECT_EQ(m->subgraph.size(), 5u);
  int wcr_edges = 0;
  for (int e : s.edge_ids()) wcr_edges += s.edge(e)->memlet.wcr == "lambda a, b: a + b";
  EXPECT_EQ(wcr_edges, 2);  // inside and outside the map
  std::vector<double> a{5, 0, 0, 0}, b{1, 2, 3, 4}, want = a;
  for (double x : b) want[0] += x;
  run_sdfg(*o.g, {{"A", &a}, {"B", &b}}, {{"N", 4}});
  EXPECT_EQ(a, want);
}

TEST(TransformAugAssignToWCR, RefusesReadingAnotherElement) {
  // A[0] = A[1] + B[0] is not an update of A[0]: a WCR write of B[0] would add to A[0].
  One o = make("aug_other");
  update(*o.s, "y = a + b", "1", "0", "0");
  const std::string r = why(*o.g);
  EXPECT_NE(r.find("does not combine the element of 'A'"), std::string::npos) << r;

  // A[0] = A[0] + A[1]: the tasklet also reads A elsewhere.
  One both = make("aug_both");
  update(*both.s, "y = a + b", "0", "1", "0", "A");
  EXPECT_NE(why(*both.g).find("also reads 'A'"), std::string::npos);
}

TEST(TransformAugAssignToWCR, RefusesTheElementRightOfAMinus) {
  // A[0] = B[0] - A[0] is not A[0] + something.
  One o = make("aug_rsub");
  const int t = tasklet(*o.s, "y = b - a", {"a", "b"}, {"y"});
  edge(*o.s, access(*o.s, "A"), "", t, "a", "A[0]");
  edge(*o.s, access(*o.s, "B"), "", t, "b", "B[0]");
  edge(*o.s, t, "y", access(*o.s, "A"), "", "A[0]");
  const std::string r = why(*o.g);
  EXPECT_NE(r.find("non-commutative"), std::string::npos) << r;
}

TEST(TransformAugAssignToWCR, RefusesAMapWhoseIterationsWriteDistinctElements) {
  // map j: A[j] = A[j] + B[j] has nothing to resolve (DaCe's non-permissive check).
  One o = make("aug_distinct");
  ir::State& s = *o.s;
  auto [en, ex] = map(s, {"j"}, "0:N");
  const int t = tasklet(s, "y = a + b", {"a", "b"}, {"y"});
  edge_in(s, access(s, "A"), en, t, "a", "A[0:N]", "A[j]");
  edge_in(s, access(s, "B"), en, t, "b", "B[0:N]", "B[j]");
  edge_out(s, t, "y", ex, access(s, "A"), "A[j]", "A[0:N]");
  EXPECT_NE(why(*o.g).find("depends on every parameter"), std::string::npos);
}

TEST(TransformAugAssignToWCR, RefusesCodeThatIsNotABinaryUpdate) {
  One o = make("aug_call");
  update(*o.s, "y = max(a, b)", "0", "0", "0");
  EXPECT_NE(why(*o.g).find("a op b"), std::string::npos);
  One twice = make("aug_twice");
  update(*twice.s, "y = a + a * b", "0", "0", "0");
  EXPECT_NE(why(*twice.g).find("reads 'a' again"), std::string::npos);
}

}  // namespace
}  // namespace dace::transform::testing
