// ScalarToSymbolPromotion on hand-built SDFGs: promoted scalars become symbols assigned on
// interstate edges (also inside loop bodies and conditional branches), the programs still
// compute what plain C++ computes; scalars written in a
// map, written twice in a state, computed from data written in the same state, or not
// integers (unless interstate code reads them) stay, and the refusal names the scalar.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include "codegen_test_builder.h"
#include "transform/scalar_to_symbol.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

bool run_promotion(ir::SDFG& g, bool integers_only = true) {
  ScalarToSymbolPromotion p;
  EXPECT_TRUE(p.properties().set_from_json(integers_only ? "{}" : R"({"integers_only": false})").ok());
  AnalysisManager am;
  Result<bool> r = run_pass(g, p, am);
  EXPECT_TRUE(r.ok()) << r.error().message;
  Status v = analysis::validate(g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return r.ok() && *r;
}

void write_n_minus_2(ir::State& first) {
  int w = tasklet(first, "o = N - 2", {}, {"o"});
  edge(first, w, "o", access(first, "k"), "", "k[0]");
}

// s0: `writer` (by default k = N - 2, k a transient scalar of type `t`); s1: B[i] = A[i] * k
// for i in 0:N.
std::unique_ptr<ir::SDFG> scale_program(T t, const std::function<void(ir::State&)>& writer = write_n_minus_2) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "promote";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  add_scalar(*g, "k", t, true);
  int s0 = 0, s1 = 0;
  add_array(*g, "C", T::Int64, {"1"}, true);
  writer(add_state(*g, *g, "s0", &s0));
  ir::State& second = add_state(*g, *g, "s1", &s1);
  auto [entry, exit] = map(second, {"i"}, "0:N");
  int t2 = tasklet(second, "y = x * kv", {"x", "kv"}, {"y"});
  edge_in(second, access(second, "A"), entry, t2, "x", "A[0:N]", "A[i]");
  edge_in(second, access(second, "k"), entry, t2, "kv", "k[0]", "k[0]");
  edge_out(second, t2, "y", exit, access(second, "B"), "B[i]", "B[0:N]");
  add_interstate(*g, s0, s1);
  return g;
}

std::string assignment_of(const ir::SDFG& g, const std::string& symbol) {
  for (int es : g.edge_slots())
    for (const auto& [lhs, rhs] : g.edge(es)->assignments)
      if (lhs == symbol) return rhs;
  return "";
}

TEST(TransformScalarToSymbol, AnIntegerScalarBecomesASymbol) {
  auto g = scale_program(T::Int64);
  ASSERT_TRUE(run_promotion(*g));
  EXPECT_EQ(g->arrays.count("k"), 0u);
  ASSERT_EQ(g->symbols.count("k"), 1u);
  EXPECT_EQ(g->symbols.at("k"), ir::DType::of(T::Int64));
  EXPECT_EQ(assignment_of(*g, "k"), "(N - 2)");
  // DaCe's state fission: a new state before s0 carries the assignment; s0 is empty now.
  EXPECT_EQ(g->block_slots().size(), 3u);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::Tasklet), 1);
  const int64_t n = 7;
  std::vector<double> a(n), b(n, 0.0);
  for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i)] = 0.5 * static_cast<double>(i) - 1.0;
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  for (int64_t i = 0; i < n; ++i)
    EXPECT_DOUBLE_EQ(b[static_cast<size_t>(i)], a[static_cast<size_t>(i)] * static_cast<double>(n - 2)) << i;
}

TEST(TransformScalarToSymbol, AFloatScalarStaysUnlessIntegersOnlyIsOff) {
  auto g = scale_program(T::Float64);
  std::map<std::string, std::string> why;
  EXPECT_TRUE(find_promotable_scalars(*g, true, true, &why).empty());
  EXPECT_NE(why["k"].find("'k' is not an integer"), std::string::npos) << why["k"];
  EXPECT_FALSE(run_promotion(*g));
  EXPECT_EQ(g->arrays.count("k"), 1u);
  ASSERT_TRUE(run_promotion(*g, /*integers_only=*/false));
  EXPECT_EQ(g->symbols.at("k"), ir::DType::of(T::Float64));
}

