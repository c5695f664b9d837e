// Helpers for the C API tests (tests/unit/capi_*.cpp).
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ir/symbolic/expr.h"
#include "libdace.h"

#define ASSERT_DACE_OK(call) ASSERT_EQ((call), DACE_OK) << dace_last_error_message()
#define EXPECT_DACE_OK(call) EXPECT_EQ((call), DACE_OK) << dace_last_error_message()
// A failing call: status, and the message contains `needle`.
#define EXPECT_DACE_ERROR(call, status, needle)                                              \
  do {                                                                                        \
    EXPECT_EQ((call), (status)) << dace_last_error_message();                                 \
    EXPECT_NE(std::string(dace_last_error_message()).find(needle), std::string::npos)         \
        << "message: " << dace_last_error_message() << "\nexpected to contain: " << (needle); \
  } while (0)

namespace capi_test {

// An SDFG "t" with symbols N, M and arrays A[N, M], B[N], scalar s, and a state "s0".
class SdfgTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_DACE_OK(dace_sdfg_create(&sdfg, "t"));
    ASSERT_DACE_OK(dace_sdfg_add_symbol(sdfg, "N", DACE_INT64));
    ASSERT_DACE_OK(dace_sdfg_add_symbol(sdfg, "M", DACE_INT64));
    ASSERT_DACE_OK(dace_sdfg_add_array(sdfg, "A", DACE_FLOAT64, "N, M", nullptr));
    ASSERT_DACE_OK(dace_sdfg_add_array(sdfg, "B", DACE_FLOAT64, "N", nullptr));
    ASSERT_DACE_OK(dace_sdfg_add_scalar(sdfg, "s", DACE_FLOAT64, nullptr));
    ASSERT_DACE_OK(dace_sdfg_add_state(&state, sdfg, DACE_ROOT_REGION, "s0"));
  }
  void TearDown() override { dace_sdfg_release(sdfg); }

  std::vector<dace_id_t> nodes() const {
    size_t n = 0;
    EXPECT_EQ(dace_state_list_nodes(nullptr, 0, &n, sdfg, state), DACE_OK);
    std::vector<dace_id_t> ids(n);
    EXPECT_EQ(dace_state_list_nodes(ids.data(), ids.size(), &n, sdfg, state), DACE_OK);
    return ids;
  }
  std::vector<dace_id_t> edges() const {
    size_t n = 0;
    EXPECT_EQ(dace_state_list_edges(nullptr, 0, &n, sdfg, state), DACE_OK);
    std::vector<dace_id_t> ids(n);
    EXPECT_EQ(dace_state_list_edges(ids.data(), ids.size(), &n, sdfg, state), DACE_OK);
    return ids;
  }
  std::string node_prop(dace_id_t node, const char* p) const {
    const char* v = nullptr;
    EXPECT_EQ(dace_node_get_property(&v, sdfg, state, node, p), DACE_OK) << dace_last_error_message();
    return v ? v : "<null>";
  }
  std::string memlet_prop(dace_id_t edge, const char* p) const {
    const char* v = nullptr;
    EXPECT_EQ(dace_edge_get_memlet_property(&v, sdfg, state, edge, p), DACE_OK) << dace_last_error_message();
    return v ? v : "<null>";
  }
  std::string data_prop(const char* name, const char* p) const {
    const char* v = nullptr;
    EXPECT_EQ(dace_data_get_property(&v, sdfg, name, p), DACE_OK) << dace_last_error_message();
    return v ? v : "<null>";
  }

  dace_sdfg_t* sdfg = nullptr;
  dace_id_t state = -1;
};

// Semantic comparison of symbolic text: both sides parsed and expanded to polynomial normal form.
inline bool same_expr(const std::string& a, const std::string& b) {
  auto x = dace::sym::parse(a);
  auto y = dace::sym::parse(b);
  return x && y && dace::sym::expand(*x) == dace::sym::expand(*y);
}

// Same for comma-separated lists ("N, M + 1").
inline bool same_list(const std::string& a, const std::string& b) {
  auto split = [](const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    int depth = 0;
    for (char c : s) {
      if (c == '(') ++depth;
      if (c == ')') --depth;
      if (c == ',' && depth == 0) {
        out.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
  };
  auto x = split(a), y = split(b);
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i)
    if (!same_expr(x[i], y[i])) return false;
  return true;
}

// The SDFG's content hash through the C API (what a handle remembers, if it does).
inline std::string hash_of(const dace_sdfg_t* s) {
  char h[65] = {};
  EXPECT_EQ(dace_sdfg_hash(h, s), DACE_OK) << dace_last_error_message();
  return h;
}

// The hash of a fresh handle loaded from the SDFG's JSON: computed with nothing remembered.
inline std::string fresh_hash_of(const dace_sdfg_t* s) {
  char* json = nullptr;
  EXPECT_EQ(dace_sdfg_to_json(&json, s, nullptr), DACE_OK) << dace_last_error_message();
  dace_sdfg_t* copy = nullptr;
  EXPECT_EQ(dace_sdfg_load_string(&copy, json), DACE_OK) << dace_last_error_message();
  dace_string_free(json);
  std::string h = hash_of(copy);
  dace_sdfg_release(copy);
  return h;
}

}  // namespace capi_test
