// C API: dataflow edges, memlets (text forms, WCR, volume, errors) and add_mapped_tasklet;
// plus the memlet text functions of src/ir/memlet.cpp that the builder relies on.
#include <string>
#include <vector>

#include "capi_test_util.h"
#include "ir/memlet.h"

using capi_test::same_expr;
using capi_test::same_list;
using capi_test::SdfgTest;

namespace {

class EdgeTest : public SdfgTest {
 protected:
  void SetUp() override {
    SdfgTest::SetUp();
    ASSERT_DACE_OK(dace_state_add_access(&a, sdfg, state, "A"));
    ASSERT_DACE_OK(dace_state_add_tasklet(&t, sdfg, state, "t", "x", "y", "y = x", DACE_LANGUAGE_PYTHON));
    ASSERT_DACE_OK(dace_state_add_access(&b, sdfg, state, "B"));
  }
  dace_id_t a = -1, t = -1, b = -1;
};

}  // namespace

TEST_F(EdgeTest, MemletTextForms) {
  dace_id_t e = -1;
  ASSERT_DACE_OK(dace_state_add_edge(&e, sdfg, state, a, nullptr, t, "x", "A[i, 0:N]", nullptr));
  EXPECT_EQ(memlet_prop(e, "data"), "A");
  // 0:N is the inclusive range 0..N-1; printed back in exclusive-end syntax.
  EXPECT_EQ(memlet_prop(e, "subset"), "i, 0:N");
  EXPECT_TRUE(same_expr(memlet_prop(e, "volume"), "N"));
  EXPECT_EQ(memlet_prop(e, "other_subset"), "");
  EXPECT_EQ(memlet_prop(e, "wcr"), "");
  EXPECT_EQ(memlet_prop(e, "dynamic"), "0");
  const char* m = nullptr;
  ASSERT_DACE_OK(dace_edge_get_memlet(&m, sdfg, state, e));
  EXPECT_STREQ(m, "A[i, 0:N]");

  // Whole container: "B" takes B's shape.
  dace_id_t e2 = -1;
  ASSERT_DACE_OK(dace_state_add_edge(&e2, sdfg, state, t, "y", b, nullptr, "B", nullptr));
  EXPECT_EQ(memlet_prop(e2, "subset"), "0:N");
  // Other subset.
  dace_id_t a2 = -1, e3 = -1;
  ASSERT_DACE_OK(dace_state_add_access(&a2, sdfg, state, "B"));
  ASSERT_DACE_OK(dace_state_add_edge(&e3, sdfg, state, b, nullptr, a2, nullptr, "B[0:N-1] -> [1:N]", nullptr));
  EXPECT_EQ(memlet_prop(e3, "subset"), "0:N - 1");
  EXPECT_EQ(memlet_prop(e3, "other_subset"), "1:N");
  // Empty memlet: ordering only.
  dace_id_t e4 = -1;
  ASSERT_DACE_OK(dace_state_add_edge(&e4, sdfg, state, a, nullptr, a2, nullptr, "", nullptr));
  ASSERT_DACE_OK(dace_edge_get_memlet(&m, sdfg, state, e4));
  EXPECT_STREQ(m, "");
  EXPECT_EQ(memlet_prop(e4, "volume"), "0");
}

TEST_F(EdgeTest, MemletOptions) {
  dace_memlet_options_t o = DACE_MEMLET_OPTIONS_INIT;
  o.wcr = "sum";
  o.volume = "1";
  o.dynamic = 1;
  dace_id_t e = -1;
  ASSERT_DACE_OK(dace_state_add_edge(&e, sdfg, state, t, "y", b, nullptr, "B[0]", &o));
  EXPECT_EQ(memlet_prop(e, "wcr"), "lambda a, b: a + b");
  EXPECT_EQ(memlet_prop(e, "volume"), "1");
  EXPECT_EQ(memlet_prop(e, "dynamic"), "1");
  o.wcr = "lambda x, y: max(x, y)";
  o.volume = nullptr;
  ASSERT_DACE_OK(dace_edge_set_memlet(sdfg, state, e, "B[1]", &o));
  EXPECT_EQ(memlet_prop(e, "wcr"), "lambda x, y: max(x, y)");
  EXPECT_EQ(memlet_prop(e, "subset"), "1");
  EXPECT_EQ(memlet_prop(e, "volume"), "1");
  o.wcr = "median";
  EXPECT_DACE_ERROR(dace_edge_set_memlet(sdfg, state, e, "B[2]", &o), DACE_ERROR_INVALID_ARGUMENT,
                    "unknown WCR \"median\"");
  o.wcr = "lambda a, b: a +";
  EXPECT_DACE_ERROR(dace_edge_set_memlet(sdfg, state, e, "B[2]", &o), DACE_ERROR_PARSE, "WCR");
  EXPECT_EQ(dace_last_error_column(), 17);  // end of the 16-character lambda
  o.wcr = "lambda a: a";
  EXPECT_EQ(dace_edge_set_memlet(sdfg, state, e, "B[2]", &o), DACE_ERROR_PARSE);
  o.wcr = nullptr;
  o.volume = "N +";
  EXPECT_DACE_ERROR(dace_edge_set_memlet(sdfg, state, e, "B[2]", &o), DACE_ERROR_PARSE, "volume");
  EXPECT_EQ(memlet_prop(e, "subset"), "1");  // unchanged by the failed calls
}

