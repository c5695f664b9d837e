// Memlet validation rules.
#include "validate_builder.h"

namespace vtest {
namespace {

const std::string kState = "sdfg \"mem\" / state \"s\"";

// A[10] -> B[10] copy in one state, memlet text given; A and B transient-free.
Builder copy_sdfg(const std::string& memlet, const std::string& shape_b = "10") {
  Builder b("mem");
  b.symbol("N");
  b.data("A", array({"10"}));
  b.data("B", array({shape_b}));
  State& s = b.block("s");
  int a = Builder::access(s, "A");
  int o = Builder::access(s, "B");
  b.edge(s, a, "", o, "", memlet);
  return b;
}

const std::string kCopyEdge = kState + " / edge 0 (0 -> 1)";

TEST(ValidateMemlet, CopyIsValid) {
  Builder b = copy_sdfg("A[0:10] -> [0:10]");
  expect_valid(*b.g);
}

TEST(ValidateMemlet, UndefinedData) {
  Builder b = copy_sdfg("A[0:10]");
  b.g->all_states()[0]->edge(0)->memlet.data = "Q";
  expect_error(*b.g, kCopyEdge + ": memlet refers to undefined data \"Q\"");
}

TEST(ValidateMemlet, NullSubsetExpression) {
  Builder b = copy_sdfg("A[0:10]");
  b.g->all_states()[0]->edge(0)->memlet.subset.dims[0].end = nullptr;
  expect_error(*b.g, kCopyEdge + ": memlet subset has a null expression");
}

TEST(ValidateMemlet, NegativeVolume) {
  Builder b = copy_sdfg("A[0:10]");
  b.g->all_states()[0]->edge(0)->memlet.volume = E("-5");
  expect_error(*b.g, kCopyEdge + ": memlet volume is negative (-5)");
}

TEST(ValidateMemlet, SubsetRankMismatch) {
  Builder b = copy_sdfg("A[0:10, 0]");
  expect_error(*b.g, kCopyEdge + ": memlet subset has 2 dimensions but data \"A\" has 1");
}

TEST(ValidateMemlet, OtherSubsetRankMismatch) {
  Builder b = copy_sdfg("A[0:10] -> [0:10, 0]");
  expect_error(*b.g, kCopyEdge + ": memlet other_subset has 2 dimensions but data \"B\" has 1");
}

TEST(ValidateMemlet, NegativeSizeBetweenAccessNodes) {
  Builder b = copy_sdfg("A[5:2]");
  expect_error(*b.g, kCopyEdge + ": subset has a negative size in dimension 0");
}

TEST(ValidateMemlet, DataMatchesNeitherEnd) {
  Builder b = copy_sdfg("A[0:10]");
  b.data("C", array({"10"}));
  b.g->all_states()[0]->edge(0)->memlet.data = "C";
  expect_error(*b.g, kCopyEdge + ": memlet data \"C\" matches neither the source nor the destination access node");
}

TEST(ValidateMemlet, OutOfBoundsEnd) {
  Builder b = copy_sdfg("A[0:11] -> [0:11]", "11");
  expect_error(*b.g, kCopyEdge + ": subset dimension 0 is out of bounds (reaches 10, size 10)");
}

TEST(ValidateMemlet, OutOfBoundsNegativeStart) {
  Builder b = copy_sdfg("A[-1:9] -> [0:10]");
  expect_error(*b.g, kCopyEdge + ": subset dimension 0 is out of bounds (starts below 0 at -1)");
}

TEST(ValidateMemlet, OtherSubsetOutOfBounds) {
  Builder b = copy_sdfg("A[0:10] -> [1:11]");
  expect_error(*b.g, kCopyEdge + ": other_subset dimension 0 is out of bounds (reaches 10, size 10)");
}

TEST(ValidateMemlet, SymbolicOutOfBounds) {
  Builder b("mem");
  b.symbol("N");
  b.data("A", array({"N"}));
  b.data("B", array({"N"}));
  State& s = b.block("s");
  int a = Builder::access(s, "A");
  int o = Builder::access(s, "B");
  b.edge(s, a, "", o, "", "A[N] -> [0]");
  expect_error(*b.g, kCopyEdge + ": subset dimension 0 is out of bounds (reaches N, size N)");
}

TEST(ValidateMemlet, AllowOobAndDynamicAreNotChecked) {
  Builder b = copy_sdfg("A[0:11] -> [0:11]", "11");
  b.g->all_states()[0]->edge(0)->memlet.allow_oob = true;
  expect_valid(*b.g);
  Builder c = copy_sdfg("A[5:15] -> [0:10]");
  c.g->all_states()[0]->edge(0)->memlet.dynamic = true;
  expect_valid(*c.g);
}

// One state per range: B[i] = A[i] over a map `i = range`, A and B of 10 elements, the
// outer memlets the whole arrays. Only the map's range differs between states, so the inner
// memlets have the same index and size expressions and differ in what is known about `i`.
Builder maps_over_ranges(const std::vector<std::string>& ranges) {
  Builder b("mem");
  b.data("A", array({"10"}));
  b.data("B", array({"10"}));
  State* previous = nullptr;
  for (size_t k = 0; k < ranges.size(); ++k) {
    State& s = b.block("s" + std::to_string(k));
    int a = Builder::access(s, "A");
    int out = Builder::access(s, "B");
    auto [me, mx] = Builder::map(s, "m", {"i"}, ranges[k]);
    int t = Builder::tasklet(s, "t", {"a"}, {"b"}, "b = a");
    Builder::conn_in(s, me, "IN_A");
    Builder::conn_out(s, me, "OUT_A");
    Builder::conn_in(s, mx, "IN_B");
    Builder::conn_out(s, mx, "OUT_B");
    b.edge(s, a, "", me, "IN_A", "A[0:10]");
    b.edge(s, me, "OUT_A", t, "a", "A[i]");
    b.edge(s, t, "b", mx, "IN_B", "B[i]");
    b.edge(s, mx, "OUT_B", out, "", "B[0:10]");
    if (previous) b.interstate(*previous, s);
    previous = &s;
  }
  return b;
}

TEST(ValidateMemlet, SameIndexUnderOtherMapRangesIsCheckedAgain) {
  // Verdicts are remembered per SDFG; `A[i]` is inside for i in 0..9 and reaches past the
  // size 10 for i in 10..19 (hand-derived), so a verdict reused across the two ranges would
  // hide or invent an error.
  const std::string inside = "0:10", outside = "10:20";
  const std::string read = " / edge 1 (2.OUT_A -> 4.a): subset dimension 0 is out of bounds (reaches i, size 10)";
  for (const auto& order : {std::vector<std::string>{inside, outside}, std::vector<std::string>{outside, inside}}) {
    Builder b = maps_over_ranges(order);
    const std::string bad_state = order[0] == outside ? "s0" : "s1";
    SCOPED_TRACE(order[0] + " then " + order[1]);
    auto errors = analysis::validate_all(*b.g);
    std::vector<std::string> about_a;
    for (const auto& e : errors)
      if (e.message.find("edge 1 (") != std::string::npos) about_a.push_back(e.message);
    ASSERT_EQ(about_a.size(), 1u) << all_messages(errors);
    EXPECT_EQ(about_a[0], "sdfg \"mem\" / state \"" + bad_state + "\"" + read);
  }
  expect_valid(*maps_over_ranges({inside, inside}).g);
}

TEST(ValidateMemlet, UndecidableBoundsAreAccepted) {
  // A[M] with shape N: fine whenever M < N, so not provably out of bounds.
  Builder b("mem");
  b.symbol("N");
  b.symbol("M");
  b.data("A", array({"N"}));
  b.data("B", array({"1"}));
  State& s = b.block("s");
  int a = Builder::access(s, "A");
  int o = Builder::access(s, "B");
  b.edge(s, a, "", o, "", "A[M] -> [0]");
  expect_valid(*b.g);
}

TEST(ValidateMemlet, ElementCountMismatch) {
  Builder b = copy_sdfg("A[0:5] -> [0:4]");
  expect_error(*b.g, kCopyEdge + ": source and destination subsets have different numbers of elements (5 and 4)");
}

TEST(ValidateMemlet, WcrValidForms) {
  for (const char* wcr : {"lambda a, b: a + b", "(lambda x, y: (max(x, y)))", "sum", "Max"}) {
    Builder b = simple_map_sdfg();
    b.g->all_states()[0]->edge(2)->memlet.wcr = wcr;
    b.g->all_states()[0]->edge(3)->memlet.wcr = wcr;
    SCOPED_TRACE(wcr);
    expect_valid(*b.g);
  }
}

TEST(ValidateMemlet, WcrThreeArguments) {
  Builder b = simple_map_sdfg();
  b.g->all_states()[0]->edge(2)->memlet.wcr = "lambda a, b, c: a";
  expect_error(*b.g, "sdfg \"simple\" / state \"s\" / edge 2 (4.b -> 3.IN_B): invalid write-conflict resolution "
                     "\"lambda a, b, c: a\": lambda must take exactly two arguments");
}

TEST(ValidateMemlet, WcrUnknownReduction) {
  Builder b = simple_map_sdfg();
  b.g->all_states()[0]->edge(2)->memlet.wcr = "frobnicate";
  expect_error(*b.g, "sdfg \"simple\" / state \"s\" / edge 2 (4.b -> 3.IN_B): invalid write-conflict resolution "
                     "\"frobnicate\": not a lambda of two arguments or a known reduction");
}

TEST(ValidateMemlet, EmptyMemletOnTaskletConnector) {
  Builder b = simple_map_sdfg();
  b.g->all_states()[0]->edge(1)->memlet = Memlet{};
  expect_error(*b.g, "sdfg \"simple\" / state \"s\" / edge 1 (2.OUT_A -> 4.a): empty memlet connected to tasklet "
                     "input connector \"a\" (only allowed between two adjacent tasklets)");
}

TEST(ValidateMemlet, EmptyMemletBetweenAdjacentTaskletsIsValid) {
  Builder b("mem");
  b.data("x", scalar(true));
  State& s = b.block("s");
  int t1 = Builder::tasklet(s, "t1", {}, {"o"}, "o = 1");
  int t2 = Builder::tasklet(s, "t2", {"i"}, {"o"}, "o = i");
  int x = Builder::access(s, "x");
  b.edge(s, t1, "o", t2, "i", "");
  b.edge(s, t2, "o", x, "", "x[0]");
  expect_valid(*b.g);
}

TEST(ValidateMemlet, GpuScalarReadOnHost) {
  Builder b("mem");
  DataDescriptor g = array({"4"}, true);
  g.storage = StorageType::GPU_Global;
  b.data("G", g);
  b.data("x", scalar(true));
  State& s = b.block("s");
  int gn = Builder::access(s, "G");
  int t = Builder::tasklet(s, "t", {"a"}, {"o"}, "o = a");
  int x = Builder::access(s, "x");
  b.edge(s, gn, "", t, "a", "G[1]");
  b.edge(s, t, "o", x, "", "x[0]");
  expect_error(*b.g, kState + " / edge 0 (0 -> 1.a): data container \"G\" is stored as GPU_Global but accessed on the host");
}

TEST(ValidateMemlet, GpuScalarReadInGpuMapIsValid) {
  Builder b("mem");
  DataDescriptor g = array({"4"}, true);
  g.storage = StorageType::GPU_Global;
  b.data("G", g);
  b.data("H", g);
  State& s = b.block("s");
  int gn = Builder::access(s, "G");
  int hn = Builder::access(s, "H");
  auto [me, mx] = Builder::map(s, "k", {"i"}, "0:4");
  static_cast<MapEntry&>(*s.node(me)).map.schedule = ScheduleType::GPU_Device;
  int t = Builder::tasklet(s, "t", {"a"}, {"o"}, "o = a");
  Builder::conn_in(s, me, "IN_G");
  Builder::conn_out(s, me, "OUT_G");
  Builder::conn_in(s, mx, "IN_H");
  Builder::conn_out(s, mx, "OUT_H");
  b.edge(s, gn, "", me, "IN_G", "G[0:4]");
  b.edge(s, me, "OUT_G", t, "a", "G[i]");
  b.edge(s, t, "o", mx, "IN_H", "H[i]");
  b.edge(s, mx, "OUT_H", hn, "", "H[0:4]");
  expect_valid(*b.g);
}

TEST(ValidateMemlet, PathLeavesScopeIntoNonDataNode) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  // Route the map output into a tasklet instead of the access node B.
  int t2 = Builder::tasklet(s, "t2", {"v"}, {"o"}, "o = v");
  b.data("x", scalar(true));
  int x = Builder::access(s, "x");
  s.set_edge_ends(3, s.edge(3)->src, t2);
  s.edge(3)->dst_conn = "v";
  s.remove_node(1);
  b.edge(s, t2, "o", x, "", "x[0]");
  auto errors = analysis::validate_all(*b.g);
  bool found = false;
  for (const auto& e : errors)
    if (e.message == "sdfg \"simple\" / state \"s\" / edge 2 (4.b -> 3.IN_B): memlet path leaves a scope into node 5, "
                     "which is not an access node")
      found = true;
  EXPECT_TRUE(found) << all_messages(errors);
}

}  // namespace
}  // namespace vtest

