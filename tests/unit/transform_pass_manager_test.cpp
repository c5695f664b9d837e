// The pass manager: pipelines in order and to a fixed point, per-pass timings, cached
// analyses and their invalidation by reported modifications.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "transform/analysis_manager.h"
#include "transform/pipeline.h"

namespace dace::transform {
namespace {

using codegen::testing::access;
using codegen::testing::add_array;
using codegen::testing::add_state;

// Counts its runs; reports a change for the first `changes` runs.
class CountingPass : public Pass {
 public:
  CountingPass(std::string name, int changes, Modifies mods, Modifies deps, std::vector<std::string>* log)
      : name_(std::move(name)), changes_(changes), mods_(mods), deps_(deps), log_(log) {}
  std::string_view name() const override { return name_; }
  Modifies modifies() const override { return mods_; }
  Modifies depends_on() const override { return deps_; }
  Result<bool> apply(ir::SDFG&, AnalysisManager&) override {
    log_->push_back(name_);
    return runs_++ < changes_;
  }

 private:
  std::string name_;
  int changes_, runs_ = 0;
  Modifies mods_, deps_;
  std::vector<std::string>* log_;
};

class FailingPass : public Pass {
 public:
  std::string_view name() const override { return "Failing"; }
  Modifies modifies() const override { return Modifies::Nothing; }
  Result<bool> apply(ir::SDFG&, AnalysisManager&) override { return make_error(Code::Internal, "boom"); }
};

TEST(TransformPassManager, RunsPassesInOrderOnce) {
  ir::SDFG g;
  std::vector<std::string> log;
  Pipeline p;
  p.add(std::make_unique<CountingPass>("a", 5, Modifies::Nodes, Modifies::Everything, &log));
  p.add(std::make_unique<CountingPass>("b", 0, Modifies::Nothing, Modifies::Everything, &log));
  AnalysisManager am;
  Result<bool> r = p.apply(g, am);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(*r);
  EXPECT_EQ(log, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(p.timings().size(), 2u);
  EXPECT_EQ(p.timings()[0].runs, 1);
  EXPECT_EQ(p.timings()[0].changed, 1);
  EXPECT_EQ(p.timings()[1].changed, 0);
  EXPECT_GE(p.timings()[0].ms, 0.0);
}

TEST(TransformPassManager, FixedPointRerunsOnlyDependentPasses) {
  ir::SDFG g;
  std::vector<std::string> log;
  Pipeline p;
  // "a" changes nodes twice; "sym" depends only on symbols, so it runs once.
  p.add(std::make_unique<CountingPass>("a", 2, Modifies::Nodes, Modifies::Nodes, &log));
  p.add(std::make_unique<CountingPass>("sym", 0, Modifies::Symbols, Modifies::Symbols, &log));
  p.fixed_point();
  AnalysisManager am;
  ASSERT_TRUE(p.apply(g, am).ok());
  EXPECT_EQ(log, (std::vector<std::string>{"a", "sym", "a", "a"}));
  EXPECT_TRUE(p.converged());
  EXPECT_EQ(p.iterations(), 3);
}

TEST(TransformPassManager, FixedPointStopsAtTheCap) {
  ir::SDFG g;
  std::vector<std::string> log;
  Pipeline p;
  p.add(std::make_unique<CountingPass>("forever", 1000, Modifies::Nodes, Modifies::Everything, &log));
  p.fixed_point(4);
  AnalysisManager am;
  Result<bool> r = p.apply(g, am);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(p.converged());
  EXPECT_EQ(log.size(), 4u);
}

TEST(TransformPassManager, ErrorsStopThePipeline) {
  ir::SDFG g;
  std::vector<std::string> log;
  Pipeline p;
  p.add(std::make_unique<FailingPass>());
  p.add(std::make_unique<CountingPass>("after", 0, Modifies::Nothing, Modifies::Everything, &log));
  AnalysisManager am;
  Result<bool> r = p.apply(g, am);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "boom");
  EXPECT_TRUE(log.empty());
}

TEST(TransformPassManager, ScopeTreesAreCachedUntilInvalidated) {
  ir::SDFG g;
  add_array(g, "A", ir::ScalarType::Float64, {"4"});
  ir::State& s = add_state(g, g, "s");
  ir::State& t = add_state(g, g, "t");
  access(s, "A");
  access(t, "A");
  AnalysisManager am;
  am.scope_tree(s);
  am.scope_tree(t);
  am.scope_tree(s);
  EXPECT_EQ(am.computed(), 2);
  EXPECT_EQ(am.cached(), 1);
  // Symbols do not feed the scope tree; nodes of one state invalidate that state only.
  am.invalidate(Modifies::Symbols);
  am.scope_tree(s);
  EXPECT_EQ(am.computed(), 2);
  am.invalidate(s, Modifies::AccessNodes);
  am.scope_tree(s);
  am.scope_tree(t);
  EXPECT_EQ(am.computed(), 3);
  am.invalidate(Modifies::States);
  am.scope_tree(t);
  EXPECT_EQ(am.computed(), 4);
}

TEST(TransformPassManager, ModifiesPrintsItsBits) {
  EXPECT_EQ(to_string(Modifies::Nothing), "Nothing");
  EXPECT_EQ(to_string(Modifies::Symbols | Modifies::States), "Symbols|States");
  EXPECT_EQ(to_string(Modifies::Nodes), "AccessNodes|Scopes|Tasklets|NestedSDFGs");
}

}  // namespace
}  // namespace dace::transform
