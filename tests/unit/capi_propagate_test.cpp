// dace_map_propagate_memlet: a memlet inside a map as seen outside it (hand-derived hulls).
#include <string>

#include "capi_test_util.h"

namespace {

using capi_test::SdfgTest;  // A[N, M], B[N], state s0

std::string propagated(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node, const char* memlet) {
  const char* out = nullptr;
  EXPECT_EQ(dace_map_propagate_memlet(&out, sdfg, state, node, memlet), DACE_OK) << dace_last_error_message();
  return out ? out : "";
}

TEST_F(SdfgTest, PropagateMemletOverAMap) {
  dace_id_t entry = -1, exit = -1;
  ASSERT_DACE_OK(dace_state_add_map(&entry, &exit, sdfg, state, "m", "i=1:N-1, j=0:M", nullptr));
  // Affine bounds: the hull over i in [1, N-2], j in [0, M-1].
  EXPECT_EQ(propagated(sdfg, state, entry, "A[i - 1, j]"), "A[0:N - 2, 0:M]");
  EXPECT_EQ(propagated(sdfg, state, exit, "B[i + 1]"), "B[2:N]");
  // Independent of the parameters: unchanged; not affine (i*i): the whole extent.
  EXPECT_EQ(propagated(sdfg, state, entry, "A[0, 0:M]"), "A[0, 0:M]");
  EXPECT_EQ(propagated(sdfg, state, entry, "B[i * i]"), "B[0:N]");
}

TEST_F(SdfgTest, PropagateMemletErrorsNameTheElement) {
  dace_id_t entry = -1, exit = -1;
  ASSERT_DACE_OK(dace_state_add_map(&entry, &exit, sdfg, state, "m", "i=0:N", nullptr));
  dace_id_t access = -1;
  ASSERT_DACE_OK(dace_state_add_access(&access, sdfg, state, "B"));
  const char* out = nullptr;
  EXPECT_DACE_ERROR(dace_map_propagate_memlet(&out, sdfg, state, access, "B[i]"), DACE_ERROR_INVALID_ARGUMENT,
                    "is not a map entry or exit");
  EXPECT_DACE_ERROR(dace_map_propagate_memlet(&out, sdfg, state, entry, "Z[i]"), DACE_ERROR_NOT_FOUND, "Z");
  EXPECT_DACE_ERROR(dace_map_propagate_memlet(&out, sdfg, state, entry, "B[i"), DACE_ERROR_PARSE, "");
  EXPECT_EQ(out, nullptr);  // nothing written on failure
}

}  // namespace
