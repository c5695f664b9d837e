// Element paths name every enclosing block, including the conditional around a branch.
#include <gtest/gtest.h>

#include "ir/path.h"

namespace dace::ir {
namespace {

TEST(IrPath, StateInsideBranchNamesTheConditional) {
  SDFG sdfg;
  sdfg.name = "prog";
  auto loop = std::make_unique<LoopRegion>();
  loop->label = "outer";
  auto cond = std::make_unique<ConditionalBlock>();
  cond->label = "if_1";
  auto branch = std::make_unique<ControlFlowRegion>();
  branch->label = "then";
  auto state = std::make_unique<State>();
  state->label = "body";
  State* state_ptr = state.get();
  branch->add_block(std::move(state));
  cond->branches.emplace_back(CodeBlock{"N > 1", Language::Python}, std::move(branch));
  loop->add_block(std::move(cond));
  sdfg.add_block(std::move(loop));
  relink_parents(sdfg);
  EXPECT_EQ(path_of(sdfg, *state_ptr),
            "sdfg \"prog\" / loop \"outer\" / conditional \"if_1\" / region \"then\" / state \"body\"");
}

TEST(IrPath, NodeAndQuoting) {
  SDFG sdfg;
  sdfg.name = "a\"b";
  auto state = std::make_unique<State>();
  state->label = "s";
  auto t = std::make_unique<Tasklet>();
  t->label = "add";
  int id = state->add_node(std::move(t));
  State* s = state.get();
  sdfg.add_block(std::move(state));
  EXPECT_EQ(path_of_node(sdfg, *s, id), "sdfg \"a\\\"b\" / state \"s\" / node 0 (Tasklet \"add\")");
  EXPECT_EQ(path_of_data(sdfg, "A"), "sdfg \"a\\\"b\" / data \"A\"");
}

}  // namespace
}  // namespace dace::ir
