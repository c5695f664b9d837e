// Transformation history: recorded in the SDFG's transformation_hist, saved and loaded with
// it, replayed on the same input to the same bytes; optimization is deterministic.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/equality.h"
#include "ir/json/sdfg_json.h"
#include "transform/history.h"
#include "transform/replay.h"
#include "transform/revert.h"
#include "transform/simplify.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;  // not the dace::tasklet namespace
using T = ir::ScalarType;

// Three states in a chain (fusable), the middle one with nested maps (collapsible) over a
// trivial dimension (eliminable), plus an unused symbol.
// With `holes`, a removed block and removed nodes come first, so slots and DaCe's ids differ.
std::unique_ptr<ir::SDFG> sample(bool holes = false) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "hist";
  if (holes) {
    int gone = 0;
    add_state(*g, *g, "gone", &gone);
    g->remove_block(gone);
  }
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["spare"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "4"});
  add_array(*g, "B", T::Float64, {"N", "4"});
  int s0 = 0, s1 = 0, s2 = 0;
  add_state(*g, *g, "init", &s0);
  ir::State& s = add_state(*g, *g, "work", &s1);
  add_state(*g, *g, "done", &s2);
  add_interstate(*g, s0, s1);
  add_interstate(*g, s1, s2);
  if (holes) {
    s.remove_node(access(s, "A"));
    s.remove_node(access(s, "B"));
  }
  auto [outer, outer_exit] = map(s, {"i"}, "0:N");
  auto [inner, inner_exit] = map(s, {"j", "z"}, "0:4, 0:1");
  int t = tasklet(s, "b = a * 3", {"a"}, {"b"});
  for (int n : {outer, inner}) {
    s.node(n)->in_connectors["IN_A"] = ir::DType{};
    s.node(n)->out_connectors["OUT_A"] = ir::DType{};
  }
  for (int n : {outer_exit, inner_exit}) {
    s.node(n)->in_connectors["IN_B"] = ir::DType{};
    s.node(n)->out_connectors["OUT_B"] = ir::DType{};
  }
  edge(s, access(s, "A"), "", outer, "IN_A", "A[0:N, 0:4]");
  edge(s, outer, "OUT_A", inner, "IN_A", "A[i, 0:4]");
  edge(s, inner, "OUT_A", t, "a", "A[i, j + z]");
  edge(s, t, "b", inner_exit, "IN_B", "B[i, j]");
  edge(s, inner_exit, "OUT_B", outer_exit, "IN_B", "B[i, 0:4]");
  edge(s, outer_exit, "OUT_B", access(s, "B"), "", "B[0:N, 0:4]");
  return g;
}

// simplify, then TrivialMapElimination and MapCollapse repeatedly.
void optimize(ir::SDFG& g) {
  AnalysisManager am;
  ASSERT_TRUE(run_pass(g, *make_simplify_pipeline(), am).ok());
  for (const char* name : {"TrivialMapElimination", "MapCollapse"}) {
    auto t = make_transformation(name);
    Result<int> n = apply_repeated(g, *t, am);
    ASSERT_TRUE(n.ok()) << n.error().message;
    EXPECT_EQ(*n, 1) << name;
  }
  Status v = analysis::validate(g);
  ASSERT_TRUE(v.ok()) << v.error().message;
}

