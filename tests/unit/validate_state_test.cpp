// Dataflow validation rules: graph shape, connectors, scopes, tasklets, maps.
// simple_map_sdfg(): nodes 0 A, 1 B, 2 MapEntry "m", 3 MapExit "m", 4 Tasklet "t";
// edges 0: 0 -> 2.IN_A, 1: 2.OUT_A -> 4.a, 2: 4.b -> 3.IN_B, 3: 3.OUT_B -> 1.
#include "validate_builder.h"

namespace vtest {
namespace {

const std::string kState = "sdfg \"simple\" / state \"s\"";
const std::string kTasklet = kState + " / node 4 (Tasklet \"t\")";
const std::string kEntry = kState + " / node 2 (MapEntry \"m\")";

TEST(ValidateState, DanglingEdgeEndpoint) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  DataflowEdge e;
  e.src = 0;
  e.dst = 42;
  s.add_edge(e);
  expect_error(*b.g, kState + " / edge 4 (0 -> 42): edge endpoint does not exist (source 0, destination 42)");
}

TEST(ValidateState, Cycle) {
  Builder b("simple");
  b.data("x", scalar(true));
  State& s = b.block("s");
  int t1 = Builder::tasklet(s, "t1", {"a"}, {"b"}, "b = a");
  int t2 = Builder::tasklet(s, "t2", {"a"}, {"b"}, "b = a");
  int x = Builder::access(s, "x");
  int y = Builder::access(s, "x");
  b.edge(s, t1, "b", x, "", "x[0]");
  b.edge(s, x, "", t2, "a", "x[0]");
  b.edge(s, t2, "b", y, "", "x[0]");
  b.edge(s, y, "", t1, "a", "x[0]");
  expect_error(*b.g, kState + ": dataflow graph contains a cycle");
}

TEST(ValidateState, IsolatedAccessNode) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  Builder::access(s, "A");
  expect_error(*b.g, kState + " / node 5 (AccessNode \"A\"): isolated node");
}

TEST(ValidateState, IsolatedTaskletIsAllowed) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  Builder::tasklet(s, "lonely", {}, {}, "");
  expect_valid(*b.g);
}

TEST(ValidateState, AccessNodeUndefinedData) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  int t = Builder::tasklet(s, "w", {}, {"o"}, "o = 1");
  int z = Builder::access(s, "Z");
  b.edge(s, t, "o", z, "", "Z[0]");
  expect_error(*b.g, kState + " / node 6 (AccessNode \"Z\"): access node refers to undefined data \"Z\"");
}

TEST(ValidateState, InputConnectorWithoutEdge) {
  Builder b = simple_map_sdfg();
  Builder::conn_in(*b.g->all_states()[0], 4, "c");
  expect_error(*b.g, kTasklet + " / connector \"c\": input connector has no incoming edge");
}

TEST(ValidateState, OutputConnectorWithoutEdge) {
  Builder b = simple_map_sdfg();
  Builder::conn_out(*b.g->all_states()[0], 4, "d");
  expect_error(*b.g, kTasklet + " / connector \"d\": output connector has no outgoing edge");
}

TEST(ValidateState, InputConnectorTwoEdges) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  b.edge(s, 2, "OUT_A", 4, "a", "A[i]");
  expect_error(*b.g, kTasklet + " / connector \"a\": input connector has 2 incoming edges");
}

TEST(ValidateState, TaskletOutputConnectorTwoEdges) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  b.edge(s, 4, "b", 3, "IN_B", "B[i]");
  expect_error(*b.g, kTasklet + " / connector \"b\": output connector has 2 outgoing edges");
}

TEST(ValidateState, EdgeToNonexistentConnector) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  s.edge(1)->dst_conn = "q";
  expect_error(*b.g, kState + " / edge 1 (2.OUT_A -> 4.q): edge leads to nonexistent input connector \"q\" of node 4");
}

TEST(ValidateState, EdgeFromNonexistentConnector) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  s.edge(2)->src_conn = "q";
  expect_error(*b.g,
               kState + " / edge 2 (4.q -> 3.IN_B): edge comes from nonexistent output connector \"q\" of node 4");
}

