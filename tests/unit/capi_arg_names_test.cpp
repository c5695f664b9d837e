// dace_sdfg_set_arg_names / arg_name_count / get_arg_name: DaCe's positional signature,
// checked names, unchanged on error, and carried through the .sdfg JSON.
#include <string>
#include <vector>

#include "capi_program_test_util.h"
#include "capi_test_util.h"

namespace {

std::vector<std::string> arg_names(const dace_sdfg_t* sdfg) {
  size_t n = 0;
  EXPECT_DACE_OK(dace_sdfg_arg_name_count(&n, sdfg));
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) {
    const char* name = nullptr;
    EXPECT_DACE_OK(dace_sdfg_get_arg_name(&name, sdfg, i));
    out.emplace_back(name);
  }
  return out;
}

TEST(CapiArgNames, SetGetAndJsonRoundTrip) {
  dace_sdfg_t* sdfg = capi_test::make_axpb("argn");
  EXPECT_TRUE(arg_names(sdfg).empty());
  const char* names[] = {"s", "B", "A", "N"};
  ASSERT_DACE_OK(dace_sdfg_set_arg_names(sdfg, names, 4));
  const std::vector<std::string> expected = {"s", "B", "A", "N"};
  EXPECT_EQ(arg_names(sdfg), expected);

  char* json = nullptr;
  ASSERT_DACE_OK(dace_sdfg_to_json(&json, sdfg, nullptr));
  EXPECT_NE(std::string(json).find("\"arg_names\""), std::string::npos);
  dace_sdfg_t* loaded = nullptr;
  ASSERT_DACE_OK(dace_sdfg_load_string(&loaded, json));
  dace_string_free(json);
  EXPECT_EQ(arg_names(loaded), expected);

  ASSERT_DACE_OK(dace_sdfg_set_arg_names(loaded, nullptr, 0));
  EXPECT_TRUE(arg_names(loaded).empty());
  dace_sdfg_release(loaded);
  dace_sdfg_release(sdfg);
}

TEST(CapiArgNames, BadNamesLeaveTheListUnchanged) {
  dace_sdfg_t* sdfg = capi_test::make_axpb("argn_bad");
  ASSERT_DACE_OK(dace_sdfg_add_transient(sdfg, "T", DACE_FLOAT64, "N", nullptr));
  const char* one[] = {"A"};
  ASSERT_DACE_OK(dace_sdfg_set_arg_names(sdfg, one, 1));
  const char* unknown[] = {"B", "nope"};
  EXPECT_DACE_ERROR(dace_sdfg_set_arg_names(sdfg, unknown, 2), DACE_ERROR_NOT_FOUND, "arg_names[1]: \"nope\"");
  const char* transient[] = {"T"};
  EXPECT_DACE_ERROR(dace_sdfg_set_arg_names(sdfg, transient, 1), DACE_ERROR_INVALID_ARGUMENT, "transient");
  const char* twice[] = {"A", "A"};
  EXPECT_DACE_ERROR(dace_sdfg_set_arg_names(sdfg, twice, 2), DACE_ERROR_INVALID_ARGUMENT, "twice");
  const char* null_entry[] = {nullptr};
  EXPECT_DACE_ERROR(dace_sdfg_set_arg_names(sdfg, null_entry, 1), DACE_ERROR_INVALID_ARGUMENT, "NULL");
  EXPECT_DACE_ERROR(dace_sdfg_set_arg_names(sdfg, nullptr, 1), DACE_ERROR_INVALID_ARGUMENT, "names");
  EXPECT_EQ(arg_names(sdfg), std::vector<std::string>{"A"});
  const char* name = nullptr;
  EXPECT_DACE_ERROR(dace_sdfg_get_arg_name(&name, sdfg, 1), DACE_ERROR_NOT_FOUND, "out of range");
  dace_sdfg_release(sdfg);
}

}  // namespace
