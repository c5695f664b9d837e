// C API: symbols and data descriptors (add, query, modify, remove, error paths).
#include <string>

#include "capi_test_util.h"

using capi_test::same_expr;
using capi_test::same_list;
using capi_test::SdfgTest;

TEST_F(SdfgTest, SymbolsListedSortedWithTypes) {
  ASSERT_DACE_OK(dace_sdfg_add_symbol(sdfg, "K", DACE_INT32));
  size_t n = 0;
  ASSERT_DACE_OK(dace_sdfg_symbol_count(&n, sdfg));
  ASSERT_EQ(n, 3u);
  const char* name = nullptr;
  dace_dtype_t type = DACE_DTYPE_UNKNOWN;
  ASSERT_DACE_OK(dace_sdfg_get_symbol(&name, &type, sdfg, 0));
  EXPECT_STREQ(name, "K");
  EXPECT_EQ(type, DACE_INT32);
  ASSERT_DACE_OK(dace_sdfg_get_symbol(&name, &type, sdfg, 2));
  EXPECT_STREQ(name, "N");
  EXPECT_EQ(type, DACE_INT64);
  EXPECT_DACE_ERROR(dace_sdfg_get_symbol(&name, &type, sdfg, 3), DACE_ERROR_NOT_FOUND, "out of range");
  ASSERT_DACE_OK(dace_sdfg_get_symbol_dtype(&type, sdfg, "K"));
  EXPECT_EQ(type, DACE_INT32);
  EXPECT_DACE_ERROR(dace_sdfg_get_symbol_dtype(&type, sdfg, "Q"), DACE_ERROR_NOT_FOUND, "symbol \"Q\"");
}

TEST_F(SdfgTest, SymbolErrors) {
  EXPECT_DACE_ERROR(dace_sdfg_add_symbol(sdfg, "N", DACE_INT64), DACE_ERROR_ALREADY_EXISTS, "symbol \"N\"");
  EXPECT_DACE_ERROR(dace_sdfg_add_symbol(sdfg, "A", DACE_INT64), DACE_ERROR_ALREADY_EXISTS, "data \"A\"");
  EXPECT_DACE_ERROR(dace_sdfg_add_symbol(sdfg, "K", static_cast<dace_dtype_t>(42)), DACE_ERROR_INVALID_ARGUMENT,
                    "symbol \"K\": dtype value 42");
  EXPECT_EQ(dace_sdfg_add_symbol(sdfg, "K", DACE_DTYPE_UNKNOWN), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_sdfg_add_symbol(sdfg, "2K", DACE_INT64), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_sdfg_add_symbol(sdfg, nullptr, DACE_INT64), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_sdfg_add_symbol(nullptr, "K", DACE_INT64), DACE_ERROR_INVALID_ARGUMENT);
  ASSERT_DACE_OK(dace_sdfg_remove_symbol(sdfg, "M"));
  EXPECT_DACE_ERROR(dace_sdfg_remove_symbol(sdfg, "M"), DACE_ERROR_NOT_FOUND, "symbol \"M\"");
}

TEST_F(SdfgTest, ArrayDefaultsAreCOrder) {
  dace_data_kind_t kind;
  ASSERT_DACE_OK(dace_data_get_kind(&kind, sdfg, "A"));
  EXPECT_EQ(kind, DACE_DATA_ARRAY);
  dace_dtype_t dtype;
  ASSERT_DACE_OK(dace_data_get_dtype(&dtype, sdfg, "A"));
  EXPECT_EQ(dtype, DACE_FLOAT64);
  EXPECT_TRUE(same_list(data_prop("A", "shape"), "N, M"));
  EXPECT_TRUE(same_list(data_prop("A", "strides"), "M, 1"));
  EXPECT_TRUE(same_list(data_prop("A", "offset"), "0, 0"));
  EXPECT_TRUE(same_expr(data_prop("A", "total_size"), "N*M"));
  EXPECT_EQ(data_prop("A", "dtype"), "float64");
  EXPECT_EQ(data_prop("A", "kind"), "Array");
  EXPECT_EQ(data_prop("A", "transient"), "0");
  EXPECT_EQ(data_prop("A", "storage"), "Default");
  EXPECT_EQ(data_prop("A", "lifetime"), "Scope");
  EXPECT_EQ(data_prop("A", "alignment"), "0");
  EXPECT_EQ(data_prop("A", "may_alias"), "0");
}

