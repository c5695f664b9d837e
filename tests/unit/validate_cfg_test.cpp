// Control-flow validation rules: regions, interstate edges, loops, conditionals.
#include "validate_builder.h"

namespace vtest {
namespace {

// Two empty states s0 -> s1 joined by one interstate edge.
Builder two_states(const std::string& cond = "1", std::vector<std::pair<std::string, std::string>> assign = {}) {
  Builder b("cf");
  b.symbol("N");
  b.data("A", array({"N"}));
  State& s0 = b.block("s0");
  State& s1 = b.block("s1");
  b.interstate(s0, s1, cond, std::move(assign));
  return b;
}

TEST(ValidateCfg, TwoStatesValid) {
  Builder b = two_states("N > 2", {{"k", "N + 1"}});
  expect_valid(*b.g);
}

TEST(ValidateCfg, StartBlockAmbiguous) {
  Builder b("cf");
  State& s0 = b.block("s0");
  State& s1 = b.block("s1");
  State& s2 = b.block("s2");
  b.interstate(s0, s2);
  b.interstate(s1, s2);
  expect_error(*b.g, "sdfg \"cf\": start block is ambiguous or undefined");
}

TEST(ValidateCfg, StartBlockMissing) {
  Builder b = two_states();
  b.g->start_block = 7;
  expect_error(*b.g, "sdfg \"cf\": start block slot 7 does not exist");
}

TEST(ValidateCfg, InterstateEdgeDanglingEndpoint) {
  Builder b = two_states();
  InterstateEdge e;
  e.src = 0;
  e.dst = 5;
  b.g->add_edge(e);
  expect_error(*b.g,
               "sdfg \"cf\" / interstate edge 1 (\"s0\" -> ?): interstate edge endpoint does not exist (source slot 0, "
               "destination slot 5)");
}

TEST(ValidateCfg, ConditionDoesNotParse) {
  Builder b = two_states("N >");
  auto errors = analysis::validate_all(*b.g);
  ASSERT_FALSE(errors.empty());
  const std::string head = "sdfg \"cf\" / interstate edge 0 (\"s0\" -> \"s1\"): condition does not parse: ";
  EXPECT_EQ(errors[0].message.substr(0, head.size()), head) << errors[0].message;
  EXPECT_EQ(errors[0].code, Code::InvalidSdfg);
}

TEST(ValidateCfg, AssignmentDoesNotParse) {
  Builder b = two_states("1", {{"k", "N +* 2"}});
  auto errors = analysis::validate_all(*b.g);
  ASSERT_FALSE(errors.empty());
  const std::string head = "sdfg \"cf\" / interstate edge 0 (\"s0\" -> \"s1\"): assignment to \"k\" does not parse: ";
  EXPECT_EQ(errors[0].message.substr(0, head.size()), head) << errors[0].message;
}

TEST(ValidateCfg, UndefinedSymbolInCondition) {
  Builder b = two_states("M > 0");
  expect_error(*b.g, "sdfg \"cf\" / interstate edge 0 (\"s0\" -> \"s1\"): undefined symbol \"M\" in condition");
}

TEST(ValidateCfg, UndefinedSymbolInAssignment) {
  Builder b = two_states("1", {{"k", "M + 1"}});
  expect_error(*b.g,
               "sdfg \"cf\" / interstate edge 0 (\"s0\" -> \"s1\"): undefined symbol \"M\" in assignment to \"k\"");
}

TEST(ValidateCfg, ConditionMayReadDataAndAssignedSymbols) {
  Builder b = two_states("A[0] > k", {{"k", "N"}});
  expect_valid(*b.g);
}

TEST(ValidateCfg, InvalidAssignmentTarget) {
  Builder b = two_states("1", {{"1k", "N"}});
  expect_error(*b.g, "sdfg \"cf\" / interstate edge 0 (\"s0\" -> \"s1\"): invalid interstate symbol name \"1k\"");
}

TEST(ValidateCfg, AssignmentToDataContainer) {
  Builder b = two_states("1", {{"A", "N"}});
  expect_error(*b.g, "sdfg \"cf\" / interstate edge 0 (\"s0\" -> \"s1\"): assignment to data container \"A\"");
}

TEST(ValidateCfg, AssignedTwiceOnOneEdge) {
  Builder b = two_states("1", {{"k", "N"}, {"k", "2"}});
  expect_error(*b.g, "sdfg \"cf\" / interstate edge 0 (\"s0\" -> \"s1\"): symbol \"k\" is assigned twice");
}

TEST(ValidateCfg, AssignmentRace) {
  Builder b = two_states("1", {{"k", "N"}, {"j", "k + 1"}});
  expect_error(*b.g,
               "sdfg \"cf\" / interstate edge 0 (\"s0\" -> \"s1\"): assignment to \"j\" reads \"k\", which the same "
               "edge also assigns");
}

TEST(ValidateCfg, DuplicateBlockLabels) {
  Builder b("cf");
  State& s0 = b.block("s");
  State& s1 = b.block("s");
  b.interstate(s0, s1);
  expect_error(*b.g, "sdfg \"cf\" / state \"s\": another block of this region has the same label");
}

TEST(ValidateCfg, InvalidStateName) {
  Builder b("cf");
  b.block("my state");
  expect_error(*b.g, "sdfg \"cf\" / state \"my state\": invalid state name");
}

TEST(ValidateCfg, UnreachableBlock) {
  Builder b = two_states();
  b.block("lonely");
  expect_error(*b.g, "sdfg \"cf\" / state \"lonely\": unreachable block (no interstate edges)");
}

TEST(ValidateCfg, ParentPointerMismatch) {
  Builder b("cf");
  State& s = b.block("s");
  ControlFlowRegion other;
  s.parent = &other;
  auto errors = analysis::validate_all(*b.g);
  bool found = false;
  for (const auto& e : errors)
    if (e.message.find("block's parent pointer does not point to its region") != std::string::npos) found = true;
  EXPECT_TRUE(found) << all_messages(errors);
}

TEST(ValidateCfg, BreakOutsideLoop) {
  Builder b("cf");
  State& s = b.block("s");
  auto& brk = b.block<BreakBlock>("brk");
  b.interstate(s, brk);
  expect_error(*b.g, "sdfg \"cf\" / break \"brk\": break outside of a loop");
}

TEST(ValidateCfg, ContinueOutsideLoop) {
  Builder b("cf");
  State& s = b.block("s");
  auto& c = b.block<ContinueBlock>("cont");
  b.interstate(s, c);
  expect_error(*b.g, "sdfg \"cf\" / continue \"cont\": continue outside of a loop");
}

// for (i = 0; i < N; i = i + 1) { body }
LoopRegion& add_loop(Builder& b, const std::string& cond = "i < N", const std::string& init = "i = 0",
                     const std::string& update = "i = i + 1") {
  auto& loop = b.block<LoopRegion>("loop");
  loop.loop_variable = "i";
  loop.loop_condition = CodeBlock{cond, Language::Python};
  loop.init_statement = CodeBlock{init, Language::Python};
  loop.update_statement = CodeBlock{update, Language::Python};
  return loop;
}

TEST(ValidateCfg, LoopWithBreakIsValid) {
  Builder b("cf");
  b.symbol("N");
  auto& loop = add_loop(b);
  State& body = b.block("body", &loop);
  auto& brk = b.block<BreakBlock>("brk", &loop);
  b.interstate(body, brk, "i > 3", {}, &loop);
  expect_valid(*b.g);
}

TEST(ValidateCfg, LoopConditionDoesNotParse) {
  Builder b("cf");
  b.symbol("N");
  auto& loop = add_loop(b, "i <");
  b.block("body", &loop);
  auto errors = analysis::validate_all(*b.g);
  ASSERT_FALSE(errors.empty());
  const std::string head = "sdfg \"cf\" / loop \"loop\": loop condition does not parse: ";
  EXPECT_EQ(errors[0].message.substr(0, head.size()), head) << errors[0].message;
}

TEST(ValidateCfg, LoopUpdateDoesNotParse) {
  Builder b("cf");
  b.symbol("N");
  auto& loop = add_loop(b, "i < N", "i = 0", "i + 1");
  b.block("body", &loop);
  auto errors = analysis::validate_all(*b.g);
  ASSERT_FALSE(errors.empty());
  const std::string head = "sdfg \"cf\" / loop \"loop\": loop update statement does not parse: ";
  EXPECT_EQ(errors[0].message.substr(0, head.size()), head) << errors[0].message;
}

TEST(ValidateCfg, LoopInitAssignsOtherVariable) {
  Builder b("cf");
  b.symbol("N");
  auto& loop = add_loop(b, "i < N", "j = 0");
  b.block("body", &loop);
  expect_error(*b.g, "sdfg \"cf\" / loop \"loop\": loop init statement assigns \"j\", not the loop variable \"i\"");
}

TEST(ValidateCfg, LoopConditionUndefinedSymbol) {
  Builder b("cf");
  auto& loop = add_loop(b, "i < M");
  b.block("body", &loop);
  expect_error(*b.g, "sdfg \"cf\" / loop \"loop\": undefined symbol \"M\" in loop condition");
}

TEST(ValidateCfg, LoopVariableIsData) {
  Builder b("cf");
  b.symbol("N");
  b.data("i", scalar(true));
  auto& loop = add_loop(b);
  b.block("body", &loop);
  expect_error(*b.g, "sdfg \"cf\" / loop \"loop\": loop variable \"i\" is a data container");
}

TEST(ValidateCfg, LoopVariableOnlyInsideLoop) {
  Builder b("cf");
  b.symbol("N");
  auto& loop = add_loop(b);
  b.block("body", &loop);
  State& after = b.block("after");
  State& next = b.block("next");
  b.interstate(loop, after);
  b.interstate(after, next, "i > 2");
  expect_error(*b.g, "sdfg \"cf\" / interstate edge 1 (\"after\" -> \"next\"): undefined symbol \"i\" in condition");
}

std::unique_ptr<ControlFlowRegion> branch(Builder& b, const std::string& label) {
  auto r = std::make_unique<ControlFlowRegion>();
  r->label = label;
  b.g->register_block(*r);
  auto s = std::make_unique<State>();
  s->label = label + "_s";
  b.g->register_block(*s);
  r->add_block(std::move(s));
  return r;
}

TEST(ValidateCfg, ConditionalValid) {
  Builder b("cf");
  b.symbol("N");
  auto& c = b.block<ConditionalBlock>("cond");
  c.branches.emplace_back(CodeBlock{"N > 1", Language::Python}, branch(b, "then"));
  c.branches.emplace_back(std::nullopt, branch(b, "other"));
  relink_parents(*b.g);
  expect_valid(*b.g);
}

TEST(ValidateCfg, ElseBranchNotLast) {
  Builder b("cf");
  b.symbol("N");
  auto& c = b.block<ConditionalBlock>("cond");
  c.branches.emplace_back(std::nullopt, branch(b, "other"));
  c.branches.emplace_back(CodeBlock{"N > 1", Language::Python}, branch(b, "then"));
  relink_parents(*b.g);
  expect_error(*b.g, "sdfg \"cf\" / conditional \"cond\": else branch (branch 0) is not last");
}

TEST(ValidateCfg, TwoElseBranches) {
  Builder b("cf");
  auto& c = b.block<ConditionalBlock>("cond");
  c.branches.emplace_back(std::nullopt, branch(b, "a"));
  c.branches.emplace_back(std::nullopt, branch(b, "b"));
  relink_parents(*b.g);
  expect_error(*b.g, "sdfg \"cf\" / conditional \"cond\": else branch (branch 0) is not last");
}

TEST(ValidateCfg, BranchConditionUndefined) {
  Builder b("cf");
  auto& c = b.block<ConditionalBlock>("cond");
  c.branches.emplace_back(CodeBlock{"Q > 1", Language::Python}, branch(b, "then"));
  relink_parents(*b.g);
  expect_error(*b.g, "sdfg \"cf\" / conditional \"cond\": undefined symbol \"Q\" in condition of branch 0");
}

TEST(ValidateCfg, BranchWithoutRegion) {
  Builder b("cf");
  auto& c = b.block<ConditionalBlock>("cond");
  c.branches.emplace_back(CodeBlock{"1", Language::Python}, nullptr);
  expect_error(*b.g, "sdfg \"cf\" / conditional \"cond\": branch 0 has no region");
}

TEST(ValidateCfg, BreakInsideConditionalInsideLoopIsValid) {
  Builder b("cf");
  b.symbol("N");
  auto& loop = add_loop(b);
  auto& c = b.block<ConditionalBlock>("cond", &loop);
  auto r = std::make_unique<ControlFlowRegion>();
  r->label = "then";
  auto brk = std::make_unique<BreakBlock>();
  brk->label = "brk";
  r->add_block(std::move(brk));
  c.branches.emplace_back(CodeBlock{"i > 2", Language::Python}, std::move(r));
  relink_parents(*b.g);
  expect_valid(*b.g);
}

TEST(ValidateCfg, GpuDataReadInHostCondition) {
  Builder b = two_states("G[0] > 0");
  DataDescriptor g = array({"N"}, true);
  g.storage = StorageType::GPU_Global;
  b.data("G", g);
  expect_error(*b.g,
               "sdfg \"cf\" / interstate edge 0 (\"s0\" -> \"s1\"): reads data container \"G\" stored as GPU_Global in "
               "host code");
}

}  // namespace
}  // namespace vtest
