// The IR's change stamps (ir::ChangeStamp, SDFG::last_change): every edit anywhere in an SDFG
// tree, removals and edits of nested SDFGs included, makes last_change() larger than any value
// it had before; reads leave it. On corpus SDFGs, every pass and transformation that changes
// the saved bytes changes it too (the pass runner stamps what passes write through pointers).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "corpus_case.h"
#include "ir/json/sdfg_json.h"
#include "ir/sdfg.h"
#include "transform/apply.h"
#include "transform/registry.h"

namespace dace::ir {
namespace {

// Asserts that `sdfg.last_change()` moved past every value seen so far.
class Watch {
 public:
  explicit Watch(const SDFG& g) : g_(g) { seen_.insert(g.last_change()); }
  void expect_new(const char* what) {
    const uint64_t now = g_.last_change();
    EXPECT_GT(now, *seen_.rbegin()) << what;
    seen_.insert(now);
  }
  void expect_same(const char* what) const { EXPECT_EQ(g_.last_change(), *seen_.rbegin()) << what; }

 private:
  const SDFG& g_;
  std::set<uint64_t> seen_;
};

int connect(State& s, int src, int dst) {
  DataflowEdge e;
  e.src = src;
  e.dst = dst;
  return s.add_edge(e);
}

TEST(IrChangeStamp, EveryEditOfAStateOrRegion) {
  SDFG g;
  Watch w(g);
  const int s0 = g.add_block(std::make_unique<State>());
  w.expect_new("add_block");
  const int s1 = g.add_block(std::make_unique<State>());
  auto& st = static_cast<State&>(*g.block(s0));
  const int a = st.add_node(std::make_unique<AccessNode>());
  w.expect_new("add_node");
  const int t = st.add_node(std::make_unique<Tasklet>());
  const int e = connect(st, a, t);
  w.expect_new("State::add_edge");
  st.set_edge_ends(e, t, a);
  w.expect_new("set_edge_ends");
  st.remove_edge(e);
  w.expect_new("State::remove_edge");
  const int entry = st.add_node(std::make_unique<MapEntry>());
  const int exit = st.add_node(std::make_unique<MapExit>());
  w.expect_new("add_node (exit)");
  st.set_scope_entry(exit, entry);
  w.expect_new("set_scope_entry");
  st.remove_node(t);
  w.expect_new("remove_node");
  std::unique_ptr<Node> released = st.release_node(a);
  w.expect_new("release_node");
  st.node(entry)->label = "m";
  w.expect_same("a direct write is not seen by itself");
  st.touch();
  w.expect_new("State::touch");

  // Reads change nothing.
  (void)st.scope_parents();
  (void)st.exit_of(entry);
  (void)st.node_ids();
  (void)g.clone_sdfg();
  w.expect_same("reads");

  InterstateEdge ie;
  ie.src = s0;
  ie.dst = s1;
  const int ie_slot = g.add_edge(ie);
  w.expect_new("region add_edge");
  g.edge(ie_slot)->condition.code = "N > 0";
  g.touch();
  w.expect_new("SDFG::touch");
  g.remove_edge(ie_slot);
  w.expect_new("region remove_edge");
  std::unique_ptr<ControlFlowBlock> out = g.release_block(s1);
  w.expect_new("release_block");
  g.remove_block(s0);
  w.expect_new("remove_block");
}

// A state edited many times, then removed: the tree's stamp still grows (a sum of per-state
// counters would drop back here).
TEST(IrChangeStamp, RemovingAnEditedStateStillMovesForward) {
  SDFG g;
  const int keep = g.add_block(std::make_unique<State>());
  const int busy = g.add_block(std::make_unique<State>());
  auto& s = static_cast<State&>(*g.block(busy));
  for (int i = 0; i < 50; ++i) s.add_node(std::make_unique<AccessNode>());
  Watch w(g);
  g.remove_block(busy);
  w.expect_new("remove_block of the edited state");
  static_cast<State&>(*g.block(keep)).add_node(std::make_unique<AccessNode>());
  w.expect_new("an edit after the removal");
}

// An edit inside a nested SDFG, at any depth, moves the outer SDFG's stamp.
TEST(IrChangeStamp, NestedEditsShowOutside) {
  SDFG outer;
  auto& os = static_cast<State&>(*outer.block(outer.add_block(std::make_unique<State>())));
  auto nest = std::make_unique<NestedSDFGNode>();
  nest->sdfg = std::make_unique<SDFG>();
  SDFG& inner = *nest->sdfg;
  auto& is = static_cast<State&>(*inner.block(inner.add_block(std::make_unique<State>())));
  os.add_node(std::move(nest));
  Watch w(outer);
  is.add_node(std::make_unique<AccessNode>());
  w.expect_new("a node added in the nested SDFG");
  inner.touch();
  w.expect_new("the nested SDFG touched");
}

std::string bytes_of(const SDFG& g) { return json::write_sdfg(g); }

// Every registered pass and transformation (first match), on the raw and simplified corpus
// SDFGs: when the saved bytes changed, the stamp did.
TEST(IrChangeStamp, PassesThatChangeTheSdfgChangeTheStamp) {
  const auto files = codegen::testing::simp_and_raw_files(codegen::testing::corpus_case_dirs());
  if (files.empty()) GTEST_SKIP() << "no corpus SDFGs found at " << LIBDACE_CORPUS_DIR;
  int changed = 0;
  for (const auto& cf : files) {
    Result<std::unique_ptr<SDFG>> loaded = json::read_sdfg_file(cf.sdfg);
    ASSERT_TRUE(loaded.ok()) << cf.sdfg;
    for (const std::string& name : transform::registered_names()) {
      if (name == "auto_optimize_gpu") continue;  // needs the CUDA plugin's schedules
      SCOPED_TRACE(cf.name + ": " + name);
      std::unique_ptr<SDFG> g = (*loaded)->clone_sdfg();
      const std::string before = bytes_of(*g);
      const uint64_t stamp = g->last_change();
      transform::AnalysisManager am;
      if (transform::is_pattern_transformation(name)) {
        auto t = transform::make_transformation(name);
        (void)transform::apply_first(*g, *t, am);
      } else {
        (void)transform::run_pass(*g, *transform::make_pass(name), am);
      }
      if (bytes_of(*g) == before) continue;
      ++changed;
      EXPECT_GT(g->last_change(), stamp) << "the SDFG changed but its stamp did not";
    }
  }
  EXPECT_GT(changed, 0) << "no pass changed any corpus SDFG: the test checked nothing";
}

}  // namespace
}  // namespace dace::ir