// s0: k = A[0] + 1 (int64 A) ; edges s0 -> s1 if k > 2, s0 -> s2 otherwise; s1: B[0] = 10,
// s2: B[0] = 20. The condition reads the symbol afterwards.
TEST(TransformScalarToSymbol, ConditionsReadTheSymbol) {
  for (int64_t a0 : {1, 5}) {
    auto g = std::make_unique<ir::SDFG>();
    g->name = "branch";
    add_array(*g, "A", T::Int64, {"1"});
    add_array(*g, "B", T::Float64, {"1"});
    add_scalar(*g, "k", T::Int64, true);
    int s0 = 0, s1 = 0, s2 = 0;
    ir::State& first = add_state(*g, *g, "s0", &s0);
    int w = tasklet(first, "o = a + 1", {"a"}, {"o"});
    edge(first, access(first, "A"), "", w, "a", "A[0]");
    edge(first, w, "o", access(first, "k"), "", "k[0]");
    for (auto [slot, value] : {std::pair<int*, const char*>{&s1, "10"}, {&s2, "20"}}) {
      ir::State& st = add_state(*g, *g, std::string("set_") + value, slot);
      int t = tasklet(st, std::string("o = ") + value, {}, {"o"});
      edge(st, t, "o", access(st, "B"), "", "B[0]");
    }
    add_interstate(*g, s0, s1, "k > 2");
    add_interstate(*g, s0, s2, "not (k > 2)");
    ASSERT_TRUE(run_promotion(*g));
    EXPECT_EQ(assignment_of(*g, "k"), "(A[0] + 1)");  // A is an array: its element is read
    std::vector<double> b{0.0};
    std::vector<double> a_bits{0.0};
    int64_t a_value = a0;
    std::memcpy(a_bits.data(), &a_value, sizeof a_value);
    run_sdfg(*g, {{"A", &a_bits}, {"B", &b}}, {});
    EXPECT_DOUBLE_EQ(b[0], a0 + 1 > 2 ? 10.0 : 20.0) << a0;
  }
}

TEST(TransformScalarToSymbol, AScalarWrittenInsideAMapStays) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "inmap";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "B", T::Float64, {"N"});
  add_scalar(*g, "k", T::Int64, true);
  ir::State& s = add_state(*g, *g, "s0");
  auto [entry, exit] = map(s, {"i"}, "0:N");
  int w = tasklet(s, "o = i * 2", {}, {"o"});
  edge(s, entry, "", w, "", "");
  int k = access(s, "k");
  edge(s, w, "o", k, "", "k[0]");
  int r = tasklet(s, "y = kv + 1", {"kv"}, {"y"});
  edge(s, k, "", r, "kv", "k[0]");
  edge_out(s, r, "y", exit, access(s, "B"), "B[i]", "B[0:N]");
  std::map<std::string, std::string> why;
  EXPECT_TRUE(find_promotable_scalars(*g, true, true, &why).empty());
  EXPECT_NE(why["k"].find("'k' in state 's0' is written inside a map"), std::string::npos) << why["k"];
  EXPECT_FALSE(run_promotion(*g));
  std::vector<double> b(4, 0.0);
  run_sdfg(*g, {{"B", &b}}, {{"N", 4}});
  for (int i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(b[static_cast<size_t>(i)], 2.0 * i + 1.0);
}

TEST(TransformScalarToSymbol, AScalarWrittenTwiceInAStateStays) {
  auto g = scale_program(T::Int64);
  ir::State& first = static_cast<ir::State&>(*g->block(g->block_slots()[0]));
  int w = tasklet(first, "o = 3", {}, {"o"});
  edge(first, w, "o", access(first, "k"), "", "k[0]");
  std::map<std::string, std::string> why;
  EXPECT_TRUE(find_promotable_scalars(*g, true, true, &why).empty());
  EXPECT_NE(why["k"].find("written more than once in the state"), std::string::npos) << why["k"];
}

TEST(TransformScalarToSymbol, InputsWrittenInTheSameStateOrAttributeCallsStay) {
  {
    // C[0] = 4; k = C[0] in one state: the assignment cannot move before the state. (C, a
    // one-element transient written once, is promotable itself.)
    auto g = scale_program(T::Int64, [](ir::State& s) {
      int c = access(s, "C");
      int init = tasklet(s, "o = 4", {}, {"o"});
      edge(s, init, "o", c, "", "C[0]");
      int copy = tasklet(s, "o = x", {"x"}, {"o"});
      edge(s, c, "", copy, "x", "C[0]");
      edge(s, copy, "o", access(s, "k"), "", "k[0]");
    });
    std::map<std::string, std::string> why;
    EXPECT_EQ(find_promotable_scalars(*g, true, true, &why), std::set<std::string>{"C"});
    EXPECT_NE(why["k"].find("unwritten in the state"), std::string::npos) << why["k"];
  }
  {
    auto g = scale_program(T::Int64, [](ir::State& s) {
      int w = tasklet(s, "o = math.floor(N / 2)", {}, {"o"});
      edge(s, w, "o", access(s, "k"), "", "k[0]");
    });
    std::map<std::string, std::string> why;
    EXPECT_TRUE(find_promotable_scalars(*g, true, true, &why).empty());
    EXPECT_NE(why["k"].find("attribute call"), std::string::npos) << why["k"];
  }
}

