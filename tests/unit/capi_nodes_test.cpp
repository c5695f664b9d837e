// C API: dataflow nodes (access, tasklet, map, consume, nested SDFG, library node),
// connectors, properties, modification, removal and scope structure.
#include <string>
#include <vector>

#include "capi_test_util.h"

using capi_test::same_expr;
using capi_test::SdfgTest;

TEST_F(SdfgTest, AccessNode) {
  dace_id_t a = -1;
  ASSERT_DACE_OK(dace_state_add_access(&a, sdfg, state, "A"));
  dace_node_kind_t kind;
  ASSERT_DACE_OK(dace_node_get_kind(&kind, sdfg, state, a));
  EXPECT_EQ(kind, DACE_NODE_ACCESS);
  EXPECT_EQ(node_prop(a, "data"), "A");
  EXPECT_EQ(node_prop(a, "label"), "A");
  EXPECT_EQ(node_prop(a, "kind"), "AccessNode");
  ASSERT_DACE_OK(dace_node_set_data(sdfg, state, a, "B"));
  EXPECT_EQ(node_prop(a, "data"), "B");
  EXPECT_DACE_ERROR(dace_node_set_data(sdfg, state, a, "Q"), DACE_ERROR_NOT_FOUND, "no data container \"Q\"");
  dace_id_t n = -1;
  EXPECT_DACE_ERROR(dace_state_add_access(&n, sdfg, state, "Q"), DACE_ERROR_NOT_FOUND,
                    "sdfg \"t\" / state \"s0\" / node 1 (AccessNode \"Q\")");
  EXPECT_EQ(nodes().size(), 1u);
}

TEST_F(SdfgTest, TaskletWithTypedConnectors) {
  dace_id_t t = -1;
  ASSERT_DACE_OK(dace_state_add_tasklet(&t, sdfg, state, "add", "a: float64, b", "c: float64*",
                                        "c = a + b\nif c > 1:\n    c = 1", DACE_LANGUAGE_PYTHON));
  EXPECT_EQ(node_prop(t, "in_connectors"), "a: float64, b");
  EXPECT_EQ(node_prop(t, "out_connectors"), "c: float64*");
  EXPECT_EQ(node_prop(t, "language"), "Python");
  EXPECT_EQ(node_prop(t, "code"), "c = a + b\nif c > 1:\n    c = 1");
  const char* type = nullptr;
  ASSERT_DACE_OK(dace_node_get_connector_type(&type, sdfg, state, t, 0, "a"));
  EXPECT_STREQ(type, "float64");
  ASSERT_DACE_OK(dace_node_get_connector_type(&type, sdfg, state, t, 0, "b"));
  EXPECT_STREQ(type, "");
  EXPECT_DACE_ERROR(dace_node_get_connector_type(&type, sdfg, state, t, 1, "a"), DACE_ERROR_NOT_FOUND,
                    "node 0 (Tasklet \"add\") / connector \"a\": no such output connector");
  ASSERT_DACE_OK(dace_node_set_code(sdfg, state, t, "c = a * b", DACE_LANGUAGE_PYTHON));
  EXPECT_EQ(node_prop(t, "code"), "c = a * b");
  ASSERT_DACE_OK(dace_node_set_code(sdfg, state, t, "c = a ? b : 0;", DACE_LANGUAGE_CPP));
  EXPECT_EQ(node_prop(t, "language"), "CPP");
  EXPECT_EQ(dace_node_set_code(sdfg, state, t, "c = = 1", DACE_LANGUAGE_PYTHON), DACE_ERROR_PARSE);
  EXPECT_EQ(node_prop(t, "code"), "c = a ? b : 0;");
  ASSERT_DACE_OK(dace_node_set_label(sdfg, state, t, "mul"));
  EXPECT_EQ(node_prop(t, "label"), "mul");
}