TEST(TransformHistory, RecordsEveryStepInDaceForm) {
  auto g = sample();
  optimize(*g);
  std::vector<HistoryEntry> h = history_of(*g);
  std::vector<std::string> names;
  for (const auto& e : h) names.push_back(e.transformation);
  EXPECT_EQ(names, (std::vector<std::string>{"StateFusion", "StateFusion", "RemoveUnusedSymbols",
                                             "TrivialMapElimination", "MapCollapse"}));
  EXPECT_EQ(to_json(h[4]),
            "{\"type\":\"PatternTransformation\",\"transformation\":\"MapCollapse\",\"cfg_id\":0,\"state_id\":0,"
            "\"_subgraph\":{\"0\":0,\"1\":2},\"expr_index\":0}");
  EXPECT_EQ(to_json(h[2]),
            "{\"type\":\"Pass\",\"transformation\":\"RemoveUnusedSymbols\",\"CATEGORY\":\"Simplification\","
            "\"recursive\":true}");
  // Ids are DaCe's (positions among live blocks): after the first fusion removed block 1,
  // the third block is block 1, as in the saved file and in DaCe.
  const std::vector<Match> expect_fusions{Match{0, -1, {0, 1}, 0}, Match{0, -1, {0, 1}, 0}};
  EXPECT_EQ(h[0].match, expect_fusions[0]);
  EXPECT_EQ(h[1].match, expect_fusions[1]);

  // Saved and loaded with the SDFG.
  Result<std::unique_ptr<ir::SDFG>> back = ir::json::read_sdfg(ir::json::write_sdfg(*g));
  ASSERT_TRUE(back.ok()) << back.error().message;
  std::vector<HistoryEntry> h2 = history_of(**back);
  ASSERT_EQ(h2.size(), h.size());
  for (size_t i = 0; i < h.size(); ++i) EXPECT_EQ(to_json(h2[i]), to_json(h[i]));
}

// Steps are appended to whatever history the file brought: an empty list, DaCe's own
// entries (kept, in order), or a value that is no list (replaced, as it cannot be read).
TEST(TransformHistory, RecordAppendsToTheStoredList) {
  const HistoryEntry step{HistoryEntry::Kind::Pass, "RemoveUnusedSymbols", {}, "{\"recursive\":true}"};
  const std::string dace_entry =
      "{\"type\":\"PatternTransformation\",\"transformation\":\"MapFusion\",\"cfg_id\":0,\"state_id\":0,"
      "\"_subgraph\":{\"0\":1,\"1\":2,\"2\":3},\"expr_index\":0}";
  struct Case {
    const char* stored;  // nullptr: no history yet
    std::vector<std::string> names;
  };
  for (const Case& c : {Case{nullptr, {"RemoveUnusedSymbols"}}, Case{"[]", {"RemoveUnusedSymbols"}},
                        Case{"{\"a\":1}", {"RemoveUnusedSymbols"}}, Case{"7", {"RemoveUnusedSymbols"}},
                        Case{"DACE", {"MapFusion", "RemoveUnusedSymbols"}}}) {
    ir::SDFG g;
    g.name = "h";
    if (c.stored) g.extra["transformation_hist"] = std::string(c.stored) == "DACE" ? "[" + dace_entry + "]" : c.stored;
    record(g, step);
    record(g, step);
    std::vector<std::string> names;
    for (const HistoryEntry& e : history_of(g)) names.push_back(e.transformation);
    std::vector<std::string> want = c.names;
    want.push_back("RemoveUnusedSymbols");
    EXPECT_EQ(names, want) << (c.stored ? c.stored : "(none)");
    EXPECT_EQ(history_size(g), want.size());
  }
}

TEST(TransformHistory, ReplayGivesTheSameBytes) {
  auto g = sample();
  optimize(*g);
  const std::string optimized = ir::json::write_sdfg(*g);
  Result<std::vector<HistoryEntry>> entries = parse_history(history_json(history_of(*g)));
  ASSERT_TRUE(entries.ok()) << entries.error().message;

  auto fresh = sample();
  AnalysisManager am;
  Status s = replay(*fresh, *entries, am);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(ir::json::write_sdfg(*fresh), optimized);
}

TEST(TransformHistory, LocationsSurviveSaveAndLoad) {
  // Holes in the node and block slots (left by earlier edits) are not in the saved file: a
  // history recorded in memory must replay on the file's SDFG, whose ids are dense.
  auto g = sample(/*holes=*/true);
  optimize(*g);
  const std::string optimized = ir::json::write_sdfg(*g);
  std::vector<HistoryEntry> h = history_of(*g);
  ASSERT_EQ(h.size(), 5u);
  EXPECT_EQ(h[0].match, (Match{0, -1, {0, 1}, 0}));  // slots 1 and 2

  Result<std::unique_ptr<ir::SDFG>> loaded = ir::json::read_sdfg(ir::json::write_sdfg(*sample(true)));
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  AnalysisManager am;
  Status s = replay(**loaded, h, am);
  ASSERT_TRUE(s.ok()) << s.error().message;
  // The same SDFG; written ids are dense either way, the history is the same list.
  EXPECT_EQ(ir::json::write_sdfg(**loaded), optimized);
}