TEST(TransformScalarToSymbol, LiteralCastsAreFoldedIntoTheAssignment) {
  auto g = scale_program(T::Int64, [](ir::State& s) {
    int w = tasklet(s, "o = N - dace.int64(2)", {}, {"o"});
    edge(s, w, "o", access(s, "k"), "", "k[0]");
  });
  ASSERT_TRUE(run_promotion(*g));
  EXPECT_EQ(assignment_of(*g, "k"), "(N - 2)");
}

// The assignment of `symbol` on an edge of `r` (empty when none).
std::string assignment_in(const ir::ControlFlowRegion& r, const std::string& symbol) {
  for (int es : r.edge_slots())
    for (const auto& [lhs, rhs] : r.edge(es)->assignments)
      if (lhs == symbol) return rhs;
  return "";
}

// k = `code` into the transient scalar k, alone in state `label` of `r`.
ir::State& write_k(ir::ControlFlowRegion& r, ir::SDFG& g, const std::string& label, const std::string& code,
                   int* slot) {
  ir::State& s = add_state(r, g, label, slot);
  const int w = tasklet(s, "o = " + code, {}, {"o"});
  edge(s, w, "o", access(s, "k"), "", "k[0]");
  return s;
}

// B[i] = A[i] * k for i in 0:N.
void scale_by_k(ir::State& s) {
  auto [entry, exit] = map(s, {"i"}, "0:N");
  const int t = tasklet(s, "y = x * kv", {"x", "kv"}, {"y"});
  edge_in(s, access(s, "A"), entry, t, "x", "A[0:N]", "A[i]");
  edge_in(s, access(s, "k"), entry, t, "kv", "k[0]", "k[0]");
  edge_out(s, t, "y", exit, access(s, "B"), "B[i]", "B[0:N]");
}

std::unique_ptr<ir::SDFG> arrays_and_k(const std::string& name) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = name;
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  add_scalar(*g, "k", T::Int64, true);
  return g;
}

// for (i = 0; i < N; i++) { k = i * 2 + 1; B[i] = A[i] * k }: the write is the body's first
// state, so the new state carrying the assignment becomes the loop body's entry.
TEST(TransformScalarToSymbol, AScalarWrittenInALoopBodyBecomesASymbolThere) {
  auto g = arrays_and_k("promote_loop");
  const TestLoop t = add_test_loop(*g, "for_1", "0", "(i < N)", "(i + 1)");
  int w = 0, r = 0;
  write_k(*t.loop, *g, "w", "i * 2 + 1", &w);
  ir::State& read = add_state(*t.loop, *g, "r", &r);
  const int x = tasklet(read, "y = x * kv", {"x", "kv"}, {"y"});
  edge(read, access(read, "A"), "", x, "x", "A[i]");
  edge(read, access(read, "k"), "", x, "kv", "k[0]");
  edge(read, x, "y", access(read, "B"), "", "B[i]");
  add_interstate(*t.loop, w, r);
  ASSERT_TRUE(run_promotion(*g));
  EXPECT_EQ(g->arrays.count("k"), 0u);
  EXPECT_EQ(g->symbols.count("k"), 1u);
  EXPECT_EQ(assignment_in(*t.loop, "k"), "(i * 2 + 1)");
  EXPECT_EQ(t.loop->block_slots().size(), 3u);
  const int64_t n = 6;
  std::vector<double> a(n), b(n, 0.0);
  for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i)] = 1.5 - static_cast<double>(i);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  for (int64_t i = 0; i < n; ++i)
    EXPECT_DOUBLE_EQ(b[static_cast<size_t>(i)], a[static_cast<size_t>(i)] * static_cast<double>(2 * i + 1)) << i;
}

