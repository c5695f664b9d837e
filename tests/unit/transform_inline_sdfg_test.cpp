// InlineSDFG and the InlineSDFGs pass on hand-built SDFGs: a nested SDFG inside a map (memlets
// offset into the outer subset, a symbol mapping substituted into ranges) and one at top
// level with a transient whose name clashes, checked against plain C++ loops; refused for
// several states, mismatching strides and a mapped symbol used in tasklet code. DaCe-written
// frontend SDFGs with nested SDFGs are simplified and still compute NumPy's outputs.
#include <gtest/gtest.h>

#include <filesystem>

#include "codegen_test_builder.h"
#include "corpus_case.h"
#include "ir/json/sdfg_json.h"
#include "transform/history.h"
#include "transform/inline_sdfgs.h"
#include "transform/simplify.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

// B[2i + k] = A[2i + k] * 2 + k for k < L, inside a map over i; the nested SDFG sees blocks of
// L = 2 elements through x and y, and L is mapped to the constant 2.
// `code` replaces the tasklet, `strides` the inner strides of x (2-D variant below).
std::unique_ptr<ir::SDFG> blocked(const std::string& code = "o = v * 2 + k", bool two_states = false,
                                  const std::string& l_value = "2") {
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "inner";
  inner->symbols["L"] = ir::DType::of(T::Int64);
  add_array(*inner, "x", T::Float64, {"L"});
  add_array(*inner, "y", T::Float64, {"L"});
  int first = 0;
  ir::State& is = add_state(*inner, *inner, "is", &first);
  auto [entry, exit] = map(is, {"k"}, "0:L");
  int t = tasklet(is, code, {"v"}, {"o"});
  edge_in(is, access(is, "x"), entry, t, "v", "x[0:L]", "x[k]");
  edge_out(is, t, "o", exit, access(is, "y"), "y[k]", "y[0:L]");
  if (two_states) {
    int second = 0;
    add_state(*inner, *inner, "after", &second);
    add_interstate(*inner, first, second);
  }
  auto g = std::make_unique<ir::SDFG>();
  g->name = "outer";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"2*N"});
  add_array(*g, "B", T::Float64, {"2*N"});
  ir::State& s = add_state(*g, *g, "s");
  auto [oentry, oexit] = map(s, {"i"}, "0:N");
  int n = add_nested(s, std::move(inner), {"x"}, {"y"}, {{"L", l_value}});
  edge_in(s, access(s, "A"), oentry, n, "x", "A[0:2*N]", "A[2*i:2*i+2]");
  edge_out(s, n, "y", oexit, access(s, "B"), "B[2*i:2*i+2]", "B[0:2*N]");
  return g;
}

TEST(TransformInlineSDFG, InlinesANestedSdfgInsideAMap) {
  auto g = blocked();
  ASSERT_TRUE(apply_once(*g, "InlineSDFG"));
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::NestedSDFG), 0);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::MapEntry), 2);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::Access), 2);  // only the outer A and B
  const int64_t n = 9;
  std::vector<double> a(2 * n), b(2 * n, -1);
  for (int64_t i = 0; i < 2 * n; ++i) a[i] = 0.5 + static_cast<double>(i * i % 7);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < 2; ++k) EXPECT_EQ(b[2 * i + k], a[2 * i + k] * 2 + static_cast<double>(k));
}

