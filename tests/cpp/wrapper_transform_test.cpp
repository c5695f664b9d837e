// The optimizer through libdace.hpp: listing, simplify, MapFusion by name (once, at a listed
// match, repeatedly), the history and its replay, and errors as libdace::error with the SDFG
// unchanged. Results are checked against a loop computed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "libdace.hpp"
#include "wrapper_test_util.h"

namespace {

using wrapper_test::contains;
using wrapper_test::error_of;

// B = (A + 1) * 2 through a transient T: two maps in sequence, one MapFusion match. A first
// empty state gives StateFusion (in simplify) something to do.
libdace::sdfg two_maps() {
  libdace::sdfg g("chain");
  g.add_symbol("N");
  g.add_array("A", DACE_FLOAT64, "N");
  g.add_array("B", DACE_FLOAT64, "N");
  g.add_transient("T", DACE_FLOAT64, "N");
  libdace::state init = g.add_state("init");
  libdace::state s = g.add_state("main");
  g.add_interstate_edge(init.id(), s.id());
  const dace_id_t a = s.add_access("A"), t = s.add_access("T"), b = s.add_access("B");
  struct Step {
    const char* name;
    const char* param;
    dace_id_t src, dst;
    const char* src_data;
    const char* dst_data;
    const char* code;
  };
  for (const Step& st : {Step{"inc", "i", a, t, "A", "T", "y = x + 1"}, Step{"dbl", "j", t, b, "T", "B", "y = x * 2"}}) {
    libdace::map_scope m = s.add_map(st.name, std::string(st.param) + "=0:N");
    const dace_id_t tk = s.add_tasklet(st.name, "x", "y", st.code);
    const std::string src(st.src_data), dst(st.dst_data), p(st.param);
    s.add_edge(st.src, "", m.entry, "IN_" + src, src + "[0:N]");
    s.add_edge(m.entry, "OUT_" + src, tk, "x", src + "[" + p + "]");
    s.add_edge(tk, "y", m.exit, "IN_" + dst, dst + "[" + p + "]");
    s.add_edge(m.exit, "OUT_" + dst, st.dst, "", dst + "[0:N]");
  }
  return g;
}

void expect_computes(const libdace::sdfg& g) {
  libdace::context ctx;
  libdace::compile_options o;
  o.opt_level = 1;
  libdace::program p{ctx, g, o};
  std::vector<double> a = {1, 2, 3, 4, 5, 6}, b(6, 0);
  p({{"A", libdace::array_ref(a)}, {"B", libdace::array_ref(b)}});
  for (size_t i = 0; i < a.size(); ++i) EXPECT_DOUBLE_EQ(b[i], (a[i] + 1) * 2) << i;
}

TEST(WrapperTransform, ListsNamesAndKinds) {
  const std::vector<std::string> names = libdace::transformations();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_NE(std::find(names.begin(), names.end(), "MapFusion"), names.end());
  EXPECT_TRUE(libdace::is_pass("simplify"));
  EXPECT_FALSE(libdace::is_pass("StateFusion"));
  EXPECT_EQ(error_of([] { libdace::is_pass("Nope"); }).code(), DACE_ERROR_NOT_FOUND);
}

TEST(WrapperTransform, SimplifyFuseReplay) {
  libdace::sdfg g = two_maps();
  const libdace::sdfg input = g.clone();
  g.validate();
  g.simplify();
  EXPECT_EQ(g.states().size(), 1u);
  const std::string matches = g.match_transformation("MapFusion");
  ASSERT_TRUE(contains(matches, "\"_subgraph\"")) << matches;
  // The listed match (one line of the list) is a valid location.
  const size_t from = matches.find('{'), to = matches.rfind('}');
  g.apply_transformation("MapFusion", matches.substr(from, to - from + 1));
  EXPECT_EQ(g.apply_transformation_repeated("MapFusion"), 0);
  g.validate();
  expect_computes(g);

  const std::string history = g.history_json();
  EXPECT_TRUE(contains(history, "StateFusion") && contains(history, "MapFusion")) << history;
  libdace::sdfg again = input.clone();
  again.replay_history(history);
  EXPECT_EQ(again.to_json(), g.to_json());
}

// revert_history(k) equals the input with the history's first n - k entries replayed (built
// here from a fresh copy), also on an SDFG loaded from the saved JSON; too many steps is an
// error that changes nothing.
TEST(WrapperTransform, RevertEqualsTheFirstSteps) {
  libdace::sdfg g = two_maps();
  const libdace::sdfg input = g.clone();
  g.simplify();
  EXPECT_EQ(g.apply_transformation_repeated("MapFusion"), 1);
  const std::string history = g.history_json();
  const std::string done = g.to_json();
  // The last entry is MapFusion: the steps before it, replayed on the input.
  const size_t last = history.rfind("\n {");
  ASSERT_NE(last, std::string::npos) << history;
  std::string head = history.substr(0, last);
  if (head.back() == ',') head.pop_back();
  libdace::sdfg expected = input.clone();
  expected.replay_history(head + "\n]\n");
  libdace::sdfg loaded = libdace::sdfg::load_string(done);
  g.revert_history(1);
  loaded.revert_history();
  EXPECT_EQ(g.to_json(), expected.to_json());
  EXPECT_EQ(loaded.to_json(), expected.to_json());
  const std::string before = g.to_json();
  EXPECT_EQ(error_of([&] { g.revert_history(100); }).code(), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g.to_json(), before);
}

TEST(WrapperTransform, RepeatedCountsAndErrorsChangeNothing) {
  libdace::sdfg g = two_maps();
  const std::string before = g.to_json();
  EXPECT_EQ(error_of([&] { g.apply_transformation("MapFusionX"); }).code(), DACE_ERROR_NOT_FOUND);
  EXPECT_EQ(error_of([&] { g.apply_transformation("MapFusion", "{\"zzz\": 1}"); }).code(), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error_of([&] { g.apply_transformation("MapFusion", "{nope"); }).code(), DACE_ERROR_PARSE);
  const libdace::error at = error_of([&] {
    g.apply_transformation("MapFusion", R"({"cfg_id": 0, "state_id": 1, "_subgraph": {"0": 0, "1": 1, "2": 2}})");
  });
  EXPECT_EQ(at.code(), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(at.what(), "MapFusion at cfg 0 / state 1")) << at.what();
  EXPECT_EQ(g.to_json(), before);
  EXPECT_EQ(g.apply_transformation_repeated("MapFusion"), 1);
  expect_computes(g);
}

}  // namespace