// if (N > 3) k = N - 1; else k = 2;  then B[i] = A[i] * k: each branch's write moves to an
// assignment inside its branch.
TEST(TransformScalarToSymbol, AScalarWrittenInBranchesBecomesASymbol) {
  auto g = arrays_and_k("promote_branches");
  int s0 = 0, c = 0, s2 = 0;
  add_state(*g, *g, "s0", &s0);
  auto cond = std::make_unique<ir::ConditionalBlock>();
  cond->label = "if_N";
  std::vector<ir::ControlFlowRegion*> branches;
  for (const auto& [test, value] : {std::pair<std::string, std::string>{"N > 3", "N - 1"}, {"", "2"}}) {
    auto branch = std::make_unique<ir::ControlFlowRegion>();
    branch->label = test.empty() ? "else" : "then";
    int slot = 0;
    write_k(*branch, *g, "set_" + branch->label, value, &slot);
    g->register_block(*branch);
    branches.push_back(branch.get());
    std::optional<ir::CodeBlock> code;
    if (!test.empty()) code = ir::CodeBlock{test, ir::Language::Python};
    cond->branches.emplace_back(std::move(code), std::move(branch));
  }
  g->register_block(*cond);
  c = g->add_block(std::move(cond));
  scale_by_k(add_state(*g, *g, "s2", &s2));
  add_interstate(*g, s0, c);
  add_interstate(*g, c, s2);
  ir::relink_parents(*g);  // branch regions point to the region of their conditional block
  ASSERT_TRUE(run_promotion(*g));
  EXPECT_EQ(g->arrays.count("k"), 0u);
  EXPECT_EQ(assignment_in(*branches[0], "k"), "(N - 1)");
  EXPECT_EQ(assignment_in(*branches[1], "k"), "2");
  for (int64_t n : {2, 5}) {
    std::vector<double> a(static_cast<size_t>(n)), b(static_cast<size_t>(n), 0.0);
    for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i)] = 0.25 * static_cast<double>(i) + 1.0;
    run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
    const double k = n > 3 ? static_cast<double>(n - 1) : 2.0;
    for (int64_t i = 0; i < n; ++i) EXPECT_DOUBLE_EQ(b[static_cast<size_t>(i)], a[static_cast<size_t>(i)] * k) << n;
  }
}

// A loop whose bound is a scalar written before it: `for (i = 0; i < k[0]; i++) B[i] = A[i]`
// with k = N - 1. The loop header reads the symbol afterwards.
TEST(TransformScalarToSymbol, ALoopHeaderReadingTheScalarReadsTheSymbol) {
  auto g = arrays_and_k("promote_bound");
  int s0 = 0;
  write_k(*g, *g, "s0", "N - 1", &s0);
  const TestLoop t = add_test_loop(*g, "for_1", "0", "(i < k[0])", "(i + 1)");
  add_interstate(*g, s0, t.start);
  ir::State& body = add_state(*t.loop, *g, "body");
  const int x = tasklet(body, "y = x", {"x"}, {"y"});
  edge(body, access(body, "A"), "", x, "x", "A[i]");
  edge(body, x, "y", access(body, "B"), "", "B[i]");
  ASSERT_TRUE(run_promotion(*g));
  EXPECT_EQ(t.loop->loop_condition.code, "(i < k)");
  const int64_t n = 5;
  std::vector<double> a{1, 2, 3, 4, 5}, b(n, -1.0);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  for (int64_t i = 0; i < n; ++i) EXPECT_DOUBLE_EQ(b[static_cast<size_t>(i)], i < n - 1 ? a[static_cast<size_t>(i)] : -1.0) << i;
}