TEST_F(SdfgTest, ArrayWithAllOptions) {
  dace_array_options_t o = DACE_ARRAY_OPTIONS_INIT;
  o.strides = "1, N";
  o.offset = "1, 0";
  o.total_size = "N*(M+1)";
  o.alignment = 64;
  o.may_alias = 1;
  o.transient = 1;
  o.storage = DACE_STORAGE_CPU_HEAP;
  o.lifetime = DACE_LIFETIME_PERSISTENT;
  ASSERT_DACE_OK(dace_sdfg_add_array(sdfg, "F", DACE_FLOAT32, "N, M+1", &o));
  EXPECT_TRUE(same_list(data_prop("F", "shape"), "N, M + 1"));
  EXPECT_TRUE(same_list(data_prop("F", "strides"), "1, N"));
  EXPECT_TRUE(same_list(data_prop("F", "offset"), "1, 0"));
  EXPECT_TRUE(same_expr(data_prop("F", "total_size"), "N*M + N"));
  EXPECT_EQ(data_prop("F", "alignment"), "64");
  EXPECT_EQ(data_prop("F", "may_alias"), "1");
  EXPECT_EQ(data_prop("F", "storage"), "CPU_Heap");
  EXPECT_EQ(data_prop("F", "lifetime"), "Persistent");
  int32_t transient = 0;
  ASSERT_DACE_OK(dace_data_get_transient(&transient, sdfg, "F"));
  EXPECT_EQ(transient, 1);
  dace_storage_t storage;
  ASSERT_DACE_OK(dace_data_get_storage(&storage, sdfg, "F"));
  EXPECT_EQ(storage, DACE_STORAGE_CPU_HEAP);
  dace_lifetime_t lifetime;
  ASSERT_DACE_OK(dace_data_get_lifetime(&lifetime, sdfg, "F"));
  EXPECT_EQ(lifetime, DACE_LIFETIME_PERSISTENT);
}

TEST_F(SdfgTest, OtherDescriptorKinds) {
  ASSERT_DACE_OK(dace_sdfg_add_transient(sdfg, "tmp", DACE_INT32, "N", nullptr));
  int32_t transient = 0;
  ASSERT_DACE_OK(dace_data_get_transient(&transient, sdfg, "tmp"));
  EXPECT_EQ(transient, 1);
  dace_array_options_t so = DACE_ARRAY_OPTIONS_INIT;
  so.buffer_size = "32";
  ASSERT_DACE_OK(dace_sdfg_add_stream(sdfg, "q", DACE_FLOAT64, nullptr, &so));
  ASSERT_DACE_OK(dace_sdfg_add_view(sdfg, "v", DACE_FLOAT64, "M", nullptr));
  ASSERT_DACE_OK(dace_sdfg_add_reference(sdfg, "r", DACE_FLOAT64, "N, M", nullptr));
  dace_data_kind_t kind;
  ASSERT_DACE_OK(dace_data_get_kind(&kind, sdfg, "q"));
  EXPECT_EQ(kind, DACE_DATA_STREAM);
  ASSERT_DACE_OK(dace_data_get_kind(&kind, sdfg, "v"));
  EXPECT_EQ(kind, DACE_DATA_VIEW);
  ASSERT_DACE_OK(dace_data_get_kind(&kind, sdfg, "r"));
  EXPECT_EQ(kind, DACE_DATA_REFERENCE);
  ASSERT_DACE_OK(dace_data_get_kind(&kind, sdfg, "s"));
  EXPECT_EQ(kind, DACE_DATA_SCALAR);
  EXPECT_EQ(data_prop("q", "buffer_size"), "32");
  EXPECT_EQ(data_prop("q", "shape"), "1");
  EXPECT_EQ(data_prop("s", "shape"), "1");
  const char* v = nullptr;
  EXPECT_DACE_ERROR(dace_data_get_property(&v, sdfg, "s", "strides"), DACE_ERROR_NOT_FOUND,
                    "a Scalar has no property \"strides\"");
  EXPECT_DACE_ERROR(dace_data_get_property(&v, sdfg, "A", "buffer_size"), DACE_ERROR_NOT_FOUND, "data \"A\"");
  size_t n = 0;
  ASSERT_DACE_OK(dace_sdfg_data_count(&n, sdfg));
  EXPECT_EQ(n, 7u);
  const char* name = nullptr;
  ASSERT_DACE_OK(dace_sdfg_get_data_name(&name, sdfg, 0));
  EXPECT_STREQ(name, "A");
  ASSERT_DACE_OK(dace_sdfg_get_data_name(&name, sdfg, 6));
  EXPECT_STREQ(name, "v");
  EXPECT_EQ(dace_sdfg_get_data_name(&name, sdfg, 7), DACE_ERROR_NOT_FOUND);
}