// tmp = x + 1 (a transient of the nested SDFG); y = tmp * 3. The outer SDFG already has a
// container named tmp (its own result), so the inner one is renamed inner_tmp.
std::unique_ptr<ir::SDFG> with_transient() {
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "inner";
  inner->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*inner, "x", T::Float64, {"M"});
  add_array(*inner, "y", T::Float64, {"M"});
  add_array(*inner, "tmp", T::Float64, {"M"}, true);
  ir::State& is = add_state(*inner, *inner, "is");
  {
    auto [e1, x1] = map(is, {"j"}, "0:M");
    int t1 = tasklet(is, "o = v + 1", {"v"}, {"o"});
    edge_in(is, access(is, "x"), e1, t1, "v", "x[0:M]", "x[j]");
    const int tmp = access(is, "tmp");
    edge_out(is, t1, "o", x1, tmp, "tmp[j]", "tmp[0:M]");
    auto [e2, x2] = map(is, {"j"}, "0:M");
    int t2 = tasklet(is, "o = v * 3", {"v"}, {"o"});
    edge_in(is, tmp, e2, t2, "v", "tmp[0:M]", "tmp[j]");
    edge_out(is, t2, "o", x2, access(is, "y"), "y[j]", "y[0:M]");
  }
  auto g = std::make_unique<ir::SDFG>();
  g->name = "outer";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "N"});
  add_array(*g, "tmp", T::Float64, {"N"});
  ir::State& s = add_state(*g, *g, "s");
  // The nested SDFG reads row 1 of A and writes tmp[1:N].
  int n = add_nested(s, std::move(inner), {"x"}, {"y"}, {{"M", "N - 1"}});
  edge(s, access(s, "A"), "", n, "x", "A[1, 1:N]");
  edge(s, n, "y", access(s, "tmp"), "", "tmp[1:N]");
  return g;
}

TEST(TransformInlineSDFG, RenamesAClashingTransientAndUnsqueezesTheOuterSubset) {
  auto g = with_transient();
  ASSERT_TRUE(apply_once(*g, "InlineSDFG"));
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::NestedSDFG), 0);
  ASSERT_EQ(g->arrays.count("inner_tmp"), 1u);
  EXPECT_TRUE(g->arrays.at("inner_tmp").transient);
  const int64_t n = 5;
  std::vector<double> a(n * n), t(n, -7);
  for (int64_t i = 0; i < n * n; ++i) a[i] = static_cast<double>(i) * 0.25;
  run_sdfg(*g, {{"A", &a}, {"tmp", &t}}, {{"N", n}});
  EXPECT_EQ(t[0], -7);
  for (int64_t j = 1; j < n; ++j) EXPECT_EQ(t[j], (a[n + j] + 1) * 3);
}

TEST(TransformInlineSDFG, InlineSDFGsPassIsDeterministicAndRecordsItsEntry) {
  auto g = with_transient();
  auto h = with_transient();
  for (ir::SDFG* x : {g.get(), h.get()}) {
    AnalysisManager am;
    InlineSDFGs pass;
    Result<bool> r = run_pass(*x, pass, am);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_TRUE(*r);
  }
  EXPECT_EQ(ir::json::write_sdfg(*g), ir::json::write_sdfg(*h));
  const std::vector<HistoryEntry> hist = history_of(*g);
  ASSERT_EQ(hist.size(), 1u);
  EXPECT_EQ(hist[0].transformation, "InlineSDFGs");
  EXPECT_NE(hist[0].properties.find("\"multistate\":true"), std::string::npos) << hist[0].properties;
}

TEST(TransformInlineSDFG, RefusesSeveralStates) {
  auto g = blocked("o = v * 2 + k", true);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "InlineSDFG", &why));
  EXPECT_NE(why.find("not a single state"), std::string::npos) << why;
}

TEST(TransformInlineSDFG, RewritesAMappedSymbolInTaskletCode) {
  auto g = blocked("o = v * L + k");
  ASSERT_TRUE(apply_once(*g, "InlineSDFG"));
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::NestedSDFG), 0);
  const int64_t n = 4;
  std::vector<double> a(2 * n), b(2 * n, -1);
  for (int64_t i = 0; i < 2 * n; ++i) a[i] = 1.5 * static_cast<double>(i) - 3;
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  for (int64_t i = 0; i < 2 * n; ++i) EXPECT_EQ(b[i], a[i] * 2 + static_cast<double>(i % 2));
}

TEST(TransformInlineSDFG, RefusesASymbolMappedIntoTaskletCodeWhenNotPrintable) {
  auto g = blocked("o = v * L + k", false, "Min(N, 2)");
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "InlineSDFG", &why));
  EXPECT_NE(why.find("cannot be rewritten"), std::string::npos) << why;
}

// A tasklet whose local variable has the mapped symbol's name: replacing the reads but not the
// assignment would change what it computes, and renaming the assignment is not code.
TEST(TransformInlineSDFG, RefusesASymbolMappedIntoTaskletCodeThatAssignsIt) {
  auto g = blocked("L = v * 2\no = L + k");
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "InlineSDFG", &why));
  EXPECT_NE(why.find("cannot be rewritten"), std::string::npos) << why;
}

