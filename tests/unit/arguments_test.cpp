// free_symbols and argument_list against orders derived by hand from DaCe's arglist():
// non-transient non-scalar data sorted by name, then scalars and free symbols sorted together
// (Python's sort: uppercase before lowercase), "__dace" names excluded.
#include <filesystem>
#include <string>

#include "analysis/arguments.h"
#include "ir/json/sdfg_json.h"
#include "validate_builder.h"

#ifndef LIBDACE_CORPUS_DIR
#define LIBDACE_CORPUS_DIR "../shared/sdfg-corpus"
#endif

namespace vtest {
namespace {

using analysis::Argument;

std::string names(const std::vector<Argument>& args) {
  std::string out;
  for (const auto& a : args) out += (out.empty() ? "" : " ") + a.name;
  return out;
}

std::string kinds(const std::vector<Argument>& args) {
  std::string out;
  for (const auto& a : args) out += (out.empty() ? "" : " ") + std::string(analysis::to_string(a.kind));
  return out;
}

TEST(Arguments, GemmFromCorpus) {
  // The configured corpus (tests/CMakeLists.txt): a missing corpus fails, it does not skip.
  const std::string f = std::string(LIBDACE_CORPUS_DIR) + "/gemm/gemm.simp.sdfg";
  ASSERT_TRUE(std::filesystem::exists(f)) << f << " not found";
  auto g = ir::json::read_sdfg_file(f);
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(analysis::free_symbols(**g), (std::set<std::string>{"NI", "NJ", "NK"}));
  auto args = analysis::argument_list(**g);
  EXPECT_EQ(names(args), "A B C NI NJ NK alpha beta");
  EXPECT_EQ(kinds(args), "array array array symbol symbol symbol scalar scalar");
  EXPECT_EQ(to_string(args[3].dtype), "int64");
  EXPECT_EQ(to_string(args[6].dtype), "float64");
}

// Symbols: N (shapes), M (map range and a transient shape), P (tasklet code only),
// Q (interstate condition only), U (declared, unused), k (assigned on an edge).
Builder mixed_sdfg() {
  Builder b("mixed");
  for (const char* s : {"N", "M", "P", "Q", "U", "k"}) b.symbol(s);
  b.data("b", array({"N"}));
  b.data("A", array({"N"}));
  b.data("__dace_x", array({"1"}));
  b.data("T", array({"M"}, true));
  b.data("z", scalar(false));
  b.data("w", scalar(true));
  State& s0 = b.block("s0");
  State& s1 = b.block("s1");
  b.interstate(s0, s1, "k < Q", {{"k", "N"}});
  int a = Builder::access(s1, "A");
  int out = Builder::access(s1, "b");
  auto [me, mx] = Builder::map(s1, "m", {"i"}, "0:M");
  int t = Builder::tasklet(s1, "t", {"x"}, {"y"}, "tmp = x * P\ny = tmp + i");
  Builder::conn_in(s1, me, "IN_A");
  Builder::conn_out(s1, me, "OUT_A");
  Builder::conn_in(s1, mx, "IN_b");
  Builder::conn_out(s1, mx, "OUT_b");
  b.edge(s1, a, "", me, "IN_A", "A[0:M]");
  b.edge(s1, me, "OUT_A", t, "x", "A[i]");
  b.edge(s1, t, "y", mx, "IN_b", "b[i]");
  b.edge(s1, mx, "OUT_b", out, "", "b[0:M]");
  return b;
}

TEST(Arguments, FreeSymbolsOfMixedSdfg) {
  Builder b = mixed_sdfg();
  EXPECT_EQ(analysis::free_symbols(*b.g), (std::set<std::string>{"M", "N", "P", "Q"}));
}

TEST(Arguments, OrderOfMixedSdfg) {
  Builder b = mixed_sdfg();
  auto args = analysis::argument_list(*b.g);
  EXPECT_EQ(names(args), "A b M N P Q z");
  EXPECT_EQ(kinds(args), "array array symbol symbol symbol symbol scalar");
}

TEST(Arguments, CppTaskletUsesDeclaredSymbols) {
  Builder b = simple_map_sdfg();
  b.symbol("K");
  static_cast<Tasklet&>(*b.g->all_states()[0]->node(4)).code = CodeBlock{"b = a * K; // N", Language::CPP};
  EXPECT_EQ(analysis::free_symbols(*b.g), (std::set<std::string>{"K", "N"}));
}

TEST(Arguments, LoopVariableAndMapParamsAreBound) {
  Builder b("loops");
  b.symbol("N");
  b.symbol("T");
  b.data("A", array({"N"}));
  auto& loop = b.block<LoopRegion>("l");
  loop.loop_variable = "t";
  loop.loop_condition = CodeBlock{"t < T", Language::Python};
  loop.init_statement = CodeBlock{"t = 0", Language::Python};
  loop.update_statement = CodeBlock{"t = t + 1", Language::Python};
  State& s = b.block("s", &loop);
  int out = Builder::access(s, "A");
  auto [me, mx] = Builder::map(s, "m", {"i"}, "0:N");
  int tk = Builder::tasklet(s, "w", {}, {"o"}, "o = i + t");
  Builder::conn_in(s, mx, "IN_A");
  Builder::conn_out(s, mx, "OUT_A");
  b.edge(s, me, "", tk, "", "");
  b.edge(s, tk, "o", mx, "IN_A", "A[i]");
  b.edge(s, mx, "OUT_A", out, "", "A[0:N]");
  EXPECT_EQ(analysis::free_symbols(*b.g), (std::set<std::string>{"N", "T"}));
  EXPECT_EQ(names(analysis::argument_list(*b.g)), "A N T");
}

// A transient sized by the loop variable (syrk's `__tmp2[i + 1]` once its loop is a loop
// region): the variable is defined by the loop, not an argument, as in DaCe.
TEST(Arguments, LoopVariableInATransientShapeIsBound) {
  Builder b("loop_sized");
  b.symbol("N");
  b.data("A", array({"N"}));
  b.data("tmp", array({"t + 1"}, true));
  auto& loop = b.block<LoopRegion>("l");
  loop.loop_variable = "t";
  loop.loop_condition = CodeBlock{"t < N", Language::Python};
  loop.init_statement = CodeBlock{"t = 0", Language::Python};
  loop.update_statement = CodeBlock{"t = t + 1", Language::Python};
  State& s = b.block("s", &loop);
  int in = Builder::access(s, "A");
  int out = Builder::access(s, "tmp");
  b.edge(s, in, "", out, "", "A[0:t + 1]");
  EXPECT_EQ(analysis::free_symbols(*b.g), (std::set<std::string>{"N"}));
  EXPECT_EQ(names(analysis::argument_list(*b.g)), "A N");
}

TEST(Arguments, NestedSymbolMappingValuesAreFree) {
  Builder b("outer");
  b.symbol("K");
  b.data("A", array({"4"}));
  State& s = b.block("s");
  auto n = std::make_unique<NestedSDFGNode>();
  n->label = "nest";
  n->sdfg = std::make_unique<SDFG>();
  n->sdfg->name = "inner";
  n->sdfg->symbols["M"] = DType::of(ScalarType::Int64);
  n->sdfg->parent_node = n.get();
  n->symbol_mapping["M"] = E("K + 1");
  n->out_connectors["y"] = DType{};
  int nid = s.add_node(std::move(n));
  b.edge(s, nid, "y", Builder::access(s, "A"), "", "A[0:4]");
  EXPECT_EQ(analysis::free_symbols(*b.g), (std::set<std::string>{"K"}));
}

TEST(Arguments, KindNames) {
  EXPECT_STREQ(analysis::to_string(Argument::Kind::Array), "array");
  EXPECT_STREQ(analysis::to_string(Argument::Kind::Scalar), "scalar");
  EXPECT_STREQ(analysis::to_string(Argument::Kind::Symbol), "symbol");
}

}  // namespace
}  // namespace vtest
