// libdace.hpp builder wrappers beyond the basics: values set through the wrapper read back
// (through the wrapper's own getters and through the generic property getters, which take
// another path through the library), and failures throw libdace::error with the status the C
// API documents.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "libdace.hpp"
#include "wrapper_test_util.h"

namespace {

using wrapper_test::contains;
using wrapper_test::error_of;

TEST(Version, NumberMatchesTheHeaderAndTheString) {
  EXPECT_EQ(libdace::version_number(), static_cast<uint32_t>(DACE_VERSION_NUMBER));
  const std::string expected = std::to_string(DACE_VERSION_MAJOR) + "." + std::to_string(DACE_VERSION_MINOR) + "." +
                               std::to_string(DACE_VERSION_PATCH);
  EXPECT_EQ(libdace::version(), expected);
}

TEST(Symbols, DtypeByName) {
  libdace::sdfg g("syms");
  g.add_symbol("N");
  g.add_symbol("M", DACE_INT32);
  EXPECT_EQ(g.symbol_dtype("N"), DACE_INT64);
  EXPECT_EQ(g.symbol_dtype("M"), DACE_INT32);
  const libdace::error e = error_of([&] { (void)g.symbol_dtype("K"); });
  EXPECT_EQ(e.code(), DACE_ERROR_NOT_FOUND);
  EXPECT_TRUE(contains(e.what(), "K")) << e.what();
}

TEST(Data, KindTransientStorageLifetime) {
  libdace::sdfg g("data");
  g.add_symbol("N");
  g.add_scalar("s", DACE_FLOAT64);
  g.add_array("A", DACE_FLOAT64, "N");
  g.add_transient("T", DACE_INT32, "N, 2");
  libdace::array_options stream_options;
  stream_options.transient = true;
  g.add_stream("S", DACE_FLOAT32, {}, stream_options);
  libdace::array_options view_options;
  view_options.transient = true;
  g.add_view("V", DACE_FLOAT64, "N", view_options);
  g.add_reference("R", DACE_FLOAT64, "N", view_options);

  EXPECT_EQ(g.data_kind_of("s"), DACE_DATA_SCALAR);
  EXPECT_EQ(g.data_kind_of("A"), DACE_DATA_ARRAY);
  EXPECT_EQ(g.data_kind_of("T"), DACE_DATA_ARRAY);
  EXPECT_EQ(g.data_kind_of("S"), DACE_DATA_STREAM);
  EXPECT_EQ(g.data_kind_of("V"), DACE_DATA_VIEW);
  EXPECT_EQ(g.data_kind_of("R"), DACE_DATA_REFERENCE);

  EXPECT_FALSE(g.is_transient("A"));
  EXPECT_TRUE(g.is_transient("T"));
  g.set_transient("A", true);
  EXPECT_TRUE(g.is_transient("A"));
  EXPECT_EQ(g.data_property("A", "transient"), "1");

  // Defaults as the options say, then set and read back both ways.
  EXPECT_EQ(g.data_storage("A"), DACE_STORAGE_DEFAULT);
  EXPECT_EQ(g.data_lifetime("A"), DACE_LIFETIME_SCOPE);
  g.set_storage("A", DACE_STORAGE_CPU_HEAP);
  g.set_lifetime("A", DACE_LIFETIME_PERSISTENT);
  EXPECT_EQ(g.data_storage("A"), DACE_STORAGE_CPU_HEAP);
  EXPECT_EQ(g.data_lifetime("A"), DACE_LIFETIME_PERSISTENT);
  EXPECT_EQ(g.data_property("A", "storage"), "CPU_Heap");
  EXPECT_EQ(g.data_property("A", "lifetime"), "Persistent");

  for (auto* f : {+[](libdace::sdfg& h) { (void)h.data_kind_of("nope"); },
                  +[](libdace::sdfg& h) { (void)h.is_transient("nope"); },
                  +[](libdace::sdfg& h) { (void)h.data_storage("nope"); },
                  +[](libdace::sdfg& h) { (void)h.data_lifetime("nope"); },
                  +[](libdace::sdfg& h) { h.set_storage("nope", DACE_STORAGE_CPU_HEAP); },
                  +[](libdace::sdfg& h) { h.set_lifetime("nope", DACE_LIFETIME_STATE); }}) {
    const libdace::error e = error_of([&] { f(g); });
    EXPECT_EQ(e.code(), DACE_ERROR_NOT_FOUND);
    EXPECT_TRUE(contains(e.what(), "nope")) << e.what();
  }
  // Enum values outside the range are invalid arguments, and change nothing.
  EXPECT_EQ(error_of([&] { g.set_storage("A", static_cast<libdace::storage>(999)); }).code(),
            DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error_of([&] { g.set_lifetime("A", static_cast<libdace::lifetime>(-3)); }).code(),
            DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(g.data_storage("A"), DACE_STORAGE_CPU_HEAP);
  EXPECT_EQ(g.data_lifetime("A"), DACE_LIFETIME_PERSISTENT);
}

TEST(Blocks, ParentsAndLabels) {
  libdace::sdfg g("blocks");
  g.add_symbol("N");
  libdace::state first = g.add_state("first");
  libdace::region loop = g.add_loop("loop", "i", "i = 0", "i < N", "i = i + 1");
  libdace::state inside = loop.add_state("inside");
  libdace::conditional cond = loop.add_conditional("cond");
  libdace::region then_branch = cond.add_branch("i > 2");

  EXPECT_EQ(g.block_parent(first), libdace::root_region);
  EXPECT_EQ(g.block_parent(loop), libdace::root_region);
  EXPECT_EQ(g.block_parent(inside), loop.id());
  EXPECT_EQ(g.block_parent(cond), loop.id());
  EXPECT_EQ(g.block_parent(then_branch), cond.id());  // a branch's parent is its conditional
  EXPECT_EQ(error_of([&] { (void)g.block_parent(12345); }).code(), DACE_ERROR_NOT_FOUND);

  g.set_block_label(inside, "renamed");
  EXPECT_EQ(g.block_label(inside), "renamed");
  EXPECT_EQ(g.find_block("renamed"), inside.id());
  EXPECT_EQ(error_of([&] { (void)g.find_block("inside"); }).code(), DACE_ERROR_NOT_FOUND);
  // Labels are unique within the SDFG.
  EXPECT_EQ(error_of([&] { g.set_block_label(first, "renamed"); }).code(), DACE_ERROR_ALREADY_EXISTS);
  EXPECT_EQ(g.block_label(first), "first");
  EXPECT_EQ(error_of([&] { g.set_block_label(12345, "x"); }).code(), DACE_ERROR_NOT_FOUND);
}

TEST(Blocks, LoopHeaderIsReplaced) {
  libdace::sdfg g("loops");
  g.add_symbol("N");
  libdace::region loop = g.add_loop("loop", "i", "i = 0", "i < N", "i = i + 1");
  loop.add_state("body");
  loop.set_loop_header("k", "k = N - 1", "k >= 0", "k = k - 1", true);
  EXPECT_EQ(g.block_property(loop, "loop_variable"), "k");
  EXPECT_TRUE(contains(g.block_property(loop, "init"), "N - 1")) << g.block_property(loop, "init");
  EXPECT_TRUE(contains(g.block_property(loop, "condition"), "k >= 0")) << g.block_property(loop, "condition");
  EXPECT_TRUE(contains(g.block_property(loop, "update"), "k - 1")) << g.block_property(loop, "update");
  EXPECT_EQ(g.block_property(loop, "inverted"), "1");
  // A malformed condition is a parse error and leaves the header as it was.
  const libdace::error e = error_of([&] { loop.set_loop_header("k", "", "k >=", "", false); });
  EXPECT_EQ(e.code(), DACE_ERROR_PARSE);
  EXPECT_EQ(g.block_property(loop, "loop_variable"), "k");
  EXPECT_EQ(g.block_property(loop, "inverted"), "1");
  // A state is no loop: the wrong kind of element.
  libdace::state s = g.add_state("plain");
  const libdace::error not_loop = error_of([&] { g.block_region(s).set_loop_header("i", "", "i < 1", "", false); });
  EXPECT_EQ(not_loop.code(), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(not_loop.what(), "state \"plain\"")) << not_loop.what();
}

TEST(InterstateEdges, ConditionsAssignmentsEndpointsRemoval) {
  libdace::sdfg g("edges");
  g.add_symbol("N");
  libdace::state a = g.add_state("a");
  libdace::state b = g.add_state("b");
  libdace::state c = g.add_state("c");
  const libdace::interstate_edge ab = g.add_interstate_edge(a, b, "N > 1", "k = 0; j = N + 1");
  const libdace::interstate_edge bc = g.add_interstate_edge(b, c);
  ASSERT_EQ(ab.region, libdace::root_region);
  const libdace::region root = g.root();

  const libdace::interstate_endpoints ends = root.endpoints(ab.edge);
  EXPECT_EQ(ends.src, a.id());
  EXPECT_EQ(ends.dst, b.id());
  EXPECT_EQ(root.endpoints(bc.edge).src, b.id());
  EXPECT_EQ(root.endpoints(bc.edge).dst, c.id());

  EXPECT_EQ(root.edge_condition(ab.edge), "N > 1");
  EXPECT_EQ(root.edge_condition(bc.edge), "1");  // unconditional
  using assignments = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(root.edge_assignments(ab.edge), (assignments{{"k", "0"}, {"j", "N + 1"}}));
  EXPECT_EQ(root.edge_assignments_text(ab.edge), "k = 0; j = N + 1");
  EXPECT_TRUE(root.edge_assignments(bc.edge).empty());
  EXPECT_EQ(root.edge_assignments_text(bc.edge), "");

  root.set_edge_condition(bc.edge, "k < N");
  EXPECT_EQ(root.edge_condition(bc.edge), "k < N");
  root.set_edge_condition(bc.edge, "");
  EXPECT_EQ(root.edge_condition(bc.edge), "1");

  root.add_edge_assignment(bc.edge, "m", "2 * N");
  root.add_edge_assignment(bc.edge, "q", "m + 1");  // appended in order
  EXPECT_EQ(root.edge_assignments(bc.edge), (assignments{{"m", "2 * N"}, {"q", "m + 1"}}));
  root.set_edge_assignments(ab.edge, "z = 3");
  EXPECT_EQ(root.edge_assignments(ab.edge), (assignments{{"z", "3"}}));
  root.set_edge_assignments(ab.edge, "");
  EXPECT_TRUE(root.edge_assignments(ab.edge).empty());

  // Malformed text is a parse error and changes nothing.
  EXPECT_EQ(error_of([&] { root.set_edge_condition(bc.edge, "k <"); }).code(), DACE_ERROR_PARSE);
  EXPECT_EQ(root.edge_condition(bc.edge), "1");
  EXPECT_EQ(error_of([&] { root.set_edge_assignments(bc.edge, "m = (2"); }).code(), DACE_ERROR_PARSE);
  EXPECT_EQ(root.edge_assignments(bc.edge).size(), 2u);
  EXPECT_EQ(error_of([&] { root.add_edge_assignment(bc.edge, "1bad", "0"); }).code(), DACE_ERROR_INVALID_ARGUMENT);
  const libdace::error bad_value = error_of([&] { root.add_edge_assignment(bc.edge, "k", "0 +"); });
  EXPECT_EQ(bad_value.code(), DACE_ERROR_PARSE);
  EXPECT_GT(bad_value.column(), 0);
  EXPECT_EQ(root.edge_assignments(bc.edge).size(), 2u);

  // Removal: the id is gone from the region's list, the other edge keeps its id.
  root.remove_edge(ab.edge);
  EXPECT_EQ(root.edges(), std::vector<dace_id_t>{bc.edge});
  for (auto* f : {+[](const libdace::region& r, dace_id_t e) { (void)r.endpoints(e); },
                  +[](const libdace::region& r, dace_id_t e) { (void)r.edge_condition(e); },
                  +[](const libdace::region& r, dace_id_t e) { (void)r.edge_assignments(e); },
                  +[](const libdace::region& r, dace_id_t e) { (void)r.edge_assignments_text(e); },
                  +[](const libdace::region& r, dace_id_t e) { r.set_edge_condition(e, "1"); },
                  +[](const libdace::region& r, dace_id_t e) { r.set_edge_assignments(e, "a = 1"); },
                  +[](const libdace::region& r, dace_id_t e) { r.add_edge_assignment(e, "a", "1"); },
                  +[](const libdace::region& r, dace_id_t e) { r.remove_edge(e); }}) {
    EXPECT_EQ(error_of([&] { f(root, ab.edge); }).code(), DACE_ERROR_NOT_FOUND);
  }
  EXPECT_EQ(root.edge_condition(bc.edge), "1");
}

TEST(InterstateEdges, InsideALoopRegion) {
  libdace::sdfg g("loop_edges");
  g.add_symbol("N");
  libdace::region loop = g.add_loop("loop", "i", "i = 0", "i < N", "i = i + 1");
  libdace::state x = loop.add_state("x");
  libdace::state y = loop.add_state("y");
  const libdace::interstate_edge e = g.add_interstate_edge(x, y, "i > 0");
  EXPECT_EQ(e.region, loop.id());
  EXPECT_EQ(loop.edges(), std::vector<dace_id_t>{e.edge});
  EXPECT_EQ(loop.endpoints(e.edge).src, x.id());
  EXPECT_EQ(loop.edge_condition(e.edge), "i > 0");
  EXPECT_TRUE(g.root().edges().empty());
}

// One state with a map over a tasklet, used by the node tests below.
struct mapped {
  libdace::sdfg g{"nodes"};
  libdace::state s;
  libdace::mapped_tasklet m;
  mapped() : s(nullptr, libdace::no_id) {
    g.add_symbol("N");
    g.add_array("A", DACE_FLOAT64, "N");
    g.add_array("B", DACE_FLOAT64, "N");
    g.add_array("C", DACE_FLOAT64, "N");
    s = g.add_state("main");
    m = s.add_mapped_tasklet("t", "i=0:N", "a: A[i]", "b = a + 1", "b: B[i]");
  }
  dace_id_t access_of(const std::string& data) const {
    for (dace_id_t n : s.nodes())
      if (s.kind(n) == DACE_NODE_ACCESS && s.node_property(n, "data") == data) return n;
    return libdace::no_id;
  }
};

TEST(Nodes, LabelsAndAccessData) {
  mapped f;
  f.s.set_label(f.m.tasklet, "renamed");
  EXPECT_EQ(f.s.label(f.m.tasklet), "renamed");
  EXPECT_EQ(f.s.node_property(f.m.tasklet, "label"), "renamed");

  const dace_id_t b = f.access_of("B");
  ASSERT_NE(b, libdace::no_id);
  f.s.set_data(b, "C");
  EXPECT_EQ(f.s.node_property(b, "data"), "C");
  const libdace::error missing = error_of([&] { f.s.set_data(b, "nope"); });
  EXPECT_EQ(missing.code(), DACE_ERROR_NOT_FOUND);
  EXPECT_TRUE(contains(missing.what(), "nope")) << missing.what();
  EXPECT_EQ(f.s.node_property(b, "data"), "C");
  // Only access nodes access data.
  EXPECT_EQ(error_of([&] { f.s.set_data(f.m.tasklet, "A"); }).code(), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error_of([&] { f.s.set_label(999, "x"); }).code(), DACE_ERROR_NOT_FOUND);
}

TEST(Nodes, Connectors) {
  mapped f;
  const dace_id_t t = f.m.tasklet;
  EXPECT_EQ(f.s.in_connector_type(t, "a"), "");  // inferred
  f.s.add_in_connector(t, "c", "float64");
  f.s.add_out_connector(t, "d", "int32*");
  f.s.add_out_connector(t, "e");
  EXPECT_EQ(f.s.in_connector_type(t, "c"), "float64");
  EXPECT_EQ(f.s.out_connector_type(t, "d"), "int32*");
  EXPECT_EQ(f.s.out_connector_type(t, "e"), "");
  EXPECT_TRUE(contains(f.s.node_property(t, "in_connectors"), "c: float64"))
      << f.s.node_property(t, "in_connectors");
  // Inputs and outputs are separate name spaces.
  EXPECT_EQ(error_of([&] { (void)f.s.in_connector_type(t, "d"); }).code(), DACE_ERROR_NOT_FOUND);
  EXPECT_EQ(error_of([&] { (void)f.s.out_connector_type(t, "c"); }).code(), DACE_ERROR_NOT_FOUND);
  EXPECT_EQ(error_of([&] { f.s.add_in_connector(t, "c"); }).code(), DACE_ERROR_ALREADY_EXISTS);
  EXPECT_EQ(error_of([&] { f.s.add_out_connector(t, "x", "no_such_type"); }).code(), DACE_ERROR_INVALID_ARGUMENT);

  f.s.remove_in_connector(t, "c");
  f.s.remove_out_connector(t, "d");
  EXPECT_EQ(error_of([&] { (void)f.s.in_connector_type(t, "c"); }).code(), DACE_ERROR_NOT_FOUND);
  EXPECT_EQ(error_of([&] { (void)f.s.out_connector_type(t, "d"); }).code(), DACE_ERROR_NOT_FOUND);
  EXPECT_EQ(error_of([&] { f.s.remove_in_connector(t, "c"); }).code(), DACE_ERROR_NOT_FOUND);
  // Connectors that edges use stay.
  EXPECT_EQ(error_of([&] { f.s.remove_in_connector(t, "a"); }).code(), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error_of([&] { f.s.remove_out_connector(t, "b"); }).code(), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(f.s.in_connector_type(t, "a"), "");
}

TEST(Nodes, MapRangesOptionsAndScopes) {
  mapped f;
  libdace::map_options o(DACE_SCHEDULE_CPU_MULTICORE);
  o.collapse = 1;
  o.omp_num_threads = 3;
  o.omp_schedule = DACE_OMP_SCHEDULE_DYNAMIC;
  o.omp_chunk_size = 8;
  o.unroll = true;
  o.gpu_block_size = "32, 4, 1";
  f.s.set_map_options(f.m.entry, o);
  // Entry and exit are one map.
  for (dace_id_t n : {f.m.entry, f.m.exit}) {
    const libdace::map_options back = f.s.map_options_of(n);
    EXPECT_EQ(back.schedule_type, DACE_SCHEDULE_CPU_MULTICORE);
    EXPECT_EQ(back.collapse, 1);
    EXPECT_EQ(back.omp_num_threads, 3);
    EXPECT_EQ(back.omp_schedule, DACE_OMP_SCHEDULE_DYNAMIC);
    EXPECT_EQ(back.omp_chunk_size, 8);
    EXPECT_TRUE(back.unroll);
    EXPECT_EQ(back.gpu_block_size, "32, 4, 1");
  }
  f.s.set_map_options(f.m.entry, libdace::map_options{});
  EXPECT_EQ(f.s.map_options_of(f.m.exit).gpu_block_size, "");
  EXPECT_FALSE(f.s.map_options_of(f.m.exit).unroll);
  EXPECT_EQ(error_of([&] { (void)f.s.map_options_of(f.m.tasklet); }).code(), DACE_ERROR_INVALID_ARGUMENT);

  f.s.set_map_ranges(f.m.exit, "i=1:N-1");
  EXPECT_EQ(f.s.node_property(f.m.entry, "params"), "i");
  EXPECT_TRUE(contains(f.s.node_property(f.m.entry, "range"), "i=1:N - 1")) << f.s.node_property(f.m.entry, "range");
  EXPECT_EQ(error_of([&] { f.s.set_map_ranges(f.m.entry, "i=0:"); }).code(), DACE_ERROR_PARSE);
  EXPECT_EQ(error_of([&] { f.s.set_map_ranges(f.m.tasklet, "i=0:N"); }).code(), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(f.s.node_property(f.m.entry, "params"), "i");

  EXPECT_EQ(f.s.scope_partner(f.m.entry), f.m.exit);
  EXPECT_EQ(f.s.scope_partner(f.m.exit), f.m.entry);
  EXPECT_EQ(f.s.scope_parent(f.m.tasklet), f.m.entry);
  EXPECT_EQ(f.s.scope_parent(f.m.entry), libdace::no_id);
  EXPECT_EQ(f.s.scope_parent(f.access_of("A")), libdace::no_id);
  EXPECT_EQ(error_of([&] { (void)f.s.scope_partner(f.m.tasklet); }).code(), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error_of([&] { (void)f.s.scope_parent(999); }).code(), DACE_ERROR_NOT_FOUND);
}

TEST(Nodes, NestedMapScopesAndPropagation) {
  libdace::sdfg g("nest");
  g.add_symbol("N");
  g.add_symbol("M");
  g.add_array("A", DACE_FLOAT64, "N, M");
  libdace::state s = g.add_state("s");
  const libdace::map_scope outer = s.add_map("outer", "i=0:N");
  const libdace::map_scope inner = s.add_map("inner", "j=0:M");
  const dace_id_t t = s.add_tasklet("t", "a", "", "b = a");
  const dace_id_t a = s.add_access("A");
  s.add_edge(a, "", outer.entry, "IN_A", "A[0:N, 0:M]");
  s.add_edge(outer.entry, "OUT_A", inner.entry, "IN_A", "A[i, 0:M]");
  s.add_edge(inner.entry, "OUT_A", t, "a", "A[i, j]");
  EXPECT_EQ(s.scope_parent(t), inner.entry);
  EXPECT_EQ(s.scope_parent(inner.entry), outer.entry);
  EXPECT_EQ(s.scope_parent(outer.entry), libdace::no_id);

  // The memlet as seen outside each map: the hull over its parameter.
  EXPECT_EQ(s.propagate_memlet(inner.entry, "A[i, j]"), "A[i, 0:M]");
  EXPECT_EQ(s.propagate_memlet(outer.entry, "A[i, 0:M]"), "A[0:N, 0:M]");
  EXPECT_EQ(s.propagate_memlet(outer.exit, "A[i, 2]"), "A[0:N, 2]");
  EXPECT_EQ(error_of([&] { (void)s.propagate_memlet(t, "A[i, j]"); }).code(), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error_of([&] { (void)s.propagate_memlet(inner.entry, "A[i,"); }).code(), DACE_ERROR_PARSE);
}

TEST(Nodes, ConsumeScope) {
  libdace::sdfg g("cons");
  libdace::array_options o;
  o.transient = true;
  g.add_stream("S", DACE_FLOAT64, {}, o);
  libdace::state s = g.add_state("s");
  const libdace::consume_scope c = s.add_consume("c", "p", "4", "len(S) > 0", "2", DACE_SCHEDULE_CPU_MULTICORE);
  EXPECT_EQ(s.kind(c.entry), DACE_NODE_CONSUME_ENTRY);
  EXPECT_EQ(s.kind(c.exit), DACE_NODE_CONSUME_EXIT);
  EXPECT_EQ(s.scope_partner(c.entry), c.exit);
  EXPECT_EQ(s.scope_partner(c.exit), c.entry);
  EXPECT_EQ(s.node_property(c.entry, "pe_index"), "p");
  EXPECT_EQ(s.node_property(c.entry, "num_pes"), "4");
  EXPECT_EQ(s.node_property(c.entry, "condition"), "len(S) > 0");
  EXPECT_EQ(s.node_property(c.entry, "chunksize"), "2");
  EXPECT_EQ(s.node_property(c.entry, "schedule"), "CPU_Multicore");
  // Defaults: no condition, chunk size 1, default schedule.
  const libdace::consume_scope d = s.add_consume("d", "q", "1");
  EXPECT_EQ(s.node_property(d.entry, "condition"), "");
  EXPECT_EQ(s.node_property(d.entry, "chunksize"), "1");
  EXPECT_EQ(s.node_property(d.entry, "schedule"), "Default");
  // Errors, and nothing added by them.
  const size_t before = s.nodes().size();
  EXPECT_EQ(error_of([&] { (void)s.add_consume("e", "p", "4 +"); }).code(), DACE_ERROR_PARSE);
  EXPECT_EQ(error_of([&] { (void)s.add_consume("e", "", "4"); }).code(), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(s.nodes().size(), before);
}

TEST(Nodes, NestedSymbolMappingAndLibraryProperties) {
  libdace::sdfg inner("inner");
  inner.add_symbol("K");
  inner.add_array("x", DACE_FLOAT64, "K");
  inner.add_state("body");
  libdace::sdfg g("outer");
  g.add_symbol("N");
  g.add_array("A", DACE_FLOAT64, "N");
  libdace::state s = g.add_state("s");
  const dace_id_t n = s.add_nested_sdfg(inner, "call", "x", "", "K: N");
  s.set_symbol_mapping(n, "K: N - 1");
  EXPECT_EQ(s.node_property(n, "symbol_mapping"), "K: N - 1");
  EXPECT_EQ(error_of([&] { s.set_symbol_mapping(n, "K: N -"); }).code(), DACE_ERROR_PARSE);
  EXPECT_EQ(s.node_property(n, "symbol_mapping"), "K: N - 1");

  const dace_id_t lib = s.add_library_node("mm", "dace.libraries.blas.nodes.matmul.MatMul", "_a, _b", "_c", "pure",
                                           R"({"alpha": 1})");
  EXPECT_EQ(error_of([&] { s.set_symbol_mapping(lib, "K: N"); }).code(), DACE_ERROR_INVALID_ARGUMENT);
  s.set_library_properties(lib, "MKL", R"({"alpha": 2, "beta": 0})");
  EXPECT_EQ(s.node_property(lib, "implementation"), "MKL");
  const std::string props = s.node_property(lib, "properties");
  EXPECT_TRUE(contains(props, "\"alpha\": 2") || contains(props, "\"alpha\":2")) << props;
  EXPECT_TRUE(contains(props, "beta")) << props;
  // "" keeps the properties; the implementation is always replaced ("" = default).
  s.set_library_properties(lib, "");
  EXPECT_EQ(s.node_property(lib, "implementation"), "");
  EXPECT_EQ(s.node_property(lib, "properties"), props);
  EXPECT_EQ(error_of([&] { s.set_library_properties(lib, "pure", "[1, 2]"); }).code(), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error_of([&] { s.set_library_properties(lib, "pure", "{"); }).code(), DACE_ERROR_PARSE);
  EXPECT_EQ(error_of([&] { s.set_library_properties(n, "pure"); }).code(), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(s.node_property(lib, "properties"), props);
}

TEST(Edges, MemletProperties) {
  mapped f;
  const dace_id_t ca = f.s.add_access("C");
  libdace::memlet_options o;
  o.wcr = "sum";
  o.volume = "3";
  o.dynamic = true;
  const dace_id_t e = f.s.add_edge(f.m.exit, "OUT_B", ca, "", "B[0:N] -> [0:N]", o);
  EXPECT_EQ(f.s.memlet_property(e, "data"), "B");
  EXPECT_EQ(f.s.memlet_property(e, "subset"), "0:N");
  EXPECT_EQ(f.s.memlet_property(e, "other_subset"), "0:N");
  EXPECT_EQ(f.s.memlet_property(e, "volume"), "3");
  EXPECT_EQ(f.s.memlet_property(e, "dynamic"), "1");
  EXPECT_FALSE(f.s.memlet_property(e, "wcr").empty());
  EXPECT_EQ(f.s.memlet_property(e, "allow_oob"), "0");
  const libdace::error e1 = error_of([&] { (void)f.s.memlet_property(e, "colour"); });
  EXPECT_EQ(e1.code(), DACE_ERROR_NOT_FOUND);
  EXPECT_TRUE(contains(e1.what(), "colour")) << e1.what();
  EXPECT_EQ(error_of([&] { (void)f.s.memlet_property(999, "data"); }).code(), DACE_ERROR_NOT_FOUND);
}

TEST(Program, ArgumentStridesFollowTheDescriptor) {
  libdace::sdfg g("layouts");
  g.add_symbol("N");
  g.add_symbol("M");
  g.add_array("C", DACE_FLOAT64, "N, M");  // C order
  libdace::array_options fortran;
  fortran.strides = "1, N";
  g.add_array("F", DACE_FLOAT64, "N, M", fortran);
  g.add_state("s").add_mapped_tasklet("copy", "i=0:N, j=0:M", "a: C[i, j]", "b = a", "b: F[i, j]");
  libdace::context ctx;
  libdace::program p(ctx, g);
  const std::vector<std::pair<std::string, int64_t>> sizes = {{"N", 3}, {"M", 5}};
  EXPECT_EQ(p.argument_strides("C", sizes), (std::vector<int64_t>{5, 1}));
  EXPECT_EQ(p.argument_strides("F", sizes), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(p.argument_shape("F", sizes), (std::vector<int64_t>{3, 5}));
  EXPECT_EQ(error_of([&] { (void)p.argument_strides("F", {{"M", 5}}); }).code(), DACE_ERROR_NOT_FOUND);  // N missing
  EXPECT_EQ(error_of([&] { (void)p.argument_strides("N", sizes); }).code(), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error_of([&] { (void)p.argument_strides("nope", sizes); }).code(), DACE_ERROR_NOT_FOUND);
}

}  // namespace