// s0: k = N - 2; s1: a nested SDFG reads k through connector `kk` (a scalar inside) and
// computes B[i] = A[i] * kk in a map. DaCe descends: inside, `kk` becomes the symbol `k`, set
// by the symbol mapping; `kk[0]` in an inner interstate condition reads it too.
TEST(TransformScalarToSymbol, ANestedSdfgReadingTheScalarReadsTheSymbol) {
  auto g = arrays_and_k("promote_nested");
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "inner";
  inner->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*inner, "A", T::Float64, {"N"});
  add_array(*inner, "B", T::Float64, {"N"});
  add_scalar(*inner, "kk", T::Int64);
  int i0 = 0, i1 = 0;
  add_state(*inner, *inner, "guard", &i0);
  ir::State& is = add_state(*inner, *inner, "scale", &i1);
  {
    auto [entry, exit] = map(is, {"i"}, "0:N");
    const int t = tasklet(is, "y = x * kv", {"x", "kv"}, {"y"});
    edge_in(is, access(is, "A"), entry, t, "x", "A[0:N]", "A[i]");
    edge_in(is, access(is, "kk"), entry, t, "kv", "kk[0]", "kk[0]");
    edge_out(is, t, "y", exit, access(is, "B"), "B[i]", "B[0:N]");
  }
  add_interstate(*inner, i0, i1, "kk[0] > 0");
  int s0 = 0, s1 = 0;
  write_k(*g, *g, "s0", "N - 2", &s0);
  ir::State& s = add_state(*g, *g, "s1", &s1);
  auto nn = std::make_unique<ir::NestedSDFGNode>();
  nn->label = "inner";
  for (const char* c : {"A", "kk"}) nn->in_connectors[c] = ir::DType{};
  nn->out_connectors["B"] = ir::DType{};
  nn->symbol_mapping["N"] = E("N");
  inner->parent_node = nn.get();
  nn->sdfg = std::move(inner);
  ir::NestedSDFGNode* node = nn.get();
  const int n = s.add_node(std::move(nn));
  edge(s, access(s, "A"), "", n, "A", "A[0:N]");
  edge(s, access(s, "k"), "", n, "kk", "k[0]");
  edge(s, n, "B", access(s, "B"), "", "B[0:N]");
  add_interstate(*g, s0, s1);
  ASSERT_TRUE(run_promotion(*g));
  EXPECT_EQ(g->arrays.count("k"), 0u);
  EXPECT_EQ(node->sdfg->arrays.count("kk"), 0u);
  EXPECT_EQ(node->in_connectors.count("kk"), 0u);
  EXPECT_EQ(node->sdfg->symbols.count("k"), 1u);
  ASSERT_EQ(node->symbol_mapping.count("k"), 1u);
  EXPECT_EQ(sym::to_string(node->symbol_mapping.at("k")), "k");
  for (int64_t n_value : {5, 1}) {
    std::vector<double> a(static_cast<size_t>(n_value)), b(static_cast<size_t>(n_value), -1.0);
    for (int64_t i = 0; i < n_value; ++i) a[static_cast<size_t>(i)] = 2.0 + static_cast<double>(i);
    run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n_value}});
    const double k = static_cast<double>(n_value - 2);
    for (int64_t i = 0; i < n_value; ++i)
      EXPECT_DOUBLE_EQ(b[static_cast<size_t>(i)], k > 0 ? a[static_cast<size_t>(i)] * k : -1.0) << n_value;
  }
}

// The nested SDFG also writes its copy of the scalar: the inside cannot become a symbol.
TEST(TransformScalarToSymbol, ANestedSdfgWritingItsCopyKeepsTheScalar) {
  auto g = arrays_and_k("promote_nested_write");
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "inner";
  add_array(*inner, "B", T::Float64, {"1"});
  add_scalar(*inner, "kk", T::Int64);
  ir::State& is = add_state(*inner, *inner, "s");
  const int w = tasklet(is, "o = 3", {}, {"o"});
  const int kk = access(is, "kk");
  edge(is, w, "o", kk, "", "kk[0]");
  const int t = tasklet(is, "y = kv", {"kv"}, {"y"});
  edge(is, kk, "", t, "kv", "kk[0]");
  edge(is, t, "y", access(is, "B"), "", "B[0]");
  int s0 = 0, s1 = 0;
  write_k(*g, *g, "s0", "N - 2", &s0);
  ir::State& s = add_state(*g, *g, "s1", &s1);
  auto nn = std::make_unique<ir::NestedSDFGNode>();
  nn->label = "inner";
  nn->in_connectors["kk"] = ir::DType{};
  nn->out_connectors["B"] = ir::DType{};
  inner->parent_node = nn.get();
  nn->sdfg = std::move(inner);
  const int n = s.add_node(std::move(nn));
  edge(s, access(s, "k"), "", n, "kk", "k[0]");
  edge(s, n, "B", access(s, "B"), "", "B[0]");
  add_interstate(*g, s0, s1);
  std::map<std::string, std::string> why;
  EXPECT_TRUE(find_promotable_scalars(*g, true, true, &why).empty());
  EXPECT_NE(why["k"].find("which writes it"), std::string::npos) << why["k"];
}

