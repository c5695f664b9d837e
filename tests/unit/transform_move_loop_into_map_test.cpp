// MoveLoopIntoMap on hand-built loop regions: `for i: map j` becomes `map j: for i` with the
// loop in a nested SDFG, and computes what the plain C++ loop nest computes; loops whose
// iterations and map iterations depend on each other are refused, naming the container.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/sdfg.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

struct Loop {
  std::unique_ptr<ir::SDFG> g;
  ir::State* body = nullptr;
};

// start -> for (i = init; cond; i = update) { body } -> end over A[0:N], B[0:M, 0:N].
Loop make_loop(const std::string& init, const std::string& cond, const std::string& update) {
  Loop l;
  l.g = std::make_unique<ir::SDFG>();
  ir::SDFG& g = *l.g;
  g.name = "mlim";
  g.symbols["N"] = ir::DType::of(T::Int64);
  g.symbols["M"] = ir::DType::of(T::Int64);
  add_array(g, "A", T::Float64, {"N + M"});
  add_array(g, "B", T::Float64, {"M + 1", "N + 1"});
  l.body = &add_state(*add_test_loop(g, "for_1", init, cond, update).loop, g, "body");
  return l;
}

// map j in [0, N): dst[w] = f(a <- src[r]) with `code` over a.
void map_body(ir::State& s, const std::string& code, const std::string& src, const std::string& r,
              const std::string& src_outer, const std::string& dst, const std::string& w,
              const std::string& dst_outer) {
  auto [en, ex] = map(s, {"j"}, "0:N");
  const int t = tasklet(s, code, {"a"}, {"y"});
  edge_in(s, access(s, src), en, t, "a", src_outer, src + "[" + r + "]");
  edge_out(s, t, "y", ex, access(s, dst), dst + "[" + w + "]", dst_outer);
}

std::string why(ir::SDFG& g) {
  std::string reasons;
  EXPECT_FALSE(applies_anywhere(g, "MoveLoopIntoMap", &reasons));
  return reasons;
}

TEST(TransformMoveLoopIntoMap, LoopMovesIntoTheMap) {
  // for i in [0, M): map j: A[j] = A[j] + B[i, j] * i  ->  map j: for i: ...
  Loop l = make_loop("0", "(i < M)", "(i + 1)");
  ir::State& s = *l.body;
  auto [en, ex] = map(s, {"j"}, "0:N");
  const int t = tasklet(s, "y = a + b * i", {"a", "b"}, {"y"});
  edge_in(s, access(s, "A"), en, t, "a", "A[0:N]", "A[j]");
  edge_in(s, access(s, "B"), en, t, "b", "B[i, 0:N]", "B[i, j]");
  edge_out(s, t, "y", ex, access(s, "A"), "A[j]", "A[0:N]");
  ASSERT_TRUE(apply_once(*l.g, "MoveLoopIntoMap"));
  EXPECT_EQ(count_nodes(*l.g, ir::NodeKind::NestedSDFG), 1);
  for (int b : l.g->block_slots()) EXPECT_NE(l.g->block(b)->kind, ir::BlockKind::Loop);
  const int64_t N = 3, M = 4;
  std::vector<double> a(N + M, 1), bv((M + 1) * (N + 1)), want = a;
  for (size_t k = 0; k < bv.size(); ++k) bv[k] = static_cast<double>(k % 7) + 0.5;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j)
      want[static_cast<size_t>(j)] += bv[static_cast<size_t>(i * (N + 1) + j)] * static_cast<double>(i);
  run_sdfg(*l.g, {{"A", &a}, {"B", &bv}}, {{"N", N}, {"M", M}});
  EXPECT_EQ(a, want);
}

TEST(TransformMoveLoopIntoMap, DownwardLoopWritingARowPerIteration) {
  // for i = M - 1 down to 0: map j: B[i, j] = A[j] + i
  Loop l = make_loop("(M - 1)", "(i >= 0)", "(i - 1)");
  map_body(*l.body, "y = a + i", "A", "j", "A[0:N]", "B", "i, j", "B[i, 0:N]");
  // B's writes differ per map iteration (column j) and per loop iteration (row i): legal.
  ASSERT_TRUE(apply_once(*l.g, "MoveLoopIntoMap"));
  const int64_t N = 3, M = 2;
  std::vector<double> a{1, 2, 3, 0, 0}, bv((M + 1) * (N + 1), -1), want = bv;
  for (int64_t i = M - 1; i >= 0; --i)
    for (int64_t j = 0; j < N; ++j)
      want[static_cast<size_t>(i * (N + 1) + j)] = a[static_cast<size_t>(j)] + static_cast<double>(i);
  run_sdfg(*l.g, {{"A", &a}, {"B", &bv}}, {{"N", N}, {"M", M}});
  EXPECT_EQ(bv, want);
}