TEST(ValidateState, ConnectorBothInputAndOutput) {
  Builder b("simple");
  b.data("x", scalar(true));
  State& s = b.block("s");
  int r = Builder::access(s, "x");
  int t = Builder::tasklet(s, "t", {"v"}, {"v"}, "v = v + 1");
  int w = Builder::access(s, "x");
  b.edge(s, r, "", t, "v", "x[0]");
  b.edge(s, t, "v", w, "", "x[0]");
  expect_error(*b.g, "sdfg \"simple\" / state \"s\" / node 1 (Tasklet \"t\") / connector \"v\": connector is both an "
                     "input and an output");
}

TEST(ValidateState, ConnectorNamedLikeData) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  Tasklet& t = static_cast<Tasklet&>(*s.node(4));
  t.in_connectors.erase("a");
  t.in_connectors["N"] = DType{};
  t.code.code = "b = N + 1";
  s.edge(1)->dst_conn = "N";
  expect_error(*b.g, kTasklet + " / connector \"N\": connector name is already used as a symbol, constant or data name");
}

TEST(ValidateState, InvalidConnectorName) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  Tasklet& t = static_cast<Tasklet&>(*s.node(4));
  t.in_connectors.erase("a");
  t.in_connectors["a b"] = DType{};
  s.edge(1)->dst_conn = "a b";
  expect_error(*b.g, kTasklet + " / connector \"a b\": invalid connector name");
}

TEST(ValidateState, EntryWithoutExit) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  s.set_scope_entry(3, 0);
  expect_error(*b.g, kEntry + ": scope entry has no matching exit node");
}

TEST(ValidateState, ExitReferringToNonEntry) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  s.set_scope_entry(3, 0);
  expect_error(*b.g, kState + " / node 3 (MapExit \"m\"): scope exit does not refer to a MapEntry node (entry 0)");
}

TEST(ValidateState, EntryWithTwoExits) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  auto x = std::make_unique<MapExit>();
  x->label = "m2";
  x->entry = 2;
  int xid = s.add_node(std::move(x));
  b.edge(s, 4, "", xid, "", "");
  expect_error(*b.g, kEntry + ": scope entry has 2 exit nodes");
}

TEST(ValidateState, ScopeInConnectorWithoutOut) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  s.node(2)->out_connectors.erase("OUT_A");
  s.node(2)->out_connectors["OUT_Z"] = DType{};
  s.edge(1)->src_conn = "OUT_Z";
  expect_error(*b.g, kEntry + " / connector \"IN_A\": scope input connector has no matching output connector \"OUT_A\"");
}

TEST(ValidateState, ScopeOutConnectorWithoutIn) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  s.node(2)->out_connectors["OUT_Z"] = DType{};
  b.edge(s, 2, "OUT_Z", 4, "", "");
  expect_error(*b.g, kEntry + " / connector \"OUT_Z\": scope output connector has no matching input connector \"IN_Z\"");
}

TEST(ValidateState, EdgeSkipsScopeEntry) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  // A second input of the tasklet comes straight from A outside the map.
  Builder::conn_in(s, 4, "c");
  int a2 = Builder::access(s, "A");
  b.edge(s, a2, "", 4, "c", "A[0]");
  auto errors = analysis::validate_all(*b.g);
  bool found = false;
  for (const auto& e : errors)
    if (e.message == kState + " / edge 4 (5 -> 4.c): edge crosses a scope boundary without passing through the "
                              "scope's entry or exit node")
      found = true;
  EXPECT_TRUE(found) << all_messages(errors);
}

TEST(ValidateState, MapParamCountMismatch) {
  Builder b = simple_map_sdfg();
  static_cast<MapEntry&>(*b.g->all_states()[0]->node(2)).map.range = S("0:N, 0:N");
  expect_error(*b.g, kEntry + ": map has 1 parameters but 2 range dimensions");
}

TEST(ValidateState, MapRangeUndefinedSymbol) {
  Builder b = simple_map_sdfg();
  static_cast<MapEntry&>(*b.g->all_states()[0]->node(2)).map.range = S("0:M");
  expect_error(*b.g, kEntry + ": undefined symbol \"M\" in map range dimension 0");
}

TEST(ValidateState, MapRangeZeroStep) {
  Builder b = simple_map_sdfg();
  // The subset parser rejects a zero step, so set it directly.
  static_cast<MapEntry&>(*b.g->all_states()[0]->node(2)).map.range.dims[0].step = sym::integer(0);
  expect_error(*b.g, kEntry + ": map range dimension 0 has step 0");
}

