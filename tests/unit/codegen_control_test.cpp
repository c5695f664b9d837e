// Control flow: interstate loops and branches (conditions on symbols and on data), ordered
// assignments, LoopRegion (plain and inverted), ConditionalBlock, break / continue / return.
#include <gtest/gtest.h>

#include <vector>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

// A state that does Out[0] = Out[0] + inc  (inc: a tasklet expression in symbols).
ir::State& accumulate_state(ir::ControlFlowRegion& r, ir::SDFG& g, const std::string& label, const std::string& inc,
                            int* slot) {
  ir::State& s = add_state(r, g, label, slot);
  int t = tasklet(s, "o = x + (" + inc + ")", {"x"}, {"o"});
  edge(s, access(s, "Out"), "", t, "x", "Out[0]");
  edge(s, t, "o", access(s, "Out"), "", "Out[0]");
  return s;
}

std::unique_ptr<ir::SDFG> base(const std::string& name) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = name;
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["i"] = ir::DType::of(T::Int64);
  add_array(*g, "Out", T::Int64, {"1"});
  return g;
}

int64_t run_out(const ir::SDFG& g, int64_t n, bool validate = true) {
  if (validate) {
    Status v = analysis::validate(g);
    EXPECT_TRUE(v.ok()) << v.error().message;
  }
  std::vector<int64_t> out{0};
  Result<CompiledProgram> p = compile(g);
  EXPECT_TRUE(p.ok()) << p.error().message;
  if (!p.ok()) return -999;
  std::map<std::string, ArgValue> values{{"Out", ArgValue::pointer(out.data())}};
  for (const auto& a : p->arguments)
    if (a.name == "N") values["N"] = ArgValue::scalar<int64_t>(n);
  for (const auto& a : p->init_arguments)
    if (a.name == "N") values["N"] = ArgValue::scalar<int64_t>(n);
  Status r = run(*p, values);
  EXPECT_TRUE(r.ok()) << r.error().message;
  return out[0];
}

// for i in range(N): Out += i * i   as guard / body states and interstate edges.
TEST(CodegenControl, InterstateLoop) {
  auto g = base("isloop");
  int init = 0, guard = 0, body = 0, done = 0;
  add_state(*g, *g, "init", &init);
  add_state(*g, *g, "guard", &guard);
  accumulate_state(*g, *g, "body", "i * i", &body);
  add_state(*g, *g, "done", &done);
  add_interstate(*g, init, guard, "1", {{"i", "0"}});
  add_interstate(*g, guard, body, "i < N");
  add_interstate(*g, guard, done, "not (i < N)");
  add_interstate(*g, body, guard, "1", {{"i", "i + 1"}});
  int64_t n = 10, e = 0;
  for (int64_t i = 0; i < n; ++i) e += i * i;
  EXPECT_EQ(run_out(*g, n), e);
}

// Branch on data: if Out[0] (set to N by the first state) is odd, add 100, else add 7, plus
// symbols assigned on the taken edge.
TEST(CodegenControl, BranchOnDataAndOrderedAssignments) {
  for (int64_t n : {4, 5}) {
    auto g = base("branch");
    g->symbols["k"] = ir::DType::of(T::Int64);
    g->symbols["m"] = ir::DType::of(T::Int64);
    int s0 = 0, odd = 0, even = 0;
    accumulate_state(*g, *g, "setn", "N", &s0);
    accumulate_state(*g, *g, "odd", "100 + m + k", &odd);
    accumulate_state(*g, *g, "even", "7 + m + k", &even);
    add_interstate(*g, s0, odd, "Out[0] % 2 == 1", {{"k", "2"}, {"m", "N * 2"}});
    add_interstate(*g, s0, even, "Out[0] % 2 == 0", {{"k", "3"}, {"m", "N * 3"}});
    EXPECT_EQ(run_out(*g, n), n % 2 ? n + 100 + 2 * n + 2 : n + 7 + 3 * n + 3);
  }
}