TEST_F(SdfgTest, TaskletErrors) {
  dace_id_t t = -1;
  // The second line "b = a +" ends after 7 characters: the parser reports line 2, column 8.
  EXPECT_DACE_ERROR(dace_state_add_tasklet(&t, sdfg, state, "add", "a", "b", "x = 1\nb = a +", DACE_LANGUAGE_PYTHON),
                    DACE_ERROR_PARSE, "sdfg \"t\" / state \"s0\" / node 0 (Tasklet \"add\"): cannot parse code: line 2");
  EXPECT_EQ(dace_last_error_line(), 2);
  EXPECT_EQ(dace_last_error_column(), 8);  // end of "b = a +" (7 characters)
  EXPECT_DACE_ERROR(dace_state_add_tasklet(&t, sdfg, state, "add", "a, a", "b", "b = a", DACE_LANGUAGE_PYTHON),
                    DACE_ERROR_ALREADY_EXISTS, "connector \"a\"");
  EXPECT_DACE_ERROR(dace_state_add_tasklet(&t, sdfg, state, "add", "a", "a", "a = a", DACE_LANGUAGE_PYTHON),
                    DACE_ERROR_ALREADY_EXISTS, "both an input and an output");
  EXPECT_DACE_ERROR(dace_state_add_tasklet(&t, sdfg, state, "add", "a: float99", "b", "b = a", DACE_LANGUAGE_PYTHON),
                    DACE_ERROR_INVALID_ARGUMENT, "unknown type \"float99\"");
  EXPECT_DACE_ERROR(dace_state_add_tasklet(&t, sdfg, state, "add", "a b", "c", "c = 1", DACE_LANGUAGE_PYTHON),
                    DACE_ERROR_PARSE, "not a connector name");
  EXPECT_DACE_ERROR(dace_state_add_tasklet(&t, sdfg, state, "add", "a", "b", "b = a",
                                           static_cast<dace_language_t>(9)),
                    DACE_ERROR_INVALID_ARGUMENT, "language value 9");
  EXPECT_EQ(dace_state_add_tasklet(&t, sdfg, state, "add", "a", "b", nullptr, DACE_LANGUAGE_PYTHON),
            DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_state_add_tasklet(&t, sdfg, 55, "add", "a", "b", "b = a", DACE_LANGUAGE_PYTHON),
            DACE_ERROR_NOT_FOUND);
  EXPECT_TRUE(nodes().empty());
  // CPP code is stored as-is without parsing.
  ASSERT_DACE_OK(dace_state_add_tasklet(&t, sdfg, state, "raw", "a", "b", "b = a ? 1 : 2;", DACE_LANGUAGE_CPP));
}

TEST_F(SdfgTest, ConnectorsAddRemove) {
  dace_id_t t = -1;
  ASSERT_DACE_OK(dace_state_add_tasklet(&t, sdfg, state, "t", nullptr, nullptr, "pass", DACE_LANGUAGE_PYTHON));
  ASSERT_DACE_OK(dace_node_add_in_connector(sdfg, state, t, "x", "int32"));
  ASSERT_DACE_OK(dace_node_add_out_connector(sdfg, state, t, "y", nullptr));
  EXPECT_EQ(node_prop(t, "in_connectors"), "x: int32");
  EXPECT_EQ(node_prop(t, "out_connectors"), "y");
  EXPECT_EQ(dace_node_add_in_connector(sdfg, state, t, "x", nullptr), DACE_ERROR_ALREADY_EXISTS);
  EXPECT_EQ(dace_node_add_in_connector(sdfg, state, t, "9x", nullptr), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_node_add_in_connector(sdfg, state, t, "z", "nope"), DACE_ERROR_INVALID_ARGUMENT);
  dace_id_t a = -1, e = -1;
  ASSERT_DACE_OK(dace_state_add_access(&a, sdfg, state, "B"));
  ASSERT_DACE_OK(dace_state_add_edge(&e, sdfg, state, a, nullptr, t, "x", "B[0]", nullptr));
  EXPECT_DACE_ERROR(dace_node_remove_connector(sdfg, state, t, 0, "x"), DACE_ERROR_INVALID_ARGUMENT, "still used");
  ASSERT_DACE_OK(dace_state_remove_edge(sdfg, state, e));
  ASSERT_DACE_OK(dace_node_remove_connector(sdfg, state, t, 0, "x"));
  EXPECT_EQ(node_prop(t, "in_connectors"), "");
  EXPECT_EQ(dace_node_remove_connector(sdfg, state, t, 0, "x"), DACE_ERROR_NOT_FOUND);
}