// A transient scalar declared inside a nested SDFG (k = K - 2, K mapped to the outer N, then
// B[i] = A[i] * k inside) becomes a symbol of the nested SDFG, as DaCe's simplify promotes it
// (its SimplifyPass runs the pass on every SDFG); the nested SDFG's connector scalar `c` (not a
// transient) stays.
TEST(TransformScalarToSymbol, AScalarDeclaredInANestedSdfgBecomesItsSymbol) {
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "inner";
  inner->symbols["K"] = ir::DType::of(T::Int64);
  add_array(*inner, "x", T::Float64, {"K"});
  add_array(*inner, "y", T::Float64, {"K"});
  add_scalar(*inner, "c", T::Int64);
  add_scalar(*inner, "k", T::Int64, true);
  int i0 = 0, i1 = 0;
  ir::State& first = add_state(*inner, *inner, "s0", &i0);
  {
    const int w = tasklet(first, "o = K - 2", {}, {"o"});
    edge(first, w, "o", access(first, "k"), "", "k[0]");
  }
  ir::State& is = add_state(*inner, *inner, "s1", &i1);
  {
    auto [entry, exit] = map(is, {"i"}, "0:K");
    const int t = tasklet(is, "o = v * kv + cv", {"v", "kv", "cv"}, {"o"});
    edge_in(is, access(is, "x"), entry, t, "v", "x[0:K]", "x[i]");
    edge_in(is, access(is, "k"), entry, t, "kv", "k[0]", "k[0]");
    edge_in(is, access(is, "c"), entry, t, "cv", "c[0]", "c[0]");
    edge_out(is, t, "o", exit, access(is, "y"), "y[i]", "y[0:K]");
  }
  add_interstate(*inner, i0, i1);
  auto g = std::make_unique<ir::SDFG>();
  g->name = "promote_in_nested";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  add_array(*g, "C", T::Int64, {"1"});
  ir::State& s = add_state(*g, *g, "s");
  auto nn = std::make_unique<ir::NestedSDFGNode>();
  nn->label = "inner";
  nn->in_connectors["x"] = ir::DType{};
  nn->in_connectors["c"] = ir::DType{};
  nn->out_connectors["y"] = ir::DType{};
  nn->symbol_mapping["K"] = E("N");
  inner->parent_node = nn.get();
  nn->sdfg = std::move(inner);
  ir::NestedSDFGNode* node = nn.get();
  const int n = s.add_node(std::move(nn));
  edge(s, access(s, "A"), "", n, "x", "A[0:N]");
  edge(s, access(s, "C"), "", n, "c", "C[0]");
  edge(s, n, "y", access(s, "B"), "", "B[0:N]");
  ASSERT_TRUE(run_promotion(*g));
  EXPECT_EQ(node->sdfg->arrays.count("k"), 0u);
  ASSERT_EQ(node->sdfg->symbols.count("k"), 1u);
  EXPECT_EQ(assignment_in(*node->sdfg, "k"), "(K - 2)");
  EXPECT_EQ(node->sdfg->arrays.count("c"), 1u);
  const int64_t nv = 6;
  std::vector<double> a(nv), b(nv, -1.0), c{3};
  for (int64_t i = 0; i < nv; ++i) a[static_cast<size_t>(i)] = 0.5 + static_cast<double>(i);
  // C is int64 in the SDFG: pass its bits.
  int64_t three = 3;
  std::memcpy(c.data(), &three, sizeof three);
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &c}}, {{"N", nv}});
  for (int64_t i = 0; i < nv; ++i)
    EXPECT_DOUBLE_EQ(b[static_cast<size_t>(i)], a[static_cast<size_t>(i)] * static_cast<double>(nv - 2) + 3) << i;
}