TEST(ValidateState, InvalidMapName) {
  Builder b = simple_map_sdfg();
  b.g->all_states()[0]->node(2)->label = "my map";
  expect_error(*b.g, kState + " / node 2 (MapEntry \"my map\"): invalid map name");
}

TEST(ValidateState, DuplicateMapParam) {
  Builder b = simple_map_sdfg();
  auto& m = static_cast<MapEntry&>(*b.g->all_states()[0]->node(2)).map;
  m.params = {"i", "i"};
  m.range = S("0:N, 0:N");
  expect_error(*b.g, kEntry + ": map parameter \"i\" appears twice");
}

// Outer map over i, inner map over `inner_param`, tasklet writes B[i].
Builder nested_maps(const std::string& inner_param, const std::string& inner_range) {
  Builder b("nest");
  b.symbol("N");
  b.data("B", array({"N"}));
  State& s = b.block("s");
  auto [oe, ox] = Builder::map(s, "outer", {"i"}, "0:N");
  auto [ie, ix] = Builder::map(s, "inner", {inner_param}, inner_range);
  int t = Builder::tasklet(s, "t", {}, {"o"}, "o = i");
  int out = Builder::access(s, "B");
  for (int n : {ox, ix}) {
    Builder::conn_in(s, n, "IN_B");
    Builder::conn_out(s, n, "OUT_B");
  }
  b.edge(s, oe, "", ie, "", "");
  b.edge(s, ie, "", t, "", "");
  b.edge(s, t, "o", ix, "IN_B", "B[i]");
  b.edge(s, ix, "OUT_B", ox, "IN_B", "B[i]");
  b.edge(s, ox, "OUT_B", out, "", "B[0:N]");
  return b;
}

TEST(ValidateState, NestedMapsValid) {
  Builder b = nested_maps("j", "0:i");
  expect_valid(*b.g);
}

TEST(ValidateState, MapParamShadowsEnclosing) {
  Builder b = nested_maps("i", "0:N");
  expect_error(*b.g, "sdfg \"nest\" / state \"s\" / node 2 (MapEntry \"inner\"): map parameter \"i\" is already "
                     "defined by an enclosing scope");
}

TEST(ValidateState, TaskletCodeDoesNotParse) {
  Builder b = simple_map_sdfg();
  static_cast<Tasklet&>(*b.g->all_states()[0]->node(4)).code.code = "b = a +";
  auto errors = analysis::validate_all(*b.g);
  ASSERT_FALSE(errors.empty());
  const std::string head = kTasklet + ": tasklet code does not parse: ";
  EXPECT_EQ(errors[0].message.substr(0, head.size()), head) << errors[0].message;
}

TEST(ValidateState, CppTaskletIsNotParsed) {
  Builder b = simple_map_sdfg();
  static_cast<Tasklet&>(*b.g->all_states()[0]->node(4)).code = CodeBlock{"b = a + 1;", Language::CPP};
  expect_valid(*b.g);
}

TEST(ValidateState, TaskletReadsUnknownName) {
  Builder b = simple_map_sdfg();
  static_cast<Tasklet&>(*b.g->all_states()[0]->node(4)).code.code = "b = a + q";
  expect_error(*b.g, kTasklet + ": tasklet code reads \"q\", which is neither a connector nor a defined symbol");
}

// Validation remembers what each tasklet body reads (by its text), not whether it is valid:
// the same body is checked against the names defined where each tasklet is. Inside map "m"
// `i` is its parameter; the second tasklet, outside, reads an undefined `i`.
TEST(ValidateState, TaskletsWithTheSameCodeAreCheckedWhereEachIs) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  static_cast<Tasklet&>(*s.node(4)).code.code = "b = a + i";
  int u = Builder::tasklet(s, "u", {"a"}, {"b"}, "b = a + i");
  int a = Builder::access(s, "A");
  int out = Builder::access(s, "B");
  b.edge(s, a, "", u, "a", "A[0]");
  b.edge(s, u, "b", out, "", "B[0]");
  expect_error(*b.g, kState + " / node 5 (Tasklet \"u\"): tasklet code reads \"i\", which is neither a connector nor a "
                              "defined symbol");
  // The same body that does not parse is reported for every tasklet that has it.
  static_cast<Tasklet&>(*s.node(4)).code.code = "b = a +";
  static_cast<Tasklet&>(*s.node(u)).code.code = "b = a +";
  const std::vector<Error> errors = analysis::validate_all(*b.g);
  int parse_errors = 0;
  for (const auto& e : errors)
    if (e.message.find("tasklet code does not parse") != std::string::npos) ++parse_errors;
  EXPECT_EQ(parse_errors, 2) << all_messages(errors);
}

