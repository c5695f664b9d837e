// The SDFG optimizer as a compile step (dace_compile_options_t.optimize): results against
// plain loops, the caller's SDFG left unchanged, errors naming the pass, and version-1
// option/stat structs still accepted.
#include <cstring>
#include <string>
#include <vector>

#include "capi_program_test_util.h"

namespace {

// Two states: T[i] = A[i] * 3 (T transient), then B[i] = T[i] + s; simplify fuses them.
dace_sdfg_t* make_two_state(const char* name) {
  dace_sdfg_t* sdfg = nullptr;
  EXPECT_DACE_OK(dace_sdfg_create(&sdfg, name));
  EXPECT_DACE_OK(dace_sdfg_add_symbol(sdfg, "N", DACE_INT64));
  EXPECT_DACE_OK(dace_sdfg_add_array(sdfg, "A", DACE_FLOAT64, "N", nullptr));
  EXPECT_DACE_OK(dace_sdfg_add_array(sdfg, "B", DACE_FLOAT64, "N", nullptr));
  EXPECT_DACE_OK(dace_sdfg_add_transient(sdfg, "T", DACE_FLOAT64, "N", nullptr));
  EXPECT_DACE_OK(dace_sdfg_add_scalar(sdfg, "s", DACE_FLOAT64, nullptr));
  dace_id_t s0 = -1, s1 = -1, edge = -1;
  EXPECT_DACE_OK(dace_sdfg_add_state(&s0, sdfg, DACE_ROOT_REGION, "s0"));
  EXPECT_DACE_OK(dace_sdfg_add_state(&s1, sdfg, DACE_ROOT_REGION, "s1"));
  EXPECT_DACE_OK(dace_sdfg_add_interstate_edge(&edge, nullptr, sdfg, s0, s1, nullptr, nullptr));
  dace_mapped_tasklet_options_t o = DACE_MAPPED_TASKLET_OPTIONS_INIT;
  o.external_edges = 1;
  EXPECT_DACE_OK(dace_state_add_mapped_tasklet(nullptr, nullptr, nullptr, sdfg, s0, "scale", "i=0:N", "a: A[i]",
                                               "t = a * 3", "t: T[i]", &o));
  EXPECT_DACE_OK(dace_state_add_mapped_tasklet(nullptr, nullptr, nullptr, sdfg, s1, "shift", "i=0:N",
                                               "t: T[i]; c: s[0]", "b = t + c", "b: B[i]", &o));
  return sdfg;
}

using capi_test::hash_of;

// Calls by name with A, B, s (N inferred from the shapes); checks B = 3 A + s against a
// plain loop.
void expect_three_a_plus_s(dace_program_t* p) {
  const int64_t n = 37;
  std::vector<double> a(n), b(n, -1.0);
  for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i)] = 0.5 * static_cast<double>(i) - 4;
  int64_t shape[1] = {n};
  const char* names[3] = {"A", "B", "s"};
  dace_arg_t args[3]{};
  args[0].kind = args[1].kind = DACE_ARG_ARRAY;
  args[0].value.array = {a.data(), DACE_FLOAT64, 1, shape, nullptr};
  args[1].value.array = {b.data(), DACE_FLOAT64, 1, shape, nullptr};
  args[2].kind = DACE_ARG_FLOAT;
  args[2].value.f = 0.25;
  ASSERT_DACE_OK(dace_program_call(p, names, args, 3));
  for (size_t i = 0; i < a.size(); ++i) ASSERT_DOUBLE_EQ(b[i], a[i] * 3 + 0.25) << i;
}

int32_t argument_count(dace_program_t* p) {
  int32_t n = -1;
  EXPECT_DACE_OK(dace_program_argument_count(&n, p));
  return n;
}

TEST(CApiCompileOptimize, SimplifyStepComputesTheSameAndLeavesTheCallersSdfg) {
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_sdfg_t* sdfg = make_two_state("two_state");
  const std::string before = hash_of(sdfg);

  dace_compile_options_t plain = DACE_COMPILE_OPTIONS_INIT;
  dace_program_t* p_plain = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&p_plain, ctx, sdfg, &plain));
  expect_three_a_plus_s(p_plain);

  dace_compile_options_t opt = DACE_COMPILE_OPTIONS_INIT;
  opt.optimize = "simplify";
  dace_program_t* p_opt = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&p_opt, ctx, sdfg, &opt));
  expect_three_a_plus_s(p_opt);
  EXPECT_EQ(hash_of(sdfg), before) << "the optimizer step changed the caller's SDFG";

  // A, B, N, s either way.
  EXPECT_EQ(argument_count(p_plain), 4);
  EXPECT_EQ(argument_count(p_opt), 4);

  dace_compile_stats_t st{};
  st.version = DACE_COMPILE_STATS_VERSION;
  ASSERT_DACE_OK(dace_program_compile_stats(&st, p_opt));
  EXPECT_GT(st.transform_ms, 0.0);
  ASSERT_DACE_OK(dace_program_compile_stats(&st, p_plain));
  EXPECT_EQ(st.transform_ms, 0.0);

  dace_program_release(p_opt);
  dace_program_release(p_plain);
  dace_sdfg_release(sdfg);
  dace_context_release(ctx);
}

