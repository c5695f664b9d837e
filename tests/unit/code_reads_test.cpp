// analysis/code_reads.h: the names control-flow code reads (hand-derived sets) and a region
// walk that refuses what it cannot walk whole, as validation does (validate_cfg: more than
// 256 nested regions).
#include <string>

#include "analysis/code_reads.h"
#include "analysis/validate.h"
#include "validate_builder.h"

namespace vtest {
namespace {

using Names = std::set<std::string>;

TEST(CodeReads, ExpressionsAndStatements) {
  // `math.pi` is a constant of the language, not a name the program defines: no read.
  EXPECT_EQ(analysis::names_read_by_expression("i < N and A[j] > math.pi"), (Names{"A", "N", "i", "j"}));
  EXPECT_EQ(analysis::names_read_by_expression("sin(x) + y"), (Names{"x", "y"}));
  // Code that does not parse: every identifier, so no read is missed.
  EXPECT_EQ(analysis::names_read_by_expression("a +* b"), (Names{"a", "b"}));
  EXPECT_EQ(analysis::names_read_by_statement("t = t + step"), (Names{"step", "t"}));
  EXPECT_EQ(analysis::names_read_by_statement("t = = u"), (Names{"t", "u"}));
}

// `levels` loops nested in one another below the SDFG, a state in the innermost.
std::unique_ptr<Builder> nested_loops(int levels) {
  auto b = std::make_unique<Builder>("deep");
  ControlFlowRegion* region = nullptr;
  for (int i = 0; i < levels; ++i) {
    auto& loop = b->block<LoopRegion>("l" + std::to_string(i), region);
    loop.loop_variable = "i" + std::to_string(i);
    loop.init_statement = CodeBlock{loop.loop_variable + " = 0", Language::Python};
    loop.loop_condition = CodeBlock{loop.loop_variable + " < 2", Language::Python};
    loop.update_statement = CodeBlock{loop.loop_variable + " = " + loop.loop_variable + " + 1", Language::Python};
    region = &loop;
  }
  b->block("s", region);
  return b;
}

TEST(CodeReads, RegionWalkVisitsEveryRegionUpToValidationsDepth) {
  auto b = nested_loops(256);  // the innermost loop at depth 256: validation accepts it
  int visited = 0;
  Status s = analysis::for_each_region_whole(*b->g, [&](const ControlFlowRegion&) { ++visited; });
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(visited, 257);  // the SDFG and its 256 loops
}

TEST(CodeReads, RegionWalkRefusesWhatValidationRefuses) {
  auto b = nested_loops(257);
  int visited = 0;
  Status s = analysis::for_each_region_whole(*b->g, [&](const ControlFlowRegion&) { ++visited; });
  ASSERT_FALSE(s.ok()) << "a walk that stops early must not report success";
  EXPECT_EQ(s.error().code, Code::InvalidSdfg);
  EXPECT_NE(s.error().message.find("nested more than 256 levels deep"), std::string::npos) << s.error().message;
  EXPECT_EQ(visited, 0);
  // The same depth is where validation refuses the SDFG.
  Status v = analysis::validate(*b->g);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message.find("nested too deeply"), std::string::npos) << v.error().message;
  EXPECT_TRUE(analysis::validate(*nested_loops(256)->g).ok());
}

}  // namespace
}  // namespace vtest