TEST(ValidateState, TaskletMayReadSymbolsParamsAndLocals) {
  Builder b = simple_map_sdfg();
  static_cast<Tasklet&>(*b.g->all_states()[0]->node(4)).code.code =
      "t = a * N + i\nb = math.sqrt(t) + dace.float64(t)";
  expect_valid(*b.g);
}

TEST(ValidateState, InvalidTaskletName) {
  Builder b = simple_map_sdfg();
  b.g->all_states()[0]->node(4)->label = "2t";
  expect_error(*b.g, kState + " / node 4 (Tasklet \"2t\"): invalid tasklet name");
}

TEST(ValidateState, ConsumeEntryNeedsStreams) {
  Builder b("simple");
  State& s = b.block("s");
  auto ce = std::make_unique<ConsumeEntry>();
  ce->label = "c";
  ce->consume.pe_index = "p";
  ce->consume.num_pes = E("1");
  int e = s.add_node(std::move(ce));
  auto cx = std::make_unique<ConsumeExit>();
  cx->label = "c";
  cx->entry = e;
  int x = s.add_node(std::move(cx));
  b.edge(s, e, "", x, "", "");
  expect_error(*b.g, "sdfg \"simple\" / state \"s\" / node 0 (ConsumeEntry \"c\"): consume entry must have an input "
                     "stream (connector \"IN_stream\")");
}

// A -> view V -> tasklet, V viewing A.
Builder view_sdfg(int extra_in_edges) {
  Builder b("views");
  b.symbol("N");
  b.data("A", array({"N"}));
  DataDescriptor v = array({"N"}, true);
  v.kind = DataKind::View;
  b.data("V", v);
  b.data("x", scalar(true));
  State& s = b.block("s");
  int a = Builder::access(s, "A");
  int vn = Builder::access(s, "V");
  int t = Builder::tasklet(s, "t", {"a"}, {"o"}, "o = a");
  int x = Builder::access(s, "x");
  b.edge(s, a, "", vn, "", "A[0:N]");
  for (int k = 0; k < extra_in_edges; ++k) b.edge(s, Builder::access(s, "A"), "", vn, "", "A[0:N]");
  b.edge(s, vn, "", t, "a", "V[0]");
  b.edge(s, t, "o", x, "", "x[0]");
  return b;
}

TEST(ValidateState, ViewWithOneViewedEdgeIsValid) {
  Builder b = view_sdfg(0);
  expect_valid(*b.g);
}

TEST(ValidateState, ViewWithAmbiguousEdges) {
  Builder b = view_sdfg(0);
  State& s = *b.g->all_states()[0];
  // A second reader makes both sides have two edges.
  int t2 = Builder::tasklet(s, "t2", {"a"}, {}, "");
  b.edge(s, 1, "", t2, "a", "V[1]");
  b.edge(s, Builder::access(s, "A"), "", 1, "", "A[0:N]");
  expect_error(*b.g, "sdfg \"views\" / state \"s\" / node 1 (AccessNode \"V\"): ambiguous or missing edge to the data "
                     "a view access node views");
}

TEST(ValidateState, ReferenceNeverSet) {
  Builder b("refs");
  DataDescriptor r = array({"4"}, true);
  r.kind = DataKind::Reference;
  b.data("R", r);
  b.data("x", scalar(true));
  State& s = b.block("s");
  int rn = Builder::access(s, "R");
  int t = Builder::tasklet(s, "t", {"a"}, {"o"}, "o = a");
  int x = Builder::access(s, "x");
  b.edge(s, rn, "", t, "a", "R[0]");
  b.edge(s, t, "o", x, "", "x[0]");
  expect_error(*b.g, "sdfg \"refs\" / state \"s\" / node 0 (AccessNode \"R\"): reference \"R\" is used but never set "
                     "(no edge into its \"set\" connector)");
}

}  // namespace
}  // namespace vtest