TEST(CApiCompileOptimize, UnknownOrPatternNameIsAnErrorNamingIt) {
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_sdfg_t* sdfg = make_two_state("two_state");
  const std::string before = hash_of(sdfg);
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  dace_program_t* p = nullptr;

  o.optimize = "NoSuchPass";
  EXPECT_EQ(dace_program_compile(&p, ctx, sdfg, &o), DACE_ERROR_NOT_FOUND);
  EXPECT_EQ(p, nullptr);
  std::string msg = dace_last_error_message();
  EXPECT_NE(msg.find("NoSuchPass"), std::string::npos) << msg;
  EXPECT_NE(msg.find("simplify"), std::string::npos) << "the message lists the passes: " << msg;

  o.optimize = "MapFusion";  // a pattern transformation: it needs a location
  EXPECT_EQ(dace_program_compile(&p, ctx, sdfg, &o), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(p, nullptr);
  msg = dace_last_error_message();
  EXPECT_NE(msg.find("MapFusion"), std::string::npos) << msg;
  EXPECT_EQ(hash_of(sdfg), before);

  dace_sdfg_release(sdfg);
  dace_context_release(ctx);
}

TEST(CApiCompileOptimize, InvalidSdfgIsReportedBeforeTheOptimizerRuns) {
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_sdfg_t* sdfg = make_two_state("two_state");
  // An interstate edge reading an undefined symbol makes the SDFG invalid.
  dace_id_t s2 = -1, edge = -1;
  ASSERT_DACE_OK(dace_sdfg_add_state(&s2, sdfg, DACE_ROOT_REGION, "s2"));
  ASSERT_DACE_OK(dace_sdfg_add_interstate_edge(&edge, nullptr, sdfg, 1, s2, "undefined_q > 0", nullptr));
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  o.optimize = "simplify";
  dace_program_t* p = nullptr;
  EXPECT_EQ(dace_program_compile(&p, ctx, sdfg, &o), DACE_ERROR_INVALID_SDFG) << dace_last_error_message();
  EXPECT_EQ(p, nullptr);
  dace_sdfg_release(sdfg);
  dace_context_release(ctx);
}

// A caller built against version 1 of the structs: its options end before `optimize` (the
// bytes after are not read: here they hold a poison pointer) and its stats end before
// `transform_ms` (the bytes after are not written).
TEST(CApiCompileOptimize, VersionOneStructsIgnoreTheNewFields) {
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_sdfg_t* sdfg = make_two_state("two_state");
  dace_compile_options_t v1 = DACE_COMPILE_OPTIONS_INIT;
  ASSERT_DACE_OK(dace_compile_options_init(&v1, 1));
  EXPECT_EQ(v1.version, 1u);
  std::memset(static_cast<void*>(&v1.optimize), 0xA5, sizeof v1.optimize);
  dace_program_t* p = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &v1));
  expect_three_a_plus_s(p);
  dace_compile_stats_t v2{};
  v2.version = DACE_COMPILE_STATS_VERSION;
  ASSERT_DACE_OK(dace_program_compile_stats(&v2, p));
  EXPECT_EQ(v2.transform_ms, 0.0) << "a version-1 caller gets no optimizer step";

  dace_compile_stats_t st;
  std::memset(static_cast<void*>(&st), 0x5A, sizeof st);
  st.version = 1;
  ASSERT_DACE_OK(dace_program_compile_stats(&st, p));
  unsigned char poison[sizeof(double)];
  std::memset(poison, 0x5A, sizeof poison);
  EXPECT_EQ(std::memcmp(&st.transform_ms, poison, sizeof poison), 0) << "a version-1 stats struct was overrun";
  EXPECT_GE(st.total_ms, 0.0);

  dace_program_release(p);
  dace_sdfg_release(sdfg);
  dace_context_release(ctx);
}

}  // namespace