TEST_F(SdfgTest, MapStringAndDictForms) {
  dace_id_t entry = -1, exit = -1;
  dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
  o.schedule = DACE_SCHEDULE_CPU_MULTICORE;
  o.collapse = 2;
  o.omp_num_threads = 4;
  o.omp_schedule = DACE_OMP_SCHEDULE_DYNAMIC;
  o.omp_chunk_size = 16;
  o.unroll = 1;
  o.gpu_block_size = "32, 8, 1";
  ASSERT_DACE_OK(dace_state_add_map(&entry, &exit, sdfg, state, "m", "i=0:N, j=1:M-1:2", &o));
  EXPECT_EQ(node_prop(entry, "params"), "i, j");
  EXPECT_EQ(node_prop(exit, "params"), "i, j");  // the exit reports its entry's map
  EXPECT_EQ(node_prop(entry, "schedule"), "CPU_Multicore");
  EXPECT_EQ(node_prop(entry, "collapse"), "2");
  EXPECT_EQ(node_prop(entry, "omp_num_threads"), "4");
  EXPECT_EQ(node_prop(entry, "omp_schedule"), "Dynamic");
  EXPECT_EQ(node_prop(entry, "omp_chunk_size"), "16");
  EXPECT_EQ(node_prop(entry, "unroll"), "1");
  EXPECT_EQ(node_prop(entry, "gpu_block_size"), "32, 8, 1");
  // Reading the range back and parsing it again gives the same iteration space.
  std::string range = node_prop(entry, "range");
  dace_id_t e2 = -1, x2 = -1;
  ASSERT_DACE_OK(dace_state_add_map(&e2, &x2, sdfg, state, "m2", range.c_str(), nullptr));
  EXPECT_EQ(node_prop(e2, "range"), range);
  const char* params[2] = {"i", "j"};
  const char* ranges[2] = {"0:N", "1:M-1:2"};
  dace_id_t e3 = -1, x3 = -1;
  ASSERT_DACE_OK(dace_state_add_map_dict(&e3, &x3, sdfg, state, "m3", params, ranges, 2, nullptr));
  EXPECT_EQ(node_prop(e3, "range"), range);
  EXPECT_EQ(node_prop(e3, "schedule"), "Default");
  dace_id_t partner = -1;
  ASSERT_DACE_OK(dace_node_get_scope_partner(&partner, sdfg, state, e3));
  EXPECT_EQ(partner, x3);
  ASSERT_DACE_OK(dace_node_get_scope_partner(&partner, sdfg, state, x3));
  EXPECT_EQ(partner, e3);
  dace_map_options_t got = DACE_MAP_OPTIONS_INIT;
  ASSERT_DACE_OK(dace_node_get_map_options(&got, sdfg, state, exit));
  EXPECT_EQ(got.schedule, DACE_SCHEDULE_CPU_MULTICORE);
  EXPECT_EQ(got.collapse, 2);
  EXPECT_EQ(got.omp_chunk_size, 16);
  EXPECT_STREQ(got.gpu_block_size, "32, 8, 1");
}