namespace vtest {
namespace {

// One-point map `o = 0:1` (DaCe: `0:0` inclusive) writing B[o] through its exit, B of size 1:
// the shape of DaCe's Reduce expansions. `write` is the tasklet-to-exit memlet.
Builder one_point_map(const std::string& write) {
  Builder b("onept");
  b.data("B", array({"1"}));
  State& s = b.block("s");
  int out = Builder::access(s, "B");
  auto [me, mx] = Builder::map(s, "m", {"o"}, "0:1");
  int t = Builder::tasklet(s, "t", {}, {"b"}, "b = 1.0");
  Builder::conn_in(s, mx, "IN_B");
  Builder::conn_out(s, mx, "OUT_B");
  b.edge(s, me, "", t, "", "");
  b.edge(s, t, "b", mx, "IN_B", write);
  b.edge(s, mx, "OUT_B", out, "", "B[0]");
  return b;
}

TEST(ValidateMemlet, MapParameterIsBoundedInsideItsExit) {
  expect_valid(*one_point_map("B[o]").g);
}

TEST(ValidateMemlet, OnePointMapOverrunIsStillReported) {
  Builder b = one_point_map("B[o + 1]");
  Status st = analysis::validate(*b.g);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("subset dimension 0 is out of bounds"), std::string::npos) << st.error().message;
}

}  // namespace
}  // namespace vtest