TEST_F(EdgeTest, EdgeErrors) {
  dace_id_t e = -1;
  // "A[i, 0:N" — the '[' at column 2 is unbalanced.
  EXPECT_DACE_ERROR(dace_state_add_edge(&e, sdfg, state, a, nullptr, t, "x", "A[i, 0:N", nullptr), DACE_ERROR_PARSE,
                    "column 2");
  // "A[i, 0:+]" — the parser stops at the ']' (column 9).
  EXPECT_EQ(dace_state_add_edge(&e, sdfg, state, a, nullptr, t, "x", "A[i, 0:+]", nullptr), DACE_ERROR_PARSE);
  EXPECT_EQ(dace_last_error_column(), 9);
  EXPECT_DACE_ERROR(dace_state_add_edge(&e, sdfg, state, a, nullptr, t, "x", "Q[0]", nullptr), DACE_ERROR_NOT_FOUND,
                    "unknown data container \"Q\"");
  EXPECT_DACE_ERROR(dace_state_add_edge(&e, sdfg, state, a, nullptr, t, "x", "A[0]", nullptr),
                    DACE_ERROR_INVALID_ARGUMENT, "has 1 dimensions but \"A\" has 2");
  EXPECT_DACE_ERROR(dace_state_add_edge(&e, sdfg, state, a, nullptr, t, "nope", "A[0, 0]", nullptr),
                    DACE_ERROR_NOT_FOUND,
                    "sdfg \"t\" / state \"s0\" / node 1 (Tasklet \"t\") / connector \"nope\": no such input connector");
  EXPECT_DACE_ERROR(dace_state_add_edge(&e, sdfg, state, t, "x", b, nullptr, "B[0]", nullptr), DACE_ERROR_NOT_FOUND,
                    "no such output connector");
  EXPECT_DACE_ERROR(dace_state_add_edge(&e, sdfg, state, a, nullptr, 42, nullptr, "", nullptr), DACE_ERROR_NOT_FOUND,
                    "node 42");
  EXPECT_EQ(dace_state_add_edge(&e, sdfg, state, a, nullptr, a, nullptr, "", nullptr), DACE_ERROR_INVALID_ARGUMENT);
  dace_memlet_options_t o = DACE_MEMLET_OPTIONS_INIT;
  o.wcr = "sum";
  EXPECT_DACE_ERROR(dace_state_add_edge(&e, sdfg, state, a, nullptr, b, nullptr, "", &o),
                    DACE_ERROR_INVALID_ARGUMENT, "empty memlet");
  o.version = 2;
  EXPECT_EQ(dace_state_add_edge(&e, sdfg, state, a, nullptr, b, nullptr, "A", &o), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(edges().empty());
  EXPECT_DACE_ERROR(dace_state_remove_edge(sdfg, state, 0), DACE_ERROR_NOT_FOUND, "edge 0");
  const char* m = nullptr;
  EXPECT_EQ(dace_edge_get_memlet(&m, sdfg, state, 0), DACE_ERROR_NOT_FOUND);
  EXPECT_EQ(dace_edge_get_memlet_property(&m, sdfg, state, 0, "data"), DACE_ERROR_NOT_FOUND);
}

TEST_F(EdgeTest, ScopeConnectorsAreAddedOnDemand) {
  dace_id_t entry = -1, exit = -1, e1 = -1, e2 = -1;
  ASSERT_DACE_OK(dace_state_add_map(&entry, &exit, sdfg, state, "m", "i=0:N", nullptr));
  ASSERT_DACE_OK(dace_state_add_edge(&e1, sdfg, state, a, nullptr, entry, "IN_A", "A", nullptr));
  ASSERT_DACE_OK(dace_state_add_edge(&e2, sdfg, state, entry, "OUT_A", t, "x", "A[i, 0]", nullptr));
  EXPECT_EQ(node_prop(entry, "in_connectors"), "IN_A");
  EXPECT_EQ(node_prop(entry, "out_connectors"), "OUT_A");
  dace_id_t bad = -1;
  EXPECT_EQ(dace_state_add_edge(&bad, sdfg, state, a, nullptr, entry, "A", "A", nullptr), DACE_ERROR_NOT_FOUND);
  EXPECT_EQ(dace_state_add_edge(&bad, sdfg, state, a, nullptr, entry, "IN_", "A", nullptr), DACE_ERROR_NOT_FOUND);
  size_t n = 0;
  std::vector<dace_id_t> ids(4);
  ASSERT_DACE_OK(dace_node_list_in_edges(ids.data(), ids.size(), &n, sdfg, state, entry));
  ASSERT_EQ(n, 1u);
  EXPECT_EQ(ids[0], e1);
  ASSERT_DACE_OK(dace_node_list_out_edges(ids.data(), ids.size(), &n, sdfg, state, entry));
  ASSERT_EQ(n, 1u);
  EXPECT_EQ(ids[0], e2);
  // Capacity smaller than the count: count is still the total.
  ASSERT_DACE_OK(dace_state_list_edges(ids.data(), 1, &n, sdfg, state));
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(ids[0], e1);
  EXPECT_EQ(dace_node_list_in_edges(ids.data(), 4, &n, sdfg, state, 99), DACE_ERROR_NOT_FOUND);
}

TEST_F(SdfgTest, MappedTaskletInternalOnly) {
  dace_id_t tasklet = -1, entry = -1, exit = -1;
  ASSERT_DACE_OK(dace_state_add_mapped_tasklet(&tasklet, &entry, &exit, sdfg, state, "scale", "i=0:N, j=0:M",
                                               "x: A[i, j]", "y = 2 * x", "y: A[i, j]", nullptr));
  EXPECT_EQ(nodes().size(), 3u);
  EXPECT_EQ(edges().size(), 2u);
  EXPECT_EQ(node_prop(tasklet, "in_connectors"), "x");
  EXPECT_EQ(node_prop(tasklet, "out_connectors"), "y");
  EXPECT_EQ(node_prop(entry, "in_connectors"), "IN_A");
  EXPECT_EQ(node_prop(exit, "out_connectors"), "OUT_A");
  EXPECT_EQ(node_prop(entry, "params"), "i, j");
}

TEST_F(SdfgTest, MappedTaskletExternalEdgesCoverIterationSpace) {
  dace_mapped_tasklet_options_t o = DACE_MAPPED_TASKLET_OPTIONS_INIT;
  o.external_edges = 1;
  o.schedule = DACE_SCHEDULE_CPU_MULTICORE;
  o.output_wcr = "sum";
  dace_id_t tasklet = -1, entry = -1, exit = -1;
  ASSERT_DACE_OK(dace_state_add_mapped_tasklet(&tasklet, &entry, &exit, sdfg, state, "rowsum", "i=1:N-1, j=0:M",
                                               "l: A[i - 1, j]; r: A[i + 1, j]", "o = l + r", "o: B[i]", &o));
  EXPECT_EQ(nodes().size(), 5u);  // entry, exit, tasklet, A, B
  EXPECT_EQ(node_prop(entry, "schedule"), "CPU_Multicore");
  // Outer memlets, derived by hand: i-1 over i in [1, N-2] is [0, N-3]; i+1 is [2, N-1];
  // together rows 0..N-1; j covers 0..M-1. B[i] over i in [1, N-2].
  bool saw_in = false, saw_out = false;
  for (dace_id_t e : edges()) {
    dace_id_t src = -1, dst = -1;
    ASSERT_DACE_OK(dace_edge_get_endpoints(&src, nullptr, &dst, nullptr, sdfg, state, e));
    if (dst == entry) {
      saw_in = true;
      EXPECT_EQ(memlet_prop(e, "data"), "A");
      std::string subset = memlet_prop(e, "subset");
      EXPECT_EQ(subset, "0:N, 0:M");
    }
    if (src == exit) {
      saw_out = true;
      EXPECT_EQ(memlet_prop(e, "data"), "B");
      EXPECT_EQ(memlet_prop(e, "subset"), "1:N - 1");
      EXPECT_EQ(memlet_prop(e, "wcr"), "lambda a, b: a + b");
    }
    if (src == tasklet) {
      EXPECT_EQ(memlet_prop(e, "wcr"), "lambda a, b: a + b");
    }
  }
  EXPECT_TRUE(saw_in);
  EXPECT_TRUE(saw_out);
  EXPECT_DACE_OK(dace_sdfg_validate(sdfg));
}

TEST_F(SdfgTest, MappedTaskletErrorsLeaveStateUntouched) {
  dace_id_t t = -1;
  EXPECT_DACE_ERROR(dace_state_add_mapped_tasklet(&t, nullptr, nullptr, sdfg, state, "m", "i=0:N", "x A[i]", "y = x",
                                                  "y: B[i]", nullptr),
                    DACE_ERROR_PARSE, "expected 'connector: memlet'");
  EXPECT_EQ(dace_state_add_mapped_tasklet(&t, nullptr, nullptr, sdfg, state, "m", "i=0:", "x: B[i]", "y = x",
                                          "y: B[i]", nullptr),
            DACE_ERROR_PARSE);
  EXPECT_EQ(dace_state_add_mapped_tasklet(&t, nullptr, nullptr, sdfg, state, "m", "i=0:N", "x: B[i]", "y = x +",
                                          "y: B[i]", nullptr),
            DACE_ERROR_PARSE);
  EXPECT_EQ(dace_state_add_mapped_tasklet(&t, nullptr, nullptr, sdfg, state, "m", "i=0:N", "x: B[i]; x: B[0]",
                                          "y = x", "y: B[i]", nullptr),
            DACE_ERROR_ALREADY_EXISTS);
  EXPECT_EQ(dace_state_add_mapped_tasklet(&t, nullptr, nullptr, sdfg, state, "m", "i=0:N", "x: B[i]", "x = x",
                                          "x: B[i]", nullptr),
            DACE_ERROR_ALREADY_EXISTS);
  dace_mapped_tasklet_options_t o = DACE_MAPPED_TASKLET_OPTIONS_INIT;
  o.output_wcr = "nonsense";
  EXPECT_EQ(dace_state_add_mapped_tasklet(&t, nullptr, nullptr, sdfg, state, "m", "i=0:N", "x: B[i]", "y = x",
                                          "y: B[i]", &o),
            DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(nodes().empty());
  EXPECT_TRUE(edges().empty());
}

TEST(CapiMemletText, ParseAndPrint) {
  auto m = dace::ir::parse_memlet("  A[i, 0:N] -> [1:N+1] ");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->data, "A");
  ASSERT_EQ(m->subset.rank(), 2u);
  ASSERT_TRUE(m->other_subset.has_value());
  // 0:N has inclusive end N - 1.
  EXPECT_EQ(m->subset.dims[1].end, dace::sym::sub(dace::sym::symbol("N"), dace::sym::integer(1)));
  EXPECT_EQ(m->other_subset->dims[0].end, dace::sym::symbol("N"));
  EXPECT_EQ(dace::ir::to_string(*m), "A[i, 0:N] -> [1:N + 1]");
  auto whole = dace::ir::parse_memlet("A");
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->subset.rank(), 0u);
  auto empty = dace::ir::parse_memlet("   ");
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->is_empty());
  auto bad = dace::ir::parse_memlet("A[0] x");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().column, 6);
  auto bad2 = dace::ir::parse_memlet("A[0] -> B[1]");
  ASSERT_FALSE(bad2);
  EXPECT_EQ(bad2.error().column, 9);
  auto bad3 = dace::ir::parse_memlet("3A");
  ASSERT_FALSE(bad3);
  EXPECT_EQ(bad3.error().column, 1);
  EXPECT_FALSE(dace::ir::parse_memlet("A[]"));
}

TEST(CapiMemletText, CanonicalWcr) {
  EXPECT_EQ(dace::ir::canonical_wcr("sum"), "lambda a, b: a + b");
  EXPECT_EQ(dace::ir::canonical_wcr("Sum"), "lambda a, b: a + b");
  EXPECT_EQ(dace::ir::canonical_wcr("ReductionType.Max"), "lambda a, b: max(a, b)");
  EXPECT_EQ(dace::ir::canonical_wcr("product"), "lambda a, b: a * b");
  EXPECT_EQ(dace::ir::canonical_wcr(" lambda x, y: x - y "), "lambda x, y: x - y");
  EXPECT_FALSE(dace::ir::canonical_wcr("lambdas").has_value());
  EXPECT_FALSE(dace::ir::canonical_wcr("avg").has_value());
}
