// Run-time bounds checks (compile option bounds_check, issue 15 item 7): memlets whose
// subsets validation cannot prove out of bounds (symbols count as positive there, so a
// shift by K - 1 may be fine: a subset shifted by a symbol, a map range
// given by another symbol than the array's size) read or write outside the array without
// the option. With it, the call returns DACE_ERROR_RUNTIME naming the memlet and the
// offending index, and nothing outside the arrays is written: every array lives in a
// larger buffer whose guard cells before and after must keep their values. The references
// are hand-written: the guards' initial values, the index the shift makes (i = N-1 plus
// K - 1) and B = A for the in-bounds call (K = 1).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "capi_test_util.h"

namespace {

constexpr int64_t kN = 5;
constexpr size_t kGuard = 4;  // guard cells on each side of every array
constexpr double kGuardValue = -777.0;

// An array of kN doubles inside a guarded buffer.
struct Guarded {
  std::vector<double> buf = std::vector<double>(kN + 2 * kGuard, kGuardValue);
  double* data() { return buf.data() + kGuard; }
  bool guards_intact() const {
    for (size_t i = 0; i < kGuard; ++i)
      if (buf[i] != kGuardValue || buf[buf.size() - 1 - i] != kGuardValue) return false;
    return true;
  }
};

struct Program {
  dace_context_t* ctx = nullptr;
  dace_sdfg_t* sdfg = nullptr;
  dace_program_t* program = nullptr;
  ~Program() {
    dace_program_release(program);
    dace_sdfg_release(sdfg);
    dace_context_release(ctx);
  }
  dace_status_t compile(int bounds_check, uint32_t version = DACE_COMPILE_OPTIONS_VERSION, const char* cache = nullptr) {
    if (!ctx && dace_context_create(&ctx) != DACE_OK) return dace_last_error_status();
    dace_program_release(program);
    program = nullptr;
    dace_compile_options_t o{};
    if (dace_compile_options_init(&o, version) != DACE_OK) return dace_last_error_status();
    o.opt_level = 1;
    o.cache_dir = cache;
    if (version >= 5) o.bounds_check = bounds_check;
    return dace_program_compile(&program, ctx, sdfg, &o);
  }
  bool is_argument(const std::string& name) const {
    int32_t count = 0;
    if (dace_program_argument_count(&count, program) != DACE_OK) return false;
    for (int32_t i = 0; i < count; ++i) {
      const char* arg = nullptr;
      if (dace_program_argument_info(&arg, nullptr, nullptr, program, i) == DACE_OK && name == arg) return true;
    }
    return false;
  }
  // A and B (kN each), symbols by name (N inferred from the shapes).
  dace_status_t call(Guarded& a, Guarded& b, const std::vector<std::pair<const char*, int64_t>>& symbols) {
    int64_t shape[1] = {kN};
    std::vector<const char*> names = {"A", "B"};
    std::vector<dace_arg_t> args(2);
    args[0].kind = args[1].kind = DACE_ARG_ARRAY;
    args[0].value.array = {a.data(), DACE_FLOAT64, 1, shape, nullptr};
    args[1].value.array = {b.data(), DACE_FLOAT64, 1, shape, nullptr};
    for (const auto& [name, value] : symbols) {
      if (!is_argument(name)) continue;  // symbols the program does not use are no arguments
      names.push_back(name);
      dace_arg_t s{};
      s.kind = DACE_ARG_SYMBOL;
      s.value.i = value;
      args.push_back(s);
    }
    return dace_program_call(program, names.data(), args.data(), static_cast<int32_t>(args.size()));
  }
};

// B[i + K] = A[i] (out = "b: B[i + K - 1]") or B[i] = A[i + K] (in = "a: A[i + K - 1]") over
// i = 0:<range>, `schedule`, optionally with a WCR on the output.
dace_sdfg_t* make_map(const char* name, const char* range, const char* in, const char* out,
                      dace_schedule_t schedule = DACE_SCHEDULE_CPU_MULTICORE, const char* wcr = nullptr) {
  dace_sdfg_t* sdfg = nullptr;
  EXPECT_DACE_OK(dace_sdfg_create(&sdfg, name));
  EXPECT_DACE_OK(dace_sdfg_add_symbol(sdfg, "N", DACE_INT64));
  EXPECT_DACE_OK(dace_sdfg_add_symbol(sdfg, "K", DACE_INT64));
  EXPECT_DACE_OK(dace_sdfg_add_symbol(sdfg, "M", DACE_INT64));
  EXPECT_DACE_OK(dace_sdfg_add_array(sdfg, "A", DACE_FLOAT64, "N", nullptr));
  EXPECT_DACE_OK(dace_sdfg_add_array(sdfg, "B", DACE_FLOAT64, "N", nullptr));
  dace_id_t state = -1;
  EXPECT_DACE_OK(dace_sdfg_add_state(&state, sdfg, DACE_ROOT_REGION, "s0"));
  dace_mapped_tasklet_options_t o = DACE_MAPPED_TASKLET_OPTIONS_INIT;
  o.external_edges = 1;
  o.schedule = schedule;
  o.output_wcr = wcr;
  EXPECT_DACE_OK(dace_state_add_mapped_tasklet(nullptr, nullptr, nullptr, sdfg, state, "move", range, in, "b = a",
                                               out, &o));
  return sdfg;
}

std::string message() { return dace_last_error_message(); }

bool equal(Guarded& x, Guarded& y) {
  for (int64_t i = 0; i < kN; ++i)
    if (x.data()[i] != y.data()[i]) return false;
  return true;
}

void fill(Guarded& a) {
  for (int64_t i = 0; i < kN; ++i) a.data()[i] = 1.5 * static_cast<double>(i) + 1;
}

TEST(ProgramBoundsCheck, ShiftedWriteIsStoppedAndNamed) {
  Program p;
  p.sdfg = make_map("shifted_write", "i=0:N", "a: A[i]", "b: B[i + K - 1]");
  ASSERT_EQ(dace_sdfg_validate(p.sdfg), DACE_OK) << "validation cannot prove the shift out of bounds";

  // Without the option the shifted write lands in the guard cell after B (as in DaCe).
  ASSERT_DACE_OK(p.compile(0));
  {
    Guarded a, b;
    fill(a);
    ASSERT_DACE_OK(p.call(a, b, {{"K", 2}, {"M", 0}}));
    EXPECT_FALSE(b.guards_intact()) << "the unchecked program should have written past B";
  }
  ASSERT_DACE_OK(p.compile(1));
  for (int64_t k : {2, 0}) {
    SCOPED_TRACE("K = " + std::to_string(k));
    Guarded a, b;
    fill(a);
    EXPECT_DACE_ERROR(p.call(a, b, {{"K", k}, {"M", 0}}), DACE_ERROR_RUNTIME, "bounds check");
    // i = N-1 gives N for K = 2; i = 0 gives -1 for K = 0.
    const std::string index = k > 1 ? "is 5, outside 0..4" : "is -1, outside 0..4";
    EXPECT_NE(message().find(index), std::string::npos) << message();
    EXPECT_NE(message().find("memlet \"B["), std::string::npos) << message();
    EXPECT_NE(message().find("state \"s0\""), std::string::npos) << message();
    EXPECT_NE(message().find("dimension 0 of \"B\""), std::string::npos) << message();
    EXPECT_TRUE(a.guards_intact() && b.guards_intact());
  }
  // The program stays callable; an in-bounds call is right.
  Guarded a, b;
  fill(a);
  ASSERT_DACE_OK(p.call(a, b, {{"K", 1}, {"M", 0}}));
  EXPECT_TRUE(equal(a, b));
}

TEST(ProgramBoundsCheck, ShiftedReadIsStopped) {
  Program p;
  p.sdfg = make_map("shifted_read", "i=0:N", "a: A[i + K - 1]", "b: B[i]");
  ASSERT_DACE_OK(p.compile(1));
  Guarded a, b;
  fill(a);
  EXPECT_DACE_ERROR(p.call(a, b, {{"K", 2}, {"M", 0}}), DACE_ERROR_RUNTIME, "of \"A\"");
  EXPECT_NE(message().find("is 5, outside 0..4"), std::string::npos) << message();
  EXPECT_TRUE(b.guards_intact());
}

TEST(ProgramBoundsCheck, MapRangePastTheArrayIsStopped) {
  Program p;
  // Sequential, so that the first failing iteration (i = N) names the index.
  p.sdfg = make_map("long_map", "i=0:M", "a: A[i]", "b: B[i]", DACE_SCHEDULE_SEQUENTIAL);
  ASSERT_EQ(dace_sdfg_validate(p.sdfg), DACE_OK);
  ASSERT_DACE_OK(p.compile(1));
  Guarded a, b;
  fill(a);
  EXPECT_DACE_ERROR(p.call(a, b, {{"K", 0}, {"M", kN + 3}}), DACE_ERROR_RUNTIME, "is 5, outside 0..4");
  EXPECT_TRUE(a.guards_intact() && b.guards_intact());
  // The iterations before the bad one ran: B[0:N] = A.
  EXPECT_TRUE(equal(a, b));
  Guarded c, d;
  fill(c);
  ASSERT_DACE_OK(p.call(c, d, {{"K", 0}, {"M", kN}}));
  EXPECT_TRUE(equal(c, d));
}

TEST(ProgramBoundsCheck, WcrWriteIsStopped) {
  Program p;
  p.sdfg = make_map("wcr_write", "i=0:N", "a: A[i]", "b: B[i + K - 1]", DACE_SCHEDULE_CPU_MULTICORE, "sum");
  ASSERT_DACE_OK(p.compile(1));
  Guarded a, b;
  fill(a);
  EXPECT_DACE_ERROR(p.call(a, b, {{"K", 2}, {"M", 0}}), DACE_ERROR_RUNTIME, "is 5, outside 0..4");
  EXPECT_TRUE(b.guards_intact());
}

TEST(ProgramBoundsCheck, CopyBetweenAccessNodesIsStopped) {
  Program p;
  ASSERT_DACE_OK(dace_sdfg_create(&p.sdfg, "shifted_copy"));
  dace_sdfg_t* g = p.sdfg;
  ASSERT_DACE_OK(dace_sdfg_add_symbol(g, "N", DACE_INT64));
  ASSERT_DACE_OK(dace_sdfg_add_symbol(g, "K", DACE_INT64));
  ASSERT_DACE_OK(dace_sdfg_add_symbol(g, "M", DACE_INT64));
  ASSERT_DACE_OK(dace_sdfg_add_array(g, "A", DACE_FLOAT64, "N", nullptr));
  ASSERT_DACE_OK(dace_sdfg_add_array(g, "B", DACE_FLOAT64, "N", nullptr));
  dace_id_t state = -1, a = -1, b = -1;
  ASSERT_DACE_OK(dace_sdfg_add_state(&state, g, DACE_ROOT_REGION, "copy"));
  ASSERT_DACE_OK(dace_state_add_access(&a, g, state, "A"));
  ASSERT_DACE_OK(dace_state_add_access(&b, g, state, "B"));
  // B[M:M + N - K] = A[K:N]: the destination side is the other subset.
  dace_id_t edge = -1;
  ASSERT_DACE_OK(dace_state_add_edge(&edge, g, state, a, nullptr, b, nullptr, "A[K:N] -> [M:M + N - K]", nullptr));
  ASSERT_DACE_OK(p.compile(1));
  {
    Guarded x, y;
    fill(x);
    ASSERT_DACE_OK(p.call(x, y, {{"K", 2}, {"M", 0}}));
    for (int64_t i = 0; i + 2 < kN; ++i) EXPECT_EQ(y.data()[i], x.data()[i + 2]);
  }
  Guarded x, y;
  fill(x);
  // K = 1, M = 2: the source A[1:5] is fine, the destination B[2:6] ends at index 5.
  EXPECT_DACE_ERROR(p.call(x, y, {{"K", 1}, {"M", 2}}), DACE_ERROR_RUNTIME, "other subset");
  EXPECT_NE(message().find("is 5, outside 0..4"), std::string::npos) << message();
  EXPECT_NE(message().find("of \"B\""), std::string::npos) << message();
  EXPECT_TRUE(y.guards_intact());
  // A negative start on the source side.
  EXPECT_DACE_ERROR(p.call(x, y, {{"K", -1}, {"M", 0}}), DACE_ERROR_RUNTIME, "is -1, outside 0..4");
  EXPECT_NE(message().find("of \"A\""), std::string::npos) << message();
  EXPECT_TRUE(y.guards_intact());
}

// Version-4 callers (no bounds_check field) compile as before: no checks.
// Indices computed by tasklet code on an array connector (`b = a[j]` with the memlet
// "a: A[0:N]"): the memlet is in bounds, the element the code picks may not be. Sequential,
// so that the first failing iteration names the index.
dace_sdfg_t* make_indexing_map(const char* name, const char* in, const char* out, const char* code) {
  dace_sdfg_t* sdfg = nullptr;
  EXPECT_DACE_OK(dace_sdfg_create(&sdfg, name));
  for (const char* s : {"N", "K", "M"}) EXPECT_DACE_OK(dace_sdfg_add_symbol(sdfg, s, DACE_INT64));
  EXPECT_DACE_OK(dace_sdfg_add_array(sdfg, "A", DACE_FLOAT64, "N", nullptr));
  EXPECT_DACE_OK(dace_sdfg_add_array(sdfg, "B", DACE_FLOAT64, "N", nullptr));
  dace_id_t state = -1;
  EXPECT_DACE_OK(dace_sdfg_add_state(&state, sdfg, DACE_ROOT_REGION, "s0"));
  dace_mapped_tasklet_options_t o = DACE_MAPPED_TASKLET_OPTIONS_INIT;
  o.external_edges = 1;
  o.schedule = DACE_SCHEDULE_SEQUENTIAL;
  EXPECT_DACE_OK(dace_state_add_mapped_tasklet(nullptr, nullptr, nullptr, sdfg, state, "pick", "i=0:N", in, code, out, &o));
  return sdfg;
}

TEST(ProgramBoundsCheck, TaskletComputedReadIndexIsStoppedAndNamed) {
  Program p;
  p.sdfg = make_indexing_map("computed_read", "a: A[0:N]", "b: B[i]", "j = i + K - 1\nb = a[j]");
  ASSERT_EQ(dace_sdfg_validate(p.sdfg), DACE_OK) << "the memlet itself is in bounds";
  ASSERT_DACE_OK(p.compile(1));
  for (int64_t k : {2, 0}) {
    SCOPED_TRACE("K = " + std::to_string(k));
    Guarded a, b;
    fill(a);
    EXPECT_DACE_ERROR(p.call(a, b, {{"K", k}, {"M", 0}}), DACE_ERROR_RUNTIME, "bounds check");
    // K = 2: i = N-1 reads index N; K = 0: i = 0 reads index -1.
    const std::string index = k > 1 ? "is 5, outside 0..4" : "is -1, outside 0..4";
    EXPECT_NE(message().find(index), std::string::npos) << message();
    EXPECT_NE(message().find("connector \"a\""), std::string::npos) << message();
    EXPECT_NE(message().find("memlet \"A[0:N"), std::string::npos) << message();
    EXPECT_NE(message().find("state \"s0\""), std::string::npos) << message();
    EXPECT_TRUE(a.guards_intact() && b.guards_intact());
    // K = 2: the iterations before the bad one ran, B[i] = A[i + 1].
    if (k == 2) {
      for (int64_t i = 0; i + 1 < kN; ++i) EXPECT_EQ(b.data()[i], a.data()[i + 1]) << i;
    }
  }
  // In bounds (K = 1): B = A, and the program stays callable after the failures.
  Guarded a, b;
  fill(a);
  ASSERT_DACE_OK(p.call(a, b, {{"K", 1}, {"M", 0}}));
  EXPECT_TRUE(equal(a, b));
}

TEST(ProgramBoundsCheck, TaskletComputedWriteIndexIsStopped) {
  Program p;
  p.sdfg = make_indexing_map("computed_write", "a: A[i]", "b: B[0:N]", "b[i + K - 1] = a");
  ASSERT_EQ(dace_sdfg_validate(p.sdfg), DACE_OK);
  // Without the option the write at index N lands in the guard cell after B.
  ASSERT_DACE_OK(p.compile(0));
  {
    Guarded a, b;
    fill(a);
    ASSERT_DACE_OK(p.call(a, b, {{"K", 2}, {"M", 0}}));
    EXPECT_FALSE(b.guards_intact()) << "the unchecked program should have written past B";
  }
  ASSERT_DACE_OK(p.compile(1));
  Guarded a, b;
  fill(a);
  EXPECT_DACE_ERROR(p.call(a, b, {{"K", 2}, {"M", 0}}), DACE_ERROR_RUNTIME, "is 5, outside 0..4");
  EXPECT_NE(message().find("connector \"b\""), std::string::npos) << message();
  EXPECT_TRUE(a.guards_intact() && b.guards_intact());
  Guarded c, d;
  fill(c);
  ASSERT_DACE_OK(p.call(c, d, {{"K", 1}, {"M", 0}}));
  EXPECT_TRUE(equal(c, d));
}

TEST(ProgramBoundsCheck, Version4OptionsHaveNoChecks) {
  dace_compile_options_t v4{};
  v4.bounds_check = 7;
  ASSERT_DACE_OK(dace_compile_options_init(&v4, 4));
  EXPECT_EQ(v4.bounds_check, 7) << "version 4 init must not write the version 5 field";
  dace_compile_options_t v5 = DACE_COMPILE_OPTIONS_INIT;
  EXPECT_EQ(v5.bounds_check, 0);
  Program p;
  p.sdfg = make_map("v4_caller", "i=0:N", "a: A[i]", "b: B[i + K - 1]");
  ASSERT_DACE_OK(p.compile(1, 4));
  Guarded a, b;
  fill(a);
  ASSERT_DACE_OK(p.call(a, b, {{"K", 2}, {"M", 0}}));
  EXPECT_FALSE(b.guards_intact());
}

// The option is part of the cache key: a checked compile never loads the unchecked object.
TEST(ProgramBoundsCheck, OptionIsPartOfTheCacheKey) {
  const std::string dir = ::testing::TempDir() + "/bounds_check_cache_" + std::to_string(::getpid());
  Program p;
  p.sdfg = make_map("cached_shift", "i=0:N", "a: A[i]", "b: B[i + K - 1]");
  ASSERT_DACE_OK(p.compile(0, DACE_COMPILE_OPTIONS_VERSION, dir.c_str()));
  ASSERT_DACE_OK(p.compile(1, DACE_COMPILE_OPTIONS_VERSION, dir.c_str()));
  dace_compile_stats_t stats{};
  stats.version = DACE_COMPILE_STATS_VERSION;
  ASSERT_DACE_OK(dace_program_compile_stats(&stats, p.program));
  EXPECT_EQ(stats.cache_hit, 0);
  Guarded a, b;
  fill(a);
  EXPECT_DACE_ERROR(p.call(a, b, {{"K", 2}, {"M", 0}}), DACE_ERROR_RUNTIME, "bounds check");
  // The same options again hit the cache, checks included.
  ASSERT_DACE_OK(p.compile(1, DACE_COMPILE_OPTIONS_VERSION, dir.c_str()));
  ASSERT_DACE_OK(dace_program_compile_stats(&stats, p.program));
  EXPECT_EQ(stats.cache_hit, 1);
  Guarded c, d;
  fill(c);
  EXPECT_DACE_ERROR(p.call(c, d, {{"K", 2}, {"M", 0}}), DACE_ERROR_RUNTIME, "bounds check");
  EXPECT_TRUE(d.guards_intact());
}

}  // namespace
