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

// mandelbrot1's shape after fusion: for i in [0, K) with K an input scalar (a container, not a
// symbol) in the loop condition: map j: if A[j] < 100: A[j] = A[j] * 2 + i, the `if` in a
// nested SDFG. The nested SDFG moves like a tasklet, K enters the new nested SDFG as data.
Loop nested_body_loop(bool map_writes_k) {
  Loop l = make_loop("0", "(i < K)", "(i + 1)");
  add_scalar(*l.g, "K", T::Int64);
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "cond";
  inner->symbols["ii"] = ir::DType::of(T::Int64);
  add_scalar(*inner, "x", T::Float64);
  add_scalar(*inner, "y", T::Float64);
  int guard = 0, body = 0, done = 0;
  add_state(*inner, *inner, "guard", &guard);
  ir::State& bs = add_state(*inner, *inner, "body", &body);
  add_state(*inner, *inner, "done", &done);
  add_interstate(*inner, guard, body, "(x < 100)");
  add_interstate(*inner, guard, done, "(not (x < 100))");
  add_interstate(*inner, body, done);
  const int it = tasklet(bs, "o = v * 2 + ii", {"v"}, {"o"});
  edge(bs, access(bs, "x"), "", it, "v", "x[0]");
  edge(bs, it, "o", access(bs, "y"), "", "y[0]");

  ir::State& s = *l.body;
  auto [en, ex] = map(s, {"j"}, "0:N");
  auto nn = std::make_unique<ir::NestedSDFGNode>();
  nn->label = "cond";
  nn->in_connectors["x"] = ir::DType{};
  nn->out_connectors["y"] = ir::DType{};
  nn->symbol_mapping["ii"] = E("i");
  inner->parent_node = nn.get();
  nn->sdfg = std::move(inner);
  const int n = s.add_node(std::move(nn));
  edge_in(s, access(s, "A"), en, n, "x", "A[0:N]", "A[j]");
  edge_out(s, n, "y", ex, access(s, "A"), "A[j]", "A[0:N]");
  if (map_writes_k) {
    const int t = tasklet(s, "k = a", {"a"}, {"k"});
    edge_in(s, access(s, "B"), en, t, "a", "B[0, 0:N]", "B[0, j]");
    edge_out(s, t, "k", ex, access(s, "K"), "K[0]", "K[0]");
  }
  return l;
}