// DaCe's last step (remove_symbol_indirection): once k = N - 2 is a symbol, a tasklet reading
// `a[k]` and `a[i + k]` through connectors whose memlets are all of A reads one element through
// a new connector; `a[j]` with j an input connector (data, not a symbol) stays.
TEST(TransformScalarToSymbol, IndirectionThroughSymbolsBecomesAMemlet) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "indirection";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"4"});
  add_array(*g, "J", T::Int64, {"1"});
  add_scalar(*g, "k", T::Int64, true);
  int s0 = 0, s1 = 0;
  write_k(*g, *g, "s0", "N - 2", &s0);
  ir::State& s = add_state(*g, *g, "s1", &s1);
  const int t = tasklet(s, "o = a[k] * 2", {"a"}, {"o"});
  const int a_node = access(s, "A");
  edge(s, a_node, "", t, "a", "A[0:N]");
  edge(s, t, "o", access(s, "B"), "", "B[0]");
  {
    auto [entry, exit] = map(s, {"i"}, "0:2");
    const int u = tasklet(s, "o = a[i + k] + 1", {"a"}, {"o"});
    edge_in(s, a_node, entry, u, "a", "A[0:N]", "A[0:N]");
    edge_out(s, u, "o", exit, access(s, "B"), "B[i + 1]", "B[1:3]");
  }
  const int w = tasklet(s, "o = a[j]", {"a", "j"}, {"o"});
  edge(s, a_node, "", w, "a", "A[0:N]");
  edge(s, access(s, "J"), "", w, "j", "J[0]");
  edge(s, w, "o", access(s, "B"), "", "B[3]");
  add_interstate(*g, s0, s1);
  ASSERT_TRUE(run_promotion(*g));
  const auto& tk = static_cast<const ir::Tasklet&>(*s.node(t));
  EXPECT_EQ(tk.in_connectors.count("a"), 0u);
  ASSERT_EQ(tk.in_connectors.count("a_0"), 1u);
  EXPECT_EQ(tk.code.code.find("a_0[") , std::string::npos) << tk.code.code;
  for (int e : s.in_edges(t)) EXPECT_EQ(ir::to_string(s.edge(e)->memlet), "A[k]");
  EXPECT_EQ(static_cast<const ir::Tasklet&>(*s.node(w)).in_connectors.count("a"), 1u);
  const int64_t n = 9;
  std::vector<double> a(n), b(4, -1), j(1);
  for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i)] = 1.5 * static_cast<double>(i) + 0.25;
  const int64_t jv = 4;
  std::memcpy(j.data(), &jv, sizeof jv);
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"J", &j}}, {{"N", n}});
  EXPECT_EQ(b[0], a[n - 2] * 2);
  EXPECT_EQ(b[1], a[n - 2] + 1);
  EXPECT_EQ(b[2], a[n - 1] + 1);
  EXPECT_EQ(b[3], a[4]);
}

// The same step for writes: `o[k + 2] = ...` and, inside a map, `o[i + k] = ...` through output
// connectors whose memlets are all of B write one element through a new connector (the map's
// through the exit's same connector); `o[j] = ...` with j an input connector stays, and so do
// a write with a WCR and an augmented write `o[k] += ...`.
TEST(TransformScalarToSymbol, IndirectWritesThroughSymbolsBecomeMemlets) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "indirect_writes";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  add_array(*g, "S", T::Float64, {"N"});
  add_array(*g, "J", T::Int64, {"1"});
  add_scalar(*g, "k", T::Int64, true);
  int s0 = 0, s1 = 0;
  write_k(*g, *g, "s0", "N - 3", &s0);
  ir::State& s = add_state(*g, *g, "s1", &s1);
  const int a_node = access(s, "A");
  const int t = tasklet(s, "o[k + 2] = a * 2", {"a"}, {"o"});
  edge(s, a_node, "", t, "a", "A[0]");
  edge(s, t, "o", access(s, "B"), "", "B[0:N]");
  int u = 0;
  {
    auto [entry, exit] = map(s, {"i"}, "0:2");
    u = tasklet(s, "o[i + k] = a + 1", {"a"}, {"o"});
    edge_in(s, a_node, entry, u, "a", "A[1:3]", "A[i + 1]");
    edge_out(s, u, "o", exit, access(s, "B"), "B[0:N]", "B[0:N]");
  }
  const int w = tasklet(s, "o[j] = a", {"a", "j"}, {"o"});
  edge(s, a_node, "", w, "a", "A[0]");
  edge(s, access(s, "J"), "", w, "j", "J[0]");
  edge(s, w, "o", access(s, "S"), "", "S[0:N]");
  const int x = tasklet(s, "o[k] = a", {"a"}, {"o"});
  edge(s, a_node, "", x, "a", "A[1]");
  edge(s, x, "o", access(s, "S"), "", "S[0:N]");
  s.edge(s.out_edges(x)[0])->memlet.wcr = "lambda x, y: x + y";
  const int y = tasklet(s, "o[k] += a", {"a"}, {"o"});
  edge(s, a_node, "", y, "a", "A[2]");
  edge(s, y, "o", access(s, "A"), "", "A[0:N]");
  add_interstate(*g, s0, s1);
  ASSERT_TRUE(run_promotion(*g));
  for (int id : {t, u}) {
    const auto& tk = static_cast<const ir::Tasklet&>(*s.node(id));
    EXPECT_EQ(tk.out_connectors.count("o"), 0u) << tk.code.code;
    ASSERT_EQ(tk.out_connectors.count("o_0"), 1u) << tk.code.code;
    EXPECT_EQ(tk.code.code.find("o_0["), std::string::npos) << tk.code.code;
  }
  for (int e : s.out_edges(t)) EXPECT_EQ(ir::to_string(s.edge(e)->memlet), "B[k + 2]");
  for (int e : s.out_edges(u)) EXPECT_EQ(ir::to_string(s.edge(e)->memlet), "B[i + k]");
  for (int id : {w, x, y}) EXPECT_EQ(static_cast<const ir::Tasklet&>(*s.node(id)).out_connectors.count("o"), 1u) << id;
  const int64_t n = 8;
  std::vector<double> a(n), b(n, -1), sv(n, 0.5), j(1);
  for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i)] = 1.25 * static_cast<double>(i) - 3;
  const int64_t jv = 2;
  std::memcpy(j.data(), &jv, sizeof jv);
  const std::vector<double> a0 = a;
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"S", &sv}, {"J", &j}}, {{"N", n}});
  const size_t k = n - 3;
  std::vector<double> want_b(n, -1), want_s(n, 0.5);
  want_b[k + 2] = a0[0] * 2;
  for (size_t i = 0; i < 2; ++i) want_b[i + k] = a0[i + 1] + 1;
  want_s[2] = a0[0];
  want_s[k] += a0[1];
  for (int64_t i = 0; i < n; ++i) {
    EXPECT_EQ(b[static_cast<size_t>(i)], want_b[static_cast<size_t>(i)]) << i;
    EXPECT_EQ(sv[static_cast<size_t>(i)], want_s[static_cast<size_t>(i)]) << i;
  }
  EXPECT_EQ(a[k], a0[k] + a0[2]);
}