TEST_F(SdfgTest, MapModifyAndErrors) {
  dace_id_t entry = -1, exit = -1;
  ASSERT_DACE_OK(dace_state_add_map(&entry, &exit, sdfg, state, "m", "i=0:N", nullptr));
  ASSERT_DACE_OK(dace_node_set_map_ranges(sdfg, state, exit, "k=0:M, l=0:4"));
  EXPECT_EQ(node_prop(entry, "params"), "k, l");
  ASSERT_DACE_OK(dace_node_set_schedule(sdfg, state, entry, DACE_SCHEDULE_SEQUENTIAL));
  EXPECT_EQ(node_prop(entry, "schedule"), "Sequential");
  dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
  o.schedule = DACE_SCHEDULE_GPU_DEVICE;
  ASSERT_DACE_OK(dace_node_set_map_options(sdfg, state, entry, &o));
  EXPECT_EQ(node_prop(entry, "schedule"), "GPU_Device");
  o.collapse = 0;
  EXPECT_DACE_ERROR(dace_node_set_map_options(sdfg, state, entry, &o), DACE_ERROR_INVALID_ARGUMENT, "collapse");
  EXPECT_EQ(node_prop(entry, "schedule"), "GPU_Device");
  EXPECT_EQ(dace_node_set_schedule(sdfg, state, entry, static_cast<dace_schedule_t>(16)), DACE_ERROR_INVALID_ARGUMENT);
  // "i=0:N, j=0:" — the missing end is reported at the end of the text.
  dace_id_t e = -1, x = -1;
  EXPECT_DACE_ERROR(dace_state_add_map(&e, &x, sdfg, state, "bad", "i=0:N, j=0:", nullptr), DACE_ERROR_PARSE,
                    "map ranges");
  EXPECT_EQ(dace_last_error_column(), 12);
  EXPECT_DACE_ERROR(dace_state_add_map(&e, &x, sdfg, state, "bad", "i=0:N, i=0:M", nullptr),
                    DACE_ERROR_ALREADY_EXISTS, "parameter \"i\"");
  EXPECT_DACE_ERROR(dace_state_add_map(&e, &x, sdfg, state, "bad", "0:N", nullptr), DACE_ERROR_PARSE,
                    "expected 'name=begin:end' at column 1");
  EXPECT_DACE_ERROR(dace_state_add_map(&e, &x, sdfg, state, "bad", "i=0:N, j", nullptr), DACE_ERROR_PARSE,
                    "column 8");
  const char* params[1] = {"i"};
  const char* ranges[1] = {"0:(N"};
  EXPECT_EQ(dace_state_add_map_dict(&e, &x, sdfg, state, "bad", params, ranges, 0, nullptr),
            DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_state_add_map_dict(&e, &x, sdfg, state, "bad", params, ranges, 1, nullptr), DACE_ERROR_PARSE);
  dace_id_t t = -1;
  ASSERT_DACE_OK(dace_state_add_tasklet(&t, sdfg, state, "t", nullptr, nullptr, "pass", DACE_LANGUAGE_PYTHON));
  EXPECT_DACE_ERROR(dace_node_set_map_ranges(sdfg, state, t, "i=0:N"), DACE_ERROR_INVALID_ARGUMENT,
                    "a Tasklet is not a map entry or exit");
  EXPECT_EQ(dace_node_set_schedule(sdfg, state, t, DACE_SCHEDULE_DEFAULT), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(nodes().size(), 3u);
}

TEST_F(SdfgTest, ConsumeScope) {
  ASSERT_DACE_OK(dace_sdfg_add_stream(sdfg, "S", DACE_FLOAT64, nullptr, nullptr));
  dace_id_t entry = -1, exit = -1;
  ASSERT_DACE_OK(dace_state_add_consume(&entry, &exit, sdfg, state, "cons", "p", "4", "len(S) > 0", nullptr,
                                        DACE_SCHEDULE_CPU_MULTICORE));
  dace_node_kind_t kind;
  ASSERT_DACE_OK(dace_node_get_kind(&kind, sdfg, state, entry));
  EXPECT_EQ(kind, DACE_NODE_CONSUME_ENTRY);
  ASSERT_DACE_OK(dace_node_get_kind(&kind, sdfg, state, exit));
  EXPECT_EQ(kind, DACE_NODE_CONSUME_EXIT);
  EXPECT_EQ(node_prop(entry, "pe_index"), "p");
  EXPECT_EQ(node_prop(exit, "num_pes"), "4");
  EXPECT_EQ(node_prop(entry, "chunksize"), "1");
  EXPECT_EQ(node_prop(entry, "condition"), "len(S) > 0");
  EXPECT_EQ(node_prop(entry, "schedule"), "CPU_Multicore");
  dace_id_t e = -1, x = -1;
  EXPECT_EQ(dace_state_add_consume(&e, &x, sdfg, state, "c", "p", "4 +", nullptr, nullptr, DACE_SCHEDULE_DEFAULT),
            DACE_ERROR_PARSE);
  EXPECT_EQ(dace_state_add_consume(&e, &x, sdfg, state, "c", "", "4", nullptr, nullptr, DACE_SCHEDULE_DEFAULT),
            DACE_ERROR_INVALID_ARGUMENT);
}

TEST_F(SdfgTest, NestedSdfgIsCopiedAndBorrowed) {
  dace_sdfg_t* inner = nullptr;
  ASSERT_DACE_OK(dace_sdfg_create(&inner, "inner"));
  ASSERT_DACE_OK(dace_sdfg_add_symbol(inner, "K", DACE_INT64));
  ASSERT_DACE_OK(dace_sdfg_add_array(inner, "x", DACE_FLOAT64, "K", nullptr));
  ASSERT_DACE_OK(dace_sdfg_add_array(inner, "y", DACE_FLOAT64, "K", nullptr));
  dace_id_t n = -1;
  ASSERT_DACE_OK(dace_state_add_nested_sdfg(&n, sdfg, state, inner, "call", "x", "y", "K: N - 1"));
  dace_node_kind_t kind;
  ASSERT_DACE_OK(dace_node_get_kind(&kind, sdfg, state, n));
  EXPECT_EQ(kind, DACE_NODE_NESTED_SDFG);
  std::string mapping = node_prop(n, "symbol_mapping");
  ASSERT_EQ(mapping.rfind("K: ", 0), 0u);
  EXPECT_TRUE(same_expr(mapping.substr(3), "N - 1"));
  EXPECT_EQ(node_prop(n, "sdfg_name"), "inner");
  // The node holds a copy: changing the caller's SDFG does not change it.
  ASSERT_DACE_OK(dace_sdfg_add_symbol(inner, "Z", DACE_INT64));
  dace_sdfg_t* borrowed = nullptr;
  ASSERT_DACE_OK(dace_node_get_nested_sdfg(&borrowed, sdfg, state, n));
  size_t count = 0;
  ASSERT_DACE_OK(dace_sdfg_symbol_count(&count, borrowed));
  EXPECT_EQ(count, 1u);
  dace_sdfg_release(inner);
  // The borrowed handle is stable, mutable, and release on it does nothing.
  dace_sdfg_t* again = nullptr;
  ASSERT_DACE_OK(dace_node_get_nested_sdfg(&again, sdfg, state, n));
  EXPECT_EQ(again, borrowed);
  dace_id_t inner_state = -1;
  ASSERT_DACE_OK(dace_sdfg_add_state(&inner_state, borrowed, DACE_ROOT_REGION, "body"));
  dace_sdfg_release(borrowed);
  size_t states = 0;
  ASSERT_DACE_OK(dace_sdfg_list_states(nullptr, 0, &states, again));
  EXPECT_EQ(states, 1u);
  // Errors in the inner node's path.
  EXPECT_DACE_ERROR(dace_node_get_label(nullptr, sdfg, state, n), DACE_ERROR_INVALID_ARGUMENT, "out_label");
  const char* label = nullptr;
  EXPECT_DACE_ERROR(dace_node_get_label(&label, again, inner_state, 3), DACE_ERROR_NOT_FOUND,
                    "nested SDFG \"call\" / sdfg \"inner\" / state \"body\" / node 3");
  ASSERT_DACE_OK(dace_node_set_schedule(sdfg, state, n, DACE_SCHEDULE_SEQUENTIAL));
  EXPECT_EQ(node_prop(n, "schedule"), "Sequential");
  ASSERT_DACE_OK(dace_node_set_symbol_mapping(sdfg, state, n, "K: M"));
  EXPECT_EQ(node_prop(n, "symbol_mapping"), "K: M");
  EXPECT_EQ(dace_node_set_symbol_mapping(sdfg, state, n, "K M"), DACE_ERROR_PARSE);
}

TEST_F(SdfgTest, NestedSdfgErrorsAndDefaultMapping) {
  dace_sdfg_t* inner = nullptr;
  ASSERT_DACE_OK(dace_sdfg_create(&inner, "inner"));
  ASSERT_DACE_OK(dace_sdfg_add_symbol(inner, "N", DACE_INT64));
  ASSERT_DACE_OK(dace_sdfg_add_array(inner, "x", DACE_FLOAT64, "N", nullptr));
  dace_id_t n = -1;
  EXPECT_DACE_ERROR(dace_state_add_nested_sdfg(&n, sdfg, state, inner, "call", "q", nullptr, nullptr),
                    DACE_ERROR_NOT_FOUND, "connector \"q\": no data container \"q\" in sdfg \"inner\"");
  EXPECT_EQ(dace_state_add_nested_sdfg(&n, sdfg, state, nullptr, "call", "x", nullptr, nullptr),
            DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_state_add_nested_sdfg(&n, sdfg, state, sdfg, "call", nullptr, nullptr, nullptr),
            DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_state_add_nested_sdfg(&n, sdfg, state, inner, "call", "x", nullptr, "N: +"), DACE_ERROR_PARSE);
  EXPECT_TRUE(nodes().empty());
  ASSERT_DACE_OK(dace_state_add_nested_sdfg(&n, sdfg, state, inner, nullptr, "x", "x", nullptr));
  EXPECT_EQ(node_prop(n, "symbol_mapping"), "N: N");
  EXPECT_EQ(node_prop(n, "label"), "inner");
  dace_sdfg_release(inner);
}

TEST_F(SdfgTest, LibraryNode) {
  dace_id_t n = -1;
  ASSERT_DACE_OK(dace_state_add_library_node(&n, sdfg, state, "matmul", "dace.libraries.blas.nodes.matmul.MatMul",
                                             nullptr, "{\"alpha\": 1.5, \"beta\": 0}", "_a, _b", "_c"));
  EXPECT_EQ(node_prop(n, "classpath"), "dace.libraries.blas.nodes.matmul.MatMul");
  EXPECT_EQ(node_prop(n, "name"), "matmul");
  EXPECT_EQ(node_prop(n, "implementation"), "");
  EXPECT_EQ(node_prop(n, "properties"), "{\"alpha\":1.5,\"beta\":0}");
  EXPECT_EQ(node_prop(n, "in_connectors"), "_a, _b");
  ASSERT_DACE_OK(dace_node_set_library_properties(sdfg, state, n, "MKL", nullptr));
  EXPECT_EQ(node_prop(n, "implementation"), "MKL");
  EXPECT_EQ(node_prop(n, "properties"), "{\"alpha\":1.5,\"beta\":0}");
  ASSERT_DACE_OK(dace_node_set_library_properties(sdfg, state, n, nullptr, "{}"));
  EXPECT_EQ(node_prop(n, "properties"), "{}");
  EXPECT_EQ(node_prop(n, "implementation"), "");
  EXPECT_DACE_ERROR(dace_node_set_library_properties(sdfg, state, n, nullptr, "{\"a\": }"), DACE_ERROR_PARSE,
                    "properties JSON");
  dace_id_t m = -1;
  EXPECT_DACE_ERROR(dace_state_add_library_node(&m, sdfg, state, "x", "", nullptr, nullptr, nullptr, nullptr),
                    DACE_ERROR_INVALID_ARGUMENT, "classpath");
  EXPECT_DACE_ERROR(dace_state_add_library_node(&m, sdfg, state, "x", "a.B", nullptr, "[1]", nullptr, nullptr),
                    DACE_ERROR_INVALID_ARGUMENT, "JSON object");
  EXPECT_EQ(nodes().size(), 1u);
  const char* v = nullptr;
  EXPECT_DACE_ERROR(dace_node_get_property(&v, sdfg, state, n, "code"), DACE_ERROR_NOT_FOUND,
                    "a LibraryNode has no property \"code\"");
}

TEST_F(SdfgTest, RemoveNodeKeepsOtherIds) {
  dace_id_t a = -1, t = -1, b = -1, e1 = -1, e2 = -1;
  ASSERT_DACE_OK(dace_state_add_access(&a, sdfg, state, "B"));
  ASSERT_DACE_OK(dace_state_add_tasklet(&t, sdfg, state, "t", "x", "y", "y = x", DACE_LANGUAGE_PYTHON));
  ASSERT_DACE_OK(dace_state_add_access(&b, sdfg, state, "A"));
  ASSERT_DACE_OK(dace_state_add_edge(&e1, sdfg, state, a, nullptr, t, "x", "B[0]", nullptr));
  ASSERT_DACE_OK(dace_state_add_edge(&e2, sdfg, state, t, "y", b, nullptr, "A[0, 0]", nullptr));
  ASSERT_DACE_OK(dace_state_remove_node(sdfg, state, a));
  EXPECT_EQ(nodes(), (std::vector<dace_id_t>{t, b}));
  EXPECT_EQ(edges(), (std::vector<dace_id_t>{e2}));  // the edge from `a` went with it
  EXPECT_EQ(node_prop(b, "data"), "A");
  EXPECT_DACE_ERROR(dace_state_remove_node(sdfg, state, a), DACE_ERROR_NOT_FOUND, "node 0");
  dace_id_t c = -1;
  ASSERT_DACE_OK(dace_state_add_access(&c, sdfg, state, "B"));
  EXPECT_EQ(c, 3);  // slots are never reused
}

// Fuzz finding (fuzz/regressions/capi_ops/map-exit-without-entry-round-trip): removing a
// map entry alone leaves its exit naming a removed node. The SDFG is invalid, but saving it
// must still write what reads back: the exit with null scope links, not the removed entry's
// id (which read back as none, so the loaded SDFG differed).
TEST_F(SdfgTest, MapExitWithoutEntrySavesWhatReadsBack) {
  dace_id_t entry = -1, exit = -1;
  ASSERT_DACE_OK(dace_state_add_map(&entry, &exit, sdfg, state, "m", "i=0:N", nullptr));
  ASSERT_DACE_OK(dace_state_remove_node(sdfg, state, entry));
  EXPECT_EQ(dace_sdfg_validate(sdfg), DACE_ERROR_INVALID_SDFG);
  void* data = nullptr;
  size_t size = 0;
  ASSERT_DACE_OK(dace_sdfg_save_buffer(&data, &size, sdfg, nullptr));
  const std::string json(static_cast<const char*>(data), size);
  dace_sdfg_t* back = nullptr;
  ASSERT_DACE_OK(dace_sdfg_load_buffer(&back, data, size));
  dace_buffer_free(data);
  int32_t equal = 0;
  const char* diff = nullptr;
  ASSERT_DACE_OK(dace_sdfg_equal(&equal, &diff, sdfg, back));
  EXPECT_TRUE(equal) << diff;
  dace_sdfg_release(back);
  EXPECT_NE(json.find("\"scope_entry\": null"), std::string::npos) << json;
}

TEST_F(SdfgTest, ScopeParents) {
  dace_id_t tasklet = -1, entry = -1, exit = -1;
  ASSERT_DACE_OK(dace_state_add_mapped_tasklet(&tasklet, &entry, &exit, sdfg, state, "t", "i=0:N", "x: B[i]",
                                               "y = x", "y: B[i]", nullptr));
  dace_id_t parent = -5;
  ASSERT_DACE_OK(dace_node_get_scope_parent(&parent, sdfg, state, tasklet));
  EXPECT_EQ(parent, entry);
  ASSERT_DACE_OK(dace_node_get_scope_parent(&parent, sdfg, state, entry));
  EXPECT_EQ(parent, DACE_NO_ID);
  dace_id_t partner = -1;
  EXPECT_DACE_ERROR(dace_node_get_scope_partner(&partner, sdfg, state, tasklet), DACE_ERROR_INVALID_ARGUMENT,
                    "not a scope entry or exit");
}