TEST(TransformMoveLoopIntoMap, NestedSDFGAndAContainerInTheLoopHeader) {
  Loop l = nested_body_loop(false);
  ASSERT_TRUE(apply_once(*l.g, "MoveLoopIntoMap"));
  for (int b : l.g->block_slots()) EXPECT_NE(l.g->block(b)->kind, ir::BlockKind::Loop);
  // K reaches the new nested SDFG through the map, as data.
  const ir::NestedSDFGNode* moved = nullptr;
  for (const ir::State* s : l.g->all_states())
    for (int id : s->node_ids())
      if (s->node(id)->kind == ir::NodeKind::NestedSDFG && s->node(id)->label == "for_1")
        moved = static_cast<const ir::NestedSDFGNode*>(s->node(id));
  ASSERT_NE(moved, nullptr);
  EXPECT_TRUE(moved->in_connectors.count("K"));
  EXPECT_TRUE(moved->sdfg->arrays.count("K"));
  EXPECT_FALSE(moved->symbol_mapping.count("K")) << "K is a container, not a symbol";
  const int64_t N = 4, M = 1, K = 5;
  std::vector<double> a{1, 30, -4, 99}, bv((M + 1) * (N + 1), 0), want = a;
  a.resize(N + M, 0);
  want.resize(N + M, 0);
  std::vector<int64_t> k{K};
  for (int64_t i = 0; i < K; ++i)
    for (int64_t j = 0; j < N; ++j)
      if (want[static_cast<size_t>(j)] < 100) want[static_cast<size_t>(j)] = want[static_cast<size_t>(j)] * 2 + static_cast<double>(i);
  Status v = analysis::validate(*l.g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<codegen::testing::CompiledProgram> p = codegen::testing::compile(*l.g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  Status r = codegen::testing::run(*p, {{"A", codegen::testing::ArgValue::pointer(a.data())},
                                         {"B", codegen::testing::ArgValue::pointer(bv.data())},
                                         {"K", codegen::testing::ArgValue::scalar<int64_t>(K)},
                                         {"N", codegen::testing::ArgValue::scalar<int64_t>(N)},
                                         {"M", codegen::testing::ArgValue::scalar<int64_t>(M)}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(a, want);
}

TEST(TransformMoveLoopIntoMap, RefusesAMapWritingWhatTheHeaderReads) {
  // for i < K: map j: ...; K = B[0, j]: the map changes the trip count.
  Loop l = nested_body_loop(true);
  const std::string r = why(*l.g);
  EXPECT_NE(r.find("the map writes 'K', which the loop header reads"), std::string::npos) << r;
}

// for i in [0, M): map r in [0, M + 1): map c in [0, N): B[r, c] = B[r, c] * 0.5 + A[c] * i
// with `written` as B's index in the nested map (the map over rows writes row r).
Loop nested_maps(const std::string& written) {
  Loop l = make_loop("0", "(i < M)", "(i + 1)");
  ir::State& s = *l.body;
  auto [oen, oex] = map(s, {"r"}, "0:M + 1");
  auto [ien, iex] = map(s, {"c"}, "0:N");
  const int t = tasklet(s, "y = b * 0.5 + a * i", {"a", "b"}, {"y"});
  edge_in(s, access(s, "A"), oen, ien, "IN_A", "A[0:N]", "A[0:N]");
  edge(s, ien, "OUT_A", t, "a", "A[c]");
  edge_in(s, access(s, "B"), oen, ien, "IN_B", "B[0:M + 1, 0:N]", "B[r, 0:N]");
  edge(s, ien, "OUT_B", t, "b", "B[r, c]");
  for (const char* x : {"A", "B"}) {
    s.node(ien)->in_connectors[std::string("IN_") + x] = ir::DType{};
    s.node(ien)->out_connectors[std::string("OUT_") + x] = ir::DType{};
  }
  s.node(iex)->in_connectors["IN_B"] = ir::DType{};
  s.node(iex)->out_connectors["OUT_B"] = ir::DType{};
  edge(s, t, "y", iex, "IN_B", "B[" + written + "]");
  edge_out(s, iex, "OUT_B", oex, access(s, "B"), "B[r, 0:N]", "B[0:M + 1, 0:N]");
  return l;
}

TEST(TransformMoveLoopIntoMap, NestedMapMovesIntoTheLoop) {
  // The loop moves between the two maps: map r: for i: map c: ... (each row's data stays in
  // cache for all loop iterations while the inner map over c keeps its stride-1 accesses).
  Loop l = nested_maps("r, c");
  ASSERT_TRUE(apply_once(*l.g, "MoveLoopIntoMap"));
  for (int b : l.g->block_slots()) EXPECT_NE(l.g->block(b)->kind, ir::BlockKind::Loop);
  EXPECT_EQ(count_nodes(*l.g, ir::NodeKind::NestedSDFG), 1);
  const int64_t N = 5, M = 3;
  std::vector<double> a(N + M), bv((M + 1) * (N + 1));
  for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<double>(k) - 2.0;
  for (size_t k = 0; k < bv.size(); ++k) bv[k] = static_cast<double>(k % 7) + 0.25;
  std::vector<double> want = bv;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t r = 0; r < M + 1; ++r)
      for (int64_t c = 0; c < N; ++c) {
        double& x = want[static_cast<size_t>(r * (N + 1) + c)];
        x = x * 0.5 + a[static_cast<size_t>(c)] * static_cast<double>(i);
      }
  run_sdfg(*l.g, {{"A", &a}, {"B", &bv}}, {{"N", N}, {"M", M}});
  EXPECT_EQ(bv, want);
}

TEST(TransformMoveLoopIntoMap, RefusesANestedMapWritingAcrossOuterIterations) {
  // B[r + c, 0]: iteration r of the outer map writes rows r .. r + N - 1, which other rows'
  // iterations read in later loop iterations.
  Loop l = nested_maps("r + c, 0");
  const std::string r = why(*l.g);
  EXPECT_NE(r.find("depends on the map's and a nested map's parameters"), std::string::npos) << r;
}

}  // namespace
}  // namespace dace::transform::testing