TEST(TransformMoveLoopIntoMap, TemporariesInsideTheMapMoveAlong) {
  // As DaCe's frontend writes it: map j: t = B[i, j] * i; A[j] = A[j] + t, t a transient.
  Loop l = make_loop("0", "(i < M)", "(i + 1)");
  add_scalar(*l.g, "t", T::Float64, true);
  ir::State& s = *l.body;
  auto [en, ex] = map(s, {"j"}, "0:N");
  const int mul = tasklet(s, "y = b * i", {"b"}, {"y"});
  const int add = tasklet(s, "y = a + c", {"a", "c"}, {"y"});
  const int tn = access(s, "t");
  edge_in(s, access(s, "B"), en, mul, "b", "B[i, 0:N]", "B[i, j]");
  edge(s, mul, "y", tn, "", "t[0]");
  edge(s, tn, "", add, "c", "t[0]");
  edge_in(s, access(s, "A"), en, add, "a", "A[0:N]", "A[j]");
  edge_out(s, add, "y", ex, access(s, "A"), "A[j]", "A[0:N]");
  std::unique_ptr<ir::SDFG> shared = l.g->clone_sdfg();
  ASSERT_TRUE(apply_once(*l.g, "MoveLoopIntoMap"));
  EXPECT_EQ(l.g->arrays.count("t"), 0u);  // the nested SDFG's own now
  const int64_t N = 4, M = 3;
  std::vector<double> a(N + M, 2), bv((M + 1) * (N + 1)), want = a;
  for (size_t k = 0; k < bv.size(); ++k) bv[k] = static_cast<double>(k % 5) - 1.5;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j)
      want[static_cast<size_t>(j)] += bv[static_cast<size_t>(i * (N + 1) + j)] * static_cast<double>(i);
  run_sdfg(*l.g, {{"A", &a}, {"B", &bv}}, {{"N", N}, {"M", M}});
  EXPECT_EQ(a, want);

  // The same temporary read in another state keeps its value there: refused.
  ir::State& after = add_state(*shared, *shared, "after");
  for (int b : shared->block_slots())
    if (shared->block(b)->label == "end") add_interstate(*shared, b, shared->slot_of(&after));
  edge(after, access(after, "t"), "", access(after, "A"), "", "t[0] -> [0]");
  const std::string r = why(*shared);
  EXPECT_NE(r.find("'t' inside the map is also accessed outside"), std::string::npos) << r;
}

TEST(TransformMoveLoopIntoMap, RefusesADimensionOfBothLoopAndMap) {
  // for i: map j: A[i + j] = B[0, j] + i — as DaCe refuses: with the loop inside, map
  // iteration j + 1 (i = 0) would overwrite what iteration j wrote last (i = 1).
  Loop l = make_loop("0", "(i < M)", "(i + 1)");
  map_body(*l.body, "y = a + i", "B", "0, j", "B[0, 0:N]", "A", "i + j", "A[i:i + N]");
  const std::string r = why(*l.g);
  EXPECT_NE(r.find("depends on both 'i' and a map parameter"), std::string::npos) << r;
}

TEST(TransformMoveLoopIntoMap, RefusesReadingAnotherMapIterationsElement) {
  // for i: map j: B[i + 1, j] = B[i, j + 1]: row i + 1 reads row i shifted. DaCe accepts
  // this; with the loop inside, map iteration j would read B[i, j + 1] before iteration j + 1
  // wrote it.
  Loop l = make_loop("0", "(i < M)", "(i + 1)");
  map_body(*l.body, "y = a", "B", "i, j + 1", "B[i, 1:N + 1]", "B", "i + 1, j", "B[i + 1, 0:N]");
  const std::string r = why(*l.g);
  EXPECT_NE(r.find("different elements of written container 'B'"), std::string::npos) << r;
}

TEST(TransformMoveLoopIntoMap, RefusesOtherStepsAndBodies) {
  Loop l = make_loop("0", "(i < M)", "(i + 2)");
  map_body(*l.body, "y = a", "A", "j", "A[0:N]", "B", "i, j", "B[i, 0:N]");
  EXPECT_NE(why(*l.g).find("step other than 1"), std::string::npos);

  Loop nomap = make_loop("0", "(i < M)", "(i + 1)");
  const int t = tasklet(*nomap.body, "y = a", {"a"}, {"y"});
  edge(*nomap.body, access(*nomap.body, "A"), "", t, "a", "A[i]");
  edge(*nomap.body, t, "y", access(*nomap.body, "B"), "", "B[i, 0]");
  EXPECT_NE(why(*nomap.g).find("no map"), std::string::npos);
}

}  // namespace
}  // namespace dace::transform::testing