// C++ tasklets, as DaCe rewrites them by text: `a[k]` and `o[k + 1]` (memlets all of A and B)
// become `a_1` and `o_1` with one-element memlets; `o[j]` (j a data connector) stays, and so
// does `m[k]` on a two-dimensional memlet (C++ indexes the flattened pointer there).
TEST(TransformScalarToSymbol, CppIndirectionThroughSymbolsBecomesMemlets) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "cpp_indirection";  // the expected code and memlets follow DaCe's rule by hand
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  add_array(*g, "M", T::Float64, {"2", "N"});
  add_array(*g, "J", T::Int64, {"1"});
  add_scalar(*g, "k", T::Int64, true);
  int s0 = 0, s1 = 0;
  write_k(*g, *g, "s0", "N - 3", &s0);
  ir::State& s = add_state(*g, *g, "s1", &s1);
  auto cpp = [&](int id) { static_cast<ir::Tasklet&>(*s.node(id)).code.language = ir::Language::CPP; };
  const int t = tasklet(s, "o[k + 1] = a[k] * 2;", {"a"}, {"o"});
  cpp(t);
  edge(s, access(s, "A"), "", t, "a", "A[0:N]");
  edge(s, t, "o", access(s, "B"), "", "B[0:N]");
  const int w = tasklet(s, "o[j] = m[k];", {"j", "m"}, {"o"});
  cpp(w);
  edge(s, access(s, "J"), "", w, "j", "J[0]");
  edge(s, access(s, "M"), "", w, "m", "M[0:2, 0:N]");
  edge(s, w, "o", access(s, "A"), "", "A[0:N]");
  add_interstate(*g, s0, s1);
  ASSERT_TRUE(run_promotion(*g));
  const auto& tk = static_cast<const ir::Tasklet&>(*s.node(t));
  EXPECT_EQ(tk.code.code, "o_1 = a_1 * 2;");
  EXPECT_EQ(tk.in_connectors.count("a"), 0u);
  EXPECT_EQ(tk.out_connectors.count("o"), 0u);
  for (int e : s.in_edges(t)) EXPECT_EQ(ir::to_string(s.edge(e)->memlet), "A[k]");
  for (int e : s.out_edges(t)) EXPECT_EQ(ir::to_string(s.edge(e)->memlet), "B[k + 1]");
  const auto& wk = static_cast<const ir::Tasklet&>(*s.node(w));
  EXPECT_EQ(wk.code.code, "o[j] = m[k];");
  EXPECT_EQ(wk.in_connectors.count("m"), 1u);
  // (Not run: code generation lowers C++ tasklets only when they are recognized CBLAS calls.)
}

}  // namespace
}  // namespace dace::transform::testing
