// The "axpb" program shared by the C API program tests (cache, threads): building its SDFG
// and calling it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "capi_test_util.h"

namespace capi_test {

// B[i] = A[i] * <factor> + s over a parallel map i=0:N; arguments A, B, N, s.
inline dace_sdfg_t* make_axpb(const char* name, const char* factor = "2") {
  dace_sdfg_t* sdfg = nullptr;
  EXPECT_DACE_OK(dace_sdfg_create(&sdfg, name));
  EXPECT_DACE_OK(dace_sdfg_add_symbol(sdfg, "N", DACE_INT64));
  EXPECT_DACE_OK(dace_sdfg_add_array(sdfg, "A", DACE_FLOAT64, "N", nullptr));
  EXPECT_DACE_OK(dace_sdfg_add_array(sdfg, "B", DACE_FLOAT64, "N", nullptr));
  EXPECT_DACE_OK(dace_sdfg_add_scalar(sdfg, "s", DACE_FLOAT64, nullptr));
  dace_id_t state = -1;
  EXPECT_DACE_OK(dace_sdfg_add_state(&state, sdfg, DACE_ROOT_REGION, "s0"));
  dace_mapped_tasklet_options_t o = DACE_MAPPED_TASKLET_OPTIONS_INIT;
  o.external_edges = 1;
  o.schedule = DACE_SCHEDULE_CPU_MULTICORE;
  std::string code = std::string("b = a * ") + factor + " + c";
  EXPECT_DACE_OK(dace_state_add_mapped_tasklet(nullptr, nullptr, nullptr, sdfg, state, "axpb", "i=0:N",
                                               "a: A[i]; c: s[0]", code.c_str(), "b: B[i]", &o));
  return sdfg;
}

// One call of an axpb program with arrays `a` and `b` (same size) and scalar `s`. No gtest
// assertions, so that worker threads may call it.
inline dace_status_t call_axpb(dace_program_t* p, std::vector<double>& a, std::vector<double>& b, double s) {
  int64_t shape[1] = {static_cast<int64_t>(a.size())};
  dace_arg_t args[3]{};
  args[0].kind = args[1].kind = DACE_ARG_ARRAY;
  args[0].value.array = {a.data(), DACE_FLOAT64, 1, shape, nullptr};
  args[1].value.array = {b.data(), DACE_FLOAT64, 1, shape, nullptr};
  args[2].kind = DACE_ARG_FLOAT;
  args[2].value.f = s;
  return dace_program_call(p, nullptr, args, 3);
}

}  // namespace capi_test