std::unique_ptr<ir::LoopRegion> loop(const std::string& var, const std::string& init, const std::string& cond,
                                     const std::string& update) {
  auto l = std::make_unique<ir::LoopRegion>();
  l->label = "loop_" + var;
  l->loop_variable = var;
  l->init_statement.code = init;
  l->loop_condition.code = cond;
  l->update_statement.code = update;
  return l;
}

TEST(CodegenControl, LoopRegionPlainAndInverted) {
  for (bool inverted : {false, true}) {
    auto g = base("loopregion");
    auto l = loop("i", "i = 3", "i < N", "i = i + 2");
    l->inverted = inverted;
    int body = 0;
    accumulate_state(*l, *g, "body", "i", &body);
    g->register_block(*l);
    g->add_block(std::move(l));
    // N = 3: the plain loop does nothing, the inverted one runs the body once (i = 3).
    EXPECT_EQ(run_out(*g, 3), inverted ? 3 : 0);
    int64_t e = 0;
    for (int64_t i = 3; i < 12; i += 2) e += i;
    EXPECT_EQ(run_out(*g, 12), e);
  }
}

// for i in 0..N: if i == 2: continue; if i == 6: break; Out += i  (ConditionalBlocks with
// Continue/Break blocks inside a LoopRegion), then a Return skips a final state.
TEST(CodegenControl, BreakContinueReturn) {
  auto g = base("bcr");
  auto l = loop("i", "i = 0", "i < N", "i = i + 1");
  int c1 = 0, c2 = 0, acc = 0;
  auto cond1 = std::make_unique<ir::ConditionalBlock>();
  cond1->label = "if_continue";
  {
    auto branch = std::make_unique<ir::ControlFlowRegion>();
    branch->label = "then";
    auto cont = std::make_unique<ir::ContinueBlock>();
    g->register_block(*cont);
    branch->add_block(std::move(cont));
    g->register_block(*branch);
    cond1->branches.emplace_back(ir::CodeBlock{"i == 2", ir::Language::Python}, std::move(branch));
  }
  auto cond2 = std::make_unique<ir::ConditionalBlock>();
  cond2->label = "if_break";
  {
    auto branch = std::make_unique<ir::ControlFlowRegion>();
    auto brk = std::make_unique<ir::BreakBlock>();
    g->register_block(*brk);
    branch->add_block(std::move(brk));
    g->register_block(*branch);
    cond2->branches.emplace_back(ir::CodeBlock{"i == 6", ir::Language::Python}, std::move(branch));
    auto other = std::make_unique<ir::ControlFlowRegion>();
    int dummy = 0;
    accumulate_state(*other, *g, "else_add", "1000", &dummy);
    g->register_block(*other);
    cond2->branches.emplace_back(std::nullopt, std::move(other));
  }
  g->register_block(*cond1);
  c1 = l->add_block(std::move(cond1));
  g->register_block(*cond2);
  c2 = l->add_block(std::move(cond2));
  accumulate_state(*l, *g, "acc", "i", &acc);
  add_interstate(*l, c1, c2);
  add_interstate(*l, c2, acc);
  g->register_block(*l);
  int ls = g->add_block(std::move(l));
  int ret_slot = 0, after = 0;
  auto ret = std::make_unique<ir::ReturnBlock>();
  g->register_block(*ret);
  ret_slot = g->add_block(std::move(ret));
  accumulate_state(*g, *g, "never", "1000000", &after);
  add_interstate(*g, ls, ret_slot);
  add_interstate(*g, ret_slot, after);
  relink_parents(*g);
  // i = 0, 1, 3, 4, 5 reach the else branch (+1000 each) and the accumulation (+i).
  EXPECT_EQ(run_out(*g, 10), 5 * 1000 + 0 + 1 + 3 + 4 + 5);
}

}  // namespace
}  // namespace dace::codegen::testing