TEST_F(SdfgTest, DataErrors) {
  EXPECT_DACE_ERROR(dace_sdfg_add_array(sdfg, "A", DACE_FLOAT64, "N", nullptr), DACE_ERROR_ALREADY_EXISTS,
                    "data \"A\"");
  EXPECT_DACE_ERROR(dace_sdfg_add_array(sdfg, "N", DACE_FLOAT64, "N", nullptr), DACE_ERROR_ALREADY_EXISTS,
                    "symbol \"N\"");
  // "N, (M" — the parser reports the column within the whole shape text.
  EXPECT_EQ(dace_sdfg_add_array(sdfg, "C", DACE_FLOAT64, "N, M)", nullptr), DACE_ERROR_PARSE);
  EXPECT_EQ(dace_last_error_column(), 5);  // the ')' is the 5th character
  EXPECT_NE(std::string(dace_last_error_message()).find("sdfg \"t\" / data \"C\""), std::string::npos);
  EXPECT_DACE_ERROR(dace_sdfg_add_array(sdfg, "C", DACE_FLOAT64, "N,, M", nullptr), DACE_ERROR_PARSE, "column 3");
  EXPECT_DACE_ERROR(dace_sdfg_add_array(sdfg, "C", DACE_FLOAT64, "", nullptr), DACE_ERROR_PARSE, "data \"C\"");
  EXPECT_EQ(dace_sdfg_add_array(sdfg, "C", DACE_FLOAT64, nullptr, nullptr), DACE_ERROR_INVALID_ARGUMENT);
  dace_array_options_t o = DACE_ARRAY_OPTIONS_INIT;
  o.strides = "1";
  EXPECT_DACE_ERROR(dace_sdfg_add_array(sdfg, "C", DACE_FLOAT64, "N, M", &o), DACE_ERROR_INVALID_ARGUMENT,
                    "1 strides for 2 dimensions");
  o = dace_array_options_t DACE_ARRAY_OPTIONS_INIT;
  o.storage = static_cast<dace_storage_t>(15);
  EXPECT_DACE_ERROR(dace_sdfg_add_array(sdfg, "C", DACE_FLOAT64, "N", &o), DACE_ERROR_INVALID_ARGUMENT,
                    "storage value 15");
  o = dace_array_options_t DACE_ARRAY_OPTIONS_INIT;
  o.lifetime = static_cast<dace_lifetime_t>(1000);
  EXPECT_EQ(dace_sdfg_add_array(sdfg, "C", DACE_FLOAT64, "N", &o), DACE_ERROR_INVALID_ARGUMENT);
  o = dace_array_options_t DACE_ARRAY_OPTIONS_INIT;
  o.strides = "1";
  EXPECT_DACE_ERROR(dace_sdfg_add_scalar(sdfg, "C", DACE_FLOAT64, &o), DACE_ERROR_INVALID_ARGUMENT,
                    "apply to arrays");
  o = dace_array_options_t DACE_ARRAY_OPTIONS_INIT;
  o.buffer_size = "4";
  EXPECT_DACE_ERROR(dace_sdfg_add_array(sdfg, "C", DACE_FLOAT64, "N", &o), DACE_ERROR_INVALID_ARGUMENT,
                    "streams only");
  o = dace_array_options_t DACE_ARRAY_OPTIONS_INIT;
  o.version = 0;
  EXPECT_DACE_ERROR(dace_sdfg_add_array(sdfg, "C", DACE_FLOAT64, "N", &o), DACE_ERROR_INVALID_ARGUMENT,
                    "unknown version 0");
  // Nothing was added by the failed calls.
  size_t n = 0;
  ASSERT_DACE_OK(dace_sdfg_data_count(&n, sdfg));
  EXPECT_EQ(n, 3u);
  dace_data_kind_t kind;
  EXPECT_DACE_ERROR(dace_data_get_kind(&kind, sdfg, "C"), DACE_ERROR_NOT_FOUND, "sdfg \"t\" / data \"C\"");
  EXPECT_EQ(dace_data_get_kind(&kind, sdfg, nullptr), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_data_get_kind(nullptr, sdfg, "A"), DACE_ERROR_INVALID_ARGUMENT);
}

