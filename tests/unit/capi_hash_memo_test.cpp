// dace_sdfg_hash (and the JIT cache key) remember the content hash per handle; every change
// made through any handle of the tree must show in the next hash.
#include <cstdlib>
#include <string>

#include "capi_test_util.h"

namespace {

using capi_test::fresh_hash_of;
using capi_test::hash_of;

TEST(CApiHashMemo, EveryChangeShowsInTheNextHash) {
  dace_sdfg_t* outer = nullptr;
  ASSERT_DACE_OK(dace_sdfg_create(&outer, "outer"));
  ASSERT_DACE_OK(dace_sdfg_add_array(outer, "A", DACE_FLOAT64, "4", nullptr));
  dace_id_t st = -1;
  ASSERT_DACE_OK(dace_sdfg_add_state(&st, outer, DACE_ROOT_REGION, "s0"));
  std::string h0 = hash_of(outer);
  EXPECT_EQ(h0, hash_of(outer));  // remembered, unchanged
  EXPECT_EQ(h0, fresh_hash_of(outer));

  ASSERT_DACE_OK(dace_sdfg_add_symbol(outer, "N", DACE_INT64));
  std::string h1 = hash_of(outer);
  EXPECT_NE(h1, h0);
  EXPECT_EQ(h1, fresh_hash_of(outer));

  // A nested SDFG changed through its borrowed handle changes the outer hash too.
  dace_sdfg_t* inner = nullptr;
  ASSERT_DACE_OK(dace_sdfg_create(&inner, "inner"));
  ASSERT_DACE_OK(dace_sdfg_add_array(inner, "X", DACE_FLOAT64, "4", nullptr));
  dace_id_t inner_state = -1;
  ASSERT_DACE_OK(dace_sdfg_add_state(&inner_state, inner, DACE_ROOT_REGION, "i0"));
  dace_id_t node = -1;
  ASSERT_DACE_OK(dace_state_add_nested_sdfg(&node, outer, st, inner, "nest", "X", "", nullptr));
  dace_sdfg_release(inner);
  std::string h2 = hash_of(outer);
  EXPECT_NE(h2, h1);
  dace_sdfg_t* borrowed = nullptr;
  ASSERT_DACE_OK(dace_node_get_nested_sdfg(&borrowed, outer, st, node));
  std::string inner_before = hash_of(borrowed);
  ASSERT_DACE_OK(dace_sdfg_add_symbol(borrowed, "K", DACE_INT32));
  EXPECT_NE(hash_of(borrowed), inner_before);
  std::string h3 = hash_of(outer);
  EXPECT_NE(h3, h2);
  EXPECT_EQ(h3, fresh_hash_of(outer));
  dace_sdfg_release(outer);
}

// A pass run through the outer handle may edit a nested SDFG through element pointers only
// (RemoveUnusedSymbols erases the inner declaration): the nested SDFG's own stamps stay as
// they were, yet its borrowed handle must not answer with the hash it remembered before.
TEST(CApiHashMemo, APassOnTheOuterSdfgShowsInANestedHandlesHash) {
  dace_sdfg_t* outer = nullptr;
  ASSERT_DACE_OK(dace_sdfg_create(&outer, "outer"));
  ASSERT_DACE_OK(dace_sdfg_add_array(outer, "A", DACE_FLOAT64, "4", nullptr));
  dace_id_t st = -1;
  ASSERT_DACE_OK(dace_sdfg_add_state(&st, outer, DACE_ROOT_REGION, "s0"));
  dace_sdfg_t* inner = nullptr;
  ASSERT_DACE_OK(dace_sdfg_create(&inner, "inner"));
  ASSERT_DACE_OK(dace_sdfg_add_array(inner, "X", DACE_FLOAT64, "4", nullptr));
  dace_id_t inner_state = -1;
  ASSERT_DACE_OK(dace_sdfg_add_state(&inner_state, inner, DACE_ROOT_REGION, "i0"));
  dace_id_t node = -1, access = -1, edge = -1;
  ASSERT_DACE_OK(dace_state_add_nested_sdfg(&node, outer, st, inner, "nest", "X", "", nullptr));
  dace_sdfg_release(inner);
  ASSERT_DACE_OK(dace_state_add_access(&access, outer, st, "A"));
  ASSERT_DACE_OK(dace_state_add_edge(&edge, outer, st, access, nullptr, node, "X", "A[0:4]", nullptr));
  dace_sdfg_t* borrowed = nullptr;
  ASSERT_DACE_OK(dace_node_get_nested_sdfg(&borrowed, outer, st, node));
  // Declared after nesting, so that no symbol mapping passes it in: nothing uses it.
  ASSERT_DACE_OK(dace_sdfg_add_symbol(borrowed, "unused", DACE_INT64));
  size_t symbols = 0;
  ASSERT_DACE_OK(dace_sdfg_symbol_count(&symbols, borrowed));
  ASSERT_EQ(symbols, 1u);
  const std::string before = hash_of(borrowed);  // remembered
  EXPECT_EQ(before, fresh_hash_of(borrowed));

  ASSERT_DACE_OK(dace_sdfg_apply_transformation(outer, "RemoveUnusedSymbols", nullptr));
  ASSERT_DACE_OK(dace_sdfg_symbol_count(&symbols, borrowed));
  ASSERT_EQ(symbols, 0u) << "the pass did not edit the nested SDFG in place";
  const std::string after = hash_of(borrowed);
  EXPECT_NE(after, before);
  EXPECT_EQ(after, fresh_hash_of(borrowed));
  dace_sdfg_release(outer);
}

}  // namespace