// S[0] += A[i] * 2 for every i of a map, the addition done by a nested SDFG whose inner write
// carries the same WCR as the outer memlet (as DaCe's frontend writes it). `inner_wcr` false
// drops the inner WCR: inlining would then lose the reduction.
std::unique_ptr<ir::SDFG> reduction(bool inner_wcr) {
  const std::string sum = "lambda a, b: a + b";
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "inner";
  add_array(*inner, "x", T::Float64, {"1"});
  add_array(*inner, "y", T::Float64, {"1"});
  ir::State& is = add_state(*inner, *inner, "is");
  int t = tasklet(is, "o = v * 2", {"v"}, {"o"});
  edge(is, access(is, "x"), "", t, "v", "x[0]");
  edge(is, t, "o", access(is, "y"), "", "y[0]", inner_wcr ? sum : "");
  auto g = std::make_unique<ir::SDFG>();
  g->name = "outer";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "S", T::Float64, {"1"});
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i"}, "0:N");
  int n = add_nested(s, std::move(inner), {"x"}, {"y"}, {});
  edge_in(s, access(s, "A"), entry, n, "x", "A[0:N]", "A[i]");
  edge_out(s, n, "y", exit, access(s, "S"), "S[0]", "S[0]", sum);
  return g;
}

TEST(TransformInlineSDFG, InlinesAWriteWithTheOuterWcr) {
  auto g = reduction(true);
  ASSERT_TRUE(apply_once(*g, "InlineSDFG"));
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::NestedSDFG), 0);
  const int64_t n = 6;
  std::vector<double> a{1, 2, 3, 4, 5, 6}, sum{10};
  run_sdfg(*g, {{"A", &a}, {"S", &sum}}, {{"N", n}});
  double expect = 10;
  for (double v : a) expect += v * 2;
  EXPECT_EQ(sum[0], expect);
}

TEST(TransformInlineSDFG, RefusesAnInnerWriteWithoutTheOuterWcr) {
  auto g = reduction(false);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "InlineSDFG", &why));
  EXPECT_NE(why.find("without the WCR"), std::string::npos) << why;
}

TEST(TransformInlineSDFG, RefusesMismatchingStrides) {
  // The inner x is a 2 x M column-major view of what the outer passes row-major: inlining
  // would read the wrong elements.
  auto g = with_transient();
  ir::State& s = *g->all_states()[0];
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::NestedSDFG) {
      ir::SDFG& inner = *static_cast<ir::NestedSDFGNode*>(s.node(id))->sdfg;
      inner.arrays.at("x").strides = {E("2")};
    }
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "InlineSDFG", &why));
  EXPECT_NE(why.find("strides"), std::string::npos) << why;
}

// DaCe-written frontend programs whose SDFGs nest others: simplify inlines what became single
// states and the result still computes NumPy's outputs.
TEST(TransformInlineSDFG, FrontendProgramsStillMatchNumPyAfterSimplify) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(LIBDACE_SOURCE_DIR) / "tests" / "data" / "frontend";
  int inlined_somewhere = 0;
  // (layouts, also inlined, has strided arguments this runner does not lay out; it is checked
  // with `dace run --case` instead.)
  for (const char* name : {"einsum_matmul", "nested_calls", "histogram", "explicit_map_wcr"}) {
    SCOPED_TRACE(name);
    const fs::path dir = root / name;
    Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file((dir / (std::string(name) + ".raw.sdfgz")).string());
    ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
    ir::SDFG& g = **sdfg;
    AnalysisManager am;
    Result<bool> r = run_pass(g, *make_simplify_pipeline(), am);
    ASSERT_TRUE(r.ok()) << r.error().message;
    for (const HistoryEntry& e : history_of(g)) inlined_somewhere += e.transformation == "InlineSDFGs";
    Result<CompiledProgram> prog = compile(g);
    ASSERT_TRUE(prog.ok()) << prog.error().message;
    run_corpus_case(dir.string(), g, *prog);
  }
  EXPECT_GT(inlined_somewhere, 0);
}

}  // namespace
}  // namespace dace::transform::testing
