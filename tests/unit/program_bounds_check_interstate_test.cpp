// Run-time bounds checks of array indices in code outside dataflow (compile option
// bounds_check): interstate-edge assignments (`v = A[K]`), interstate-edge conditions
// (`A[K] > 2`) and loop conditions (`A[i + K] > -100`) read array elements at indices that
// validation cannot bound. With the option the call returns DACE_ERROR_RUNTIME naming the
// edge or loop, the code, the array, the index and the extent, before the read; nothing is
// written outside the arrays (guard cells keep their values) and data the program has not
// reached stays as the caller left it. In range, the results are those of hand-written loops,
// with and without the option.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "capi_test_util.h"

namespace {

constexpr int64_t kN = 5;
constexpr size_t kGuard = 4;
constexpr double kGuardValue = -777.0;

struct Guarded {
  std::vector<double> buf = std::vector<double>(kN + 2 * kGuard, kGuardValue);
  double* data() { return buf.data() + kGuard; }
  bool untouched() const {
    for (double v : buf)
      if (v != kGuardValue) return false;
    return true;
  }
  bool guards_intact() const {
    for (size_t i = 0; i < kGuard; ++i)
      if (buf[i] != kGuardValue || buf[buf.size() - 1 - i] != kGuardValue) return false;
    return true;
  }
};

// A[i] = 1.5 i + 1: 1, 2.5, 4, 5.5, 7.
void fill(Guarded& a) {
  for (int64_t i = 0; i < kN; ++i) a.data()[i] = 1.5 * static_cast<double>(i) + 1;
}

std::string message() { return dace_last_error_message(); }

struct Program {
  dace_context_t* ctx = nullptr;
  dace_sdfg_t* sdfg = nullptr;
  dace_program_t* program = nullptr;
  ~Program() {
    dace_program_release(program);
    dace_sdfg_release(sdfg);
    dace_context_release(ctx);
  }
  dace_status_t compile(int bounds_check) {
    if (!ctx && dace_context_create(&ctx) != DACE_OK) return dace_last_error_status();
    dace_program_release(program);
    program = nullptr;
    dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
    o.opt_level = 1;
    o.bounds_check = bounds_check;
    return dace_program_compile(&program, ctx, sdfg, &o);
  }
  // A, B (kN doubles each) and the symbol K (N comes from the shapes).
  dace_status_t call(Guarded& a, Guarded& b, int64_t k) {
    int64_t shape[1] = {kN};
    const char* names[3] = {"A", "B", "K"};
    dace_arg_t args[3]{};
    args[0].kind = args[1].kind = DACE_ARG_ARRAY;
    args[0].value.array = {a.data(), DACE_FLOAT64, 1, shape, nullptr};
    args[1].value.array = {b.data(), DACE_FLOAT64, 1, shape, nullptr};
    args[2].kind = DACE_ARG_SYMBOL;
    args[2].value.i = k;
    return dace_program_call(program, names, args, 3);
  }
};

// Symbols N, K; arrays A[N], B[N].
dace_sdfg_t* make_sdfg(const char* name) {
  dace_sdfg_t* sdfg = nullptr;
  EXPECT_DACE_OK(dace_sdfg_create(&sdfg, name));
  EXPECT_DACE_OK(dace_sdfg_add_symbol(sdfg, "N", DACE_INT64));
  EXPECT_DACE_OK(dace_sdfg_add_symbol(sdfg, "K", DACE_INT64));
  EXPECT_DACE_OK(dace_sdfg_add_array(sdfg, "A", DACE_FLOAT64, "N", nullptr));
  EXPECT_DACE_OK(dace_sdfg_add_array(sdfg, "B", DACE_FLOAT64, "N", nullptr));
  return sdfg;
}

// A state in `parent` running `code` over `range` with the given memlets.
dace_id_t add_map_state(dace_sdfg_t* sdfg, dace_id_t parent, const char* label, const char* range, const char* in,
                        const char* code, const char* out) {
  dace_id_t state = -1;
  EXPECT_DACE_OK(dace_sdfg_add_state(&state, sdfg, parent, label));
  dace_mapped_tasklet_options_t o = DACE_MAPPED_TASKLET_OPTIONS_INIT;
  o.external_edges = 1;
  o.schedule = DACE_SCHEDULE_SEQUENTIAL;
  EXPECT_DACE_OK(dace_state_add_mapped_tasklet(nullptr, nullptr, nullptr, sdfg, state, label, range, in, code, out, &o));
  return state;
}

// s0 -> s1 assigning v = A[K]; s1: B[i] = v + a * 0 (a = A[i]) for i = 0:N.
TEST(ProgramBoundsCheckInterstate, AssignmentReadIsStoppedAndNamed) {
  Program p;
  p.sdfg = make_sdfg("interstate_read");
  dace_id_t s0 = -1, edge = -1;
  ASSERT_DACE_OK(dace_sdfg_add_state(&s0, p.sdfg, DACE_ROOT_REGION, "s0"));
  dace_id_t s1 = add_map_state(p.sdfg, DACE_ROOT_REGION, "s1", "i=0:N", "a: A[i]", "b = v + a * 0", "b: B[i]");
  ASSERT_DACE_OK(dace_sdfg_add_interstate_edge(&edge, nullptr, p.sdfg, s0, s1, nullptr, "v = A[K]"));
  ASSERT_EQ(dace_sdfg_validate(p.sdfg), DACE_OK) << message();
  for (int checked : {0, 1}) {
    SCOPED_TRACE("bounds_check = " + std::to_string(checked));
    ASSERT_DACE_OK(p.compile(checked));
    for (int64_t k : {0, 3, 4}) {
      Guarded a, b;
      fill(a);
      ASSERT_DACE_OK(p.call(a, b, k));
      for (int64_t i = 0; i < kN; ++i) EXPECT_EQ(b.data()[i], 1.5 * static_cast<double>(k) + 1) << k << " " << i;
      EXPECT_TRUE(b.guards_intact());
    }
  }
  // Checked (the last compile): K = 5 and K = -1 read outside A.
  for (int64_t k : {5, -1}) {
    SCOPED_TRACE("K = " + std::to_string(k));
    Guarded a, b;
    fill(a);
    EXPECT_DACE_ERROR(p.call(a, b, k), DACE_ERROR_RUNTIME, "(bounds check)");
    EXPECT_NE(message().find("interstate edge 0 (\"s0\" -> \"s1\") assignment \"v = A[K]\", array \"A\", index 0: index is " +
                             std::to_string(k) + ", outside 0..4"),
              std::string::npos)
        << message();
    EXPECT_TRUE(b.untouched()) << "s1 must not run";
    EXPECT_TRUE(a.guards_intact());
  }
  // Still callable.
  Guarded a, b;
  fill(a);
  ASSERT_DACE_OK(p.call(a, b, 1));
  EXPECT_EQ(b.data()[kN - 1], 2.5);
}

// s0 -> s1 if A[K] > 2 (B[i] = 1), s0 -> s2 if A[K] <= 2 (B[i] = 2).
TEST(ProgramBoundsCheckInterstate, ConditionReadIsStopped) {
  Program p;
  p.sdfg = make_sdfg("interstate_condition");
  dace_id_t s0 = -1, edge = -1;
  ASSERT_DACE_OK(dace_sdfg_add_state(&s0, p.sdfg, DACE_ROOT_REGION, "s0"));
  dace_id_t s1 = add_map_state(p.sdfg, DACE_ROOT_REGION, "s1", "i=0:N", "a: A[i]", "b = a * 0 + 1", "b: B[i]");
  dace_id_t s2 = add_map_state(p.sdfg, DACE_ROOT_REGION, "s2", "i=0:N", "a: A[i]", "b = a * 0 + 2", "b: B[i]");
  ASSERT_DACE_OK(dace_sdfg_add_interstate_edge(&edge, nullptr, p.sdfg, s0, s1, "A[K] > 2", nullptr));
  ASSERT_DACE_OK(dace_sdfg_add_interstate_edge(&edge, nullptr, p.sdfg, s0, s2, "A[K] <= 2", nullptr));
  ASSERT_EQ(dace_sdfg_validate(p.sdfg), DACE_OK) << message();
  for (int checked : {0, 1}) {
    SCOPED_TRACE("bounds_check = " + std::to_string(checked));
    ASSERT_DACE_OK(p.compile(checked));
    for (int64_t k = 0; k < kN; ++k) {
      Guarded a, b;
      fill(a);
      ASSERT_DACE_OK(p.call(a, b, k));
      const double expected = 1.5 * static_cast<double>(k) + 1 > 2 ? 1.0 : 2.0;
      for (int64_t i = 0; i < kN; ++i) EXPECT_EQ(b.data()[i], expected) << k << " " << i;
    }
  }
  Guarded a, b;
  fill(a);
  EXPECT_DACE_ERROR(p.call(a, b, 7), DACE_ERROR_RUNTIME,
                    "condition \"A[K] > 2\", array \"A\", index 0: index is 7, outside 0..4 (bounds check)");
  EXPECT_TRUE(b.untouched());
}

// for (i = 0; i < N and A[i + K] > -100; i = i + 1) B[i] = A[i].
TEST(ProgramBoundsCheckInterstate, LoopConditionReadIsStoppedAfterTheGoodIterations) {
  Program p;
  p.sdfg = make_sdfg("loop_condition");
  dace_id_t loop = -1;
  ASSERT_DACE_OK(dace_sdfg_add_loop(&loop, p.sdfg, DACE_ROOT_REGION, "l", "i", "i = 0", "i < N and A[i + K] > -100",
                                    "i = i + 1", 0));
  add_map_state(p.sdfg, loop, "body", "j=0:1", "a: A[i]", "b = a", "b: B[i]");
  ASSERT_EQ(dace_sdfg_validate(p.sdfg), DACE_OK) << message();
  ASSERT_DACE_OK(p.compile(1));
  {
    Guarded a, b;
    fill(a);
    ASSERT_DACE_OK(p.call(a, b, 0));
    for (int64_t i = 0; i < kN; ++i) EXPECT_EQ(b.data()[i], a.data()[i]) << i;
  }
  // K = 1: iterations 0..3 run; at i = 4 the condition reads A[5].
  Guarded a, b;
  fill(a);
  EXPECT_DACE_ERROR(p.call(a, b, 1), DACE_ERROR_RUNTIME, "index is 5, outside 0..4 (bounds check)");
  EXPECT_NE(message().find("loop condition \"i < N and A[i + K] > -100\", array \"A\""), std::string::npos) << message();
  for (int64_t i = 0; i + 1 < kN; ++i) EXPECT_EQ(b.data()[i], a.data()[i]) << i;
  EXPECT_EQ(b.data()[kN - 1], kGuardValue);
  EXPECT_TRUE(a.guards_intact() && b.guards_intact());
}

}  // namespace