TEST_F(SdfgTest, ModifyData) {
  ASSERT_DACE_OK(dace_data_set_transient(sdfg, "B", 1));
  EXPECT_EQ(data_prop("B", "transient"), "1");
  ASSERT_DACE_OK(dace_data_set_storage(sdfg, "B", DACE_STORAGE_GPU_GLOBAL));
  EXPECT_EQ(data_prop("B", "storage"), "GPU_Global");
  ASSERT_DACE_OK(dace_data_set_lifetime(sdfg, "B", DACE_LIFETIME_SDFG));
  EXPECT_EQ(data_prop("B", "lifetime"), "SDFG");
  EXPECT_EQ(dace_data_set_storage(sdfg, "B", static_cast<dace_storage_t>(100)), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(data_prop("B", "storage"), "GPU_Global");
  ASSERT_DACE_OK(dace_data_set_shape(sdfg, "A", "M, N, 2"));
  EXPECT_TRUE(same_list(data_prop("A", "strides"), "2*N, 2, 1"));
  EXPECT_TRUE(same_expr(data_prop("A", "total_size"), "2*M*N"));
  EXPECT_DACE_ERROR(dace_data_set_shape(sdfg, "s", "2"), DACE_ERROR_INVALID_ARGUMENT, "Scalar");
  EXPECT_EQ(dace_data_set_shape(sdfg, "A", "M +"), DACE_ERROR_PARSE);
  EXPECT_TRUE(same_list(data_prop("A", "shape"), "M, N, 2"));
  EXPECT_DACE_ERROR(dace_data_set_transient(sdfg, "Z", 1), DACE_ERROR_NOT_FOUND, "data \"Z\"");
}

TEST_F(SdfgTest, RemoveDataRefusesWhileUsed) {
  dace_id_t a = -1;
  ASSERT_DACE_OK(dace_state_add_access(&a, sdfg, state, "B"));
  EXPECT_DACE_ERROR(dace_sdfg_remove_data(sdfg, "B"), DACE_ERROR_INVALID_ARGUMENT,
                    "still used by sdfg \"t\" / state \"s0\" / node 0 (AccessNode \"B\")");
  ASSERT_DACE_OK(dace_state_remove_node(sdfg, state, a));
  ASSERT_DACE_OK(dace_sdfg_remove_data(sdfg, "B"));
  EXPECT_DACE_ERROR(dace_sdfg_remove_data(sdfg, "B"), DACE_ERROR_NOT_FOUND, "data \"B\"");
}