// A history recorded on an SDFG with holes, read back from the saved file, replays on the
// original the file stores and gives the file again; ids in the reloaded copies agree.
TEST(TransformHistory, HistoryReadFromTheFileReplaysOnItsStoredOriginal) {
  auto g = sample(/*holes=*/true);
  optimize(*g);
  const std::string saved = ir::json::write_sdfg(*g);
  Result<std::unique_ptr<ir::SDFG>> loaded = ir::json::read_sdfg(saved);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(ir::json::write_sdfg(**loaded), saved);
  std::vector<HistoryEntry> h = history_of(**loaded);
  ASSERT_EQ(h.size(), 5u);
  Result<std::unique_ptr<ir::SDFG>> original = reverted(**loaded, h.size());
  ASSERT_TRUE(original.ok()) << original.error().message;
  EXPECT_EQ(ir::content_hash(**original), ir::content_hash(*sample(/*holes=*/false)));
  AnalysisManager am;
  Status s = replay(**original, h, am);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(ir::json::write_sdfg(**original), saved);
}

// SDFGs of equal content, one with holes: the same hash, the same matches in the same order,
// and the same bytes after the same steps.
TEST(TransformHistory, EqualContentEnumeratesAlike) {
  auto holey = sample(/*holes=*/true), plain = sample(/*holes=*/false);
  EXPECT_EQ(ir::content_hash(*holey), ir::content_hash(*plain));
  for (const char* name : {"StateFusion", "MapCollapse", "TrivialMapElimination"}) {
    auto t = make_transformation(name);
    AnalysisManager am1, am2;
    const std::vector<Match> a = t->enumerate(*holey, am1), b = t->enumerate(*plain, am2);
    EXPECT_FALSE(a.empty()) << name;
    EXPECT_EQ(a, b) << name;
  }
  optimize(*holey);
  optimize(*plain);
  EXPECT_EQ(ir::json::write_sdfg(*holey), ir::json::write_sdfg(*plain));
}

TEST(TransformHistory, OptimizationIsDeterministic) {
  std::string first;
  for (int run = 0; run < 3; ++run) {
    auto g = sample();
    optimize(*g);
    const std::string bytes = ir::json::write_sdfg(*g);
    if (run == 0) first = bytes;
    EXPECT_EQ(bytes, first) << "run " << run;
  }
}

TEST(TransformHistory, ReplayErrorsNameTheEntryAndTheElement) {
  auto g = sample();
  AnalysisManager am;
  Result<std::vector<HistoryEntry>> bad = parse_history(
      R"([{"type": "PatternTransformation", "transformation": "MapCollapse", "cfg_id": 0, "state_id": 1,)"
      R"( "_subgraph": {"0": 0, "1": 7}, "expr_index": 0}])");
  ASSERT_TRUE(bad.ok());
  Status s = replay(*g, *bad, am);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("history entry 0 (MapCollapse): "), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("no node 7"), std::string::npos) << s.error().message;

  Result<std::vector<HistoryEntry>> unknown = parse_history(R"({"type": "Pass", "transformation": "Nope"})");
  ASSERT_TRUE(unknown.ok());
  Status u = replay(*g, *unknown, am);
  ASSERT_FALSE(u.ok());
  EXPECT_EQ(u.error().code, Code::NotFound);

  EXPECT_FALSE(parse_history("[{\"transformation\": \"X\"}]").ok());
  EXPECT_FALSE(parse_history(R"([{"type": "ExpandTransformation", "transformation": "X"}])").ok());
  auto t = make_transformation("MapCollapse");
  EXPECT_FALSE(t->properties().set_from_json(R"({"bogus": 1})").ok());
}

TEST(TransformHistory, ResultsMatchPlainLoops) {
  auto g = sample();
  optimize(*g);
  const int64_t n = 3;
  std::vector<double> a(n * 4), b(n * 4, 0), expect(n * 4);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<double>(i) + 0.25;
  for (size_t i = 0; i < a.size(); ++i) expect[i] = a[i] * 3;
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  EXPECT_EQ(b, expect);
}

}  // namespace
}  // namespace dace::transform::testing
