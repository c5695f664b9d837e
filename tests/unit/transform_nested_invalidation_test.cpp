// A state-local report of NestedSDFGs (a nested SDFG added, removed or changed in one state)
// drops the cached analyses of that state and of the states nested in it, at any depth, and
// keeps every other state's. Reuse and recomputation are read from the analysis manager's
// counters; each expected count is derived from which states the report can reach.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "transform/analysis_manager.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;

// One state holding a tasklet, so that each analysis has something to look at.
ir::State& busy_state(ir::ControlFlowRegion& r, ir::SDFG& g, const std::string& label, int* slot = nullptr) {
  ir::State& s = add_state(r, g, label, slot);
  tasklet(s, "o = 1", {}, {"o"});
  return s;
}

// Top level: `host` holds nested SDFG `mid` (state `mid_s`), which holds nested SDFG `deep`
// (state `deep_s`); `side` holds nested SDFG `aside` (state `aside_s`); `plain` holds none.
struct Nesting {
  std::unique_ptr<ir::SDFG> g = std::make_unique<ir::SDFG>();
  ir::State *host = nullptr, *side = nullptr, *plain = nullptr;
  ir::State *mid_s = nullptr, *deep_s = nullptr, *aside_s = nullptr;
  int mid_node = -1;
  Nesting() {
    g->name = "top";
    int a = 0, b = 0, c = 0;
    host = &busy_state(*g, *g, "host", &a);
    side = &busy_state(*g, *g, "side", &b);
    plain = &busy_state(*g, *g, "plain", &c);
    add_interstate(*g, a, b);
    add_interstate(*g, b, c);
    auto deep = std::make_unique<ir::SDFG>();
    deep->name = "deep";
    deep_s = &busy_state(*deep, *deep, "deep_s");
    auto mid = std::make_unique<ir::SDFG>();
    mid->name = "mid";
    mid_s = &busy_state(*mid, *mid, "mid_s");
    add_nested(*mid_s, std::move(deep), {}, {}, {});
    mid_node = add_nested(*host, std::move(mid), {}, {}, {});
    auto aside = std::make_unique<ir::SDFG>();
    aside->name = "aside";
    aside_s = &busy_state(*aside, *aside, "aside_s");
    add_nested(*side, std::move(aside), {}, {}, {});
  }
  std::vector<const ir::State*> all() const { return {host, side, plain, mid_s, deep_s, aside_s}; }
};

// How many of `states` the manager had to compute a scope tree for.
int64_t recomputed(AnalysisManager& am, const std::vector<const ir::State*>& states) {
  const int64_t before = am.computed();
  for (const ir::State* s : states) am.scope_tree(*s);
  return am.computed() - before;
}

TEST(TransformNestedInvalidation, DropsTheStateAndItsNestedStatesOnly) {
  Nesting x;
  AnalysisManager am;
  EXPECT_EQ(recomputed(am, x.all()), 6);
  am.invalidate(*x.host, Modifies::NestedSDFGs);
  // host, mid_s and deep_s (two levels down) go; side, plain and aside_s (nested elsewhere) stay.
  EXPECT_EQ(recomputed(am, {x.side, x.plain, x.aside_s}), 0);
  EXPECT_EQ(recomputed(am, {x.host, x.mid_s, x.deep_s}), 3);

  // A report in the middle level drops that state and the one below it, not its holder.
  am.invalidate(*x.mid_s, Modifies::NestedSDFGs);
  EXPECT_EQ(recomputed(am, {x.host, x.side, x.plain, x.aside_s}), 0);
  EXPECT_EQ(recomputed(am, {x.mid_s, x.deep_s}), 2);
}

// Every analysis of a dropped state goes, not only its scope tree.
TEST(TransformNestedInvalidation, DropsEveryAnalysisOfTheNestedStates) {
  Nesting x;
  AnalysisManager am;
  for (const ir::State* s : x.all()) {
    am.access_sets(*s);
    am.dependence_sets(*s);
  }
  am.invalidate(*x.host, Modifies::NestedSDFGs);
  int64_t before = am.computed();
  am.access_sets(*x.deep_s);
  EXPECT_EQ(am.computed(), before + 1);
  before = am.computed();
  am.access_sets(*x.aside_s);
  am.dependence_sets(*x.aside_s);
  EXPECT_EQ(am.computed(), before);
}

// The nested SDFG is taken out of host (as a removal would, freeing it): a walk of host now
// finds no nested state, yet the entries of the states that were nested there go, since they
// were recorded under host while they were alive. (Here they are kept alive to be asked again.)
TEST(TransformNestedInvalidation, DropsTheStatesOfANestedSdfgTakenOut) {
  Nesting x;
  AnalysisManager am;
  EXPECT_EQ(recomputed(am, x.all()), 6);
  auto& node = static_cast<ir::NestedSDFGNode&>(*x.host->node(x.mid_node));
  std::unique_ptr<ir::SDFG> taken = std::move(node.sdfg);
  am.invalidate(*x.host, Modifies::NestedSDFGs);
  EXPECT_EQ(recomputed(am, {x.side, x.plain, x.aside_s}), 0);
  EXPECT_EQ(recomputed(am, {x.mid_s, x.deep_s}), 2);
}

// Nested states analysed before any state holding them was: where they belong is unknown,
// so a NestedSDFGs report anywhere drops them (they might be nested in the reporting state).
// Once their holder is analysed too, they are placed and only a report there reaches them.
TEST(TransformNestedInvalidation, NestedStatesOfAnUnanalysedHolderAreDroppedByAnyReport) {
  Nesting x;
  AnalysisManager am;
  EXPECT_EQ(recomputed(am, {x.deep_s, x.aside_s, x.plain}), 3);
  am.invalidate(*x.plain, Modifies::NestedSDFGs);
  EXPECT_EQ(recomputed(am, {x.deep_s, x.aside_s, x.plain}), 3);
  EXPECT_EQ(recomputed(am, {x.side}), 1);  // places aside_s under side
  am.invalidate(*x.plain, Modifies::NestedSDFGs);
  EXPECT_EQ(recomputed(am, {x.aside_s, x.side}), 0);
  EXPECT_EQ(recomputed(am, {x.deep_s, x.plain}), 2);
}

// A pass (not a transformation) reporting NestedSDFGs does not say where: every state's
// analyses go, access sets included, although they do not depend on nested SDFGs otherwise
// (the states of a removed nested SDFG may be freed).
TEST(TransformNestedInvalidation, AGlobalReportDropsEveryState) {
  Nesting x;
  AnalysisManager am;
  for (const ir::State* s : x.all()) am.access_sets(*s);
  am.invalidate(Modifies::NestedSDFGs);
  const int64_t before = am.computed();
  for (const ir::State* s : x.all()) am.access_sets(*s);
  EXPECT_EQ(am.computed(), before + 6);
}

// States changes the set of states (and may free any): every state's analyses go.
TEST(TransformNestedInvalidation, StatesStillDropsEverything) {
  Nesting x;
  AnalysisManager am;
  recomputed(am, x.all());
  am.invalidate(*x.plain, Modifies::States);
  EXPECT_EQ(recomputed(am, x.all()), 6);
}

}  // namespace
}  // namespace dace::transform::testing
