// Programs and threads: concurrent compiles in one context, concurrent calls, and release
// unloading the code (compile/release cycles bring the JIT's module count back to zero; RSS over
// 1,000 cycles is measured by bench/bench_memory).

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "builder/api_internal.h"
#include "capi_program_test_util.h"
#include "jit/session.h"

namespace {

namespace fs = std::filesystem;
using capi_test::call_axpb;
using capi_test::make_axpb;

// One call with n elements; true when B matches the plain loop. Thread-safe (no gtest
// assertions: those are collected by the caller on the main thread).
bool call_and_check(dace_program_t* p, double factor, int64_t n, double s) {
  std::vector<double> a(static_cast<size_t>(n)), b(static_cast<size_t>(n), -1.0);
  for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i)] = 0.5 * static_cast<double>(i % 17) - 3;
  if (call_axpb(p, a, b, s) != DACE_OK) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (b[i] != a[i] * factor + s) return false;
  return true;
}

size_t live_modules(dace_context_t* ctx) {
  std::lock_guard<std::mutex> lock(ctx->jit_mutex);
  return ctx->session ? ctx->session->live_modules() : 0;
}

TEST(CApiProgramThreads, FourThreadsCompileInOneContext) {
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  // Two threads compile the same SDFG, two others their own ones.
  dace_sdfg_t* shared = make_axpb("shared", "2");
  dace_sdfg_t* three = make_axpb("three", "3");
  dace_sdfg_t* four = make_axpb("four", "4");
  struct Job {
    dace_sdfg_t* sdfg = nullptr;
    double factor = 0;
    dace_program_t* program = nullptr;
    dace_status_t status = DACE_OK;
    std::string error;
    bool ok = false;
  };
  std::vector<Job> jobs(4);
  jobs[0].sdfg = jobs[1].sdfg = shared;
  jobs[0].factor = jobs[1].factor = 2;
  jobs[2].sdfg = three;
  jobs[2].factor = 3;
  jobs[3].sdfg = four;
  jobs[3].factor = 4;
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (Job& job : jobs) {
    threads.emplace_back([&job, &ready, ctx] {
      ready++;
      while (ready.load() < 4) std::this_thread::yield();
      dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
      o.opt_level = 1;
      o.wait_optimized = 1;  // one module per program when counted below, not two mid-swap
      job.status = dace_program_compile(&job.program, ctx, job.sdfg, &o);
      if (job.status != DACE_OK) job.error = dace_last_error_message();
      if (job.program) job.ok = call_and_check(job.program, job.factor, 1000, 0.25);
    });
  }
  for (auto& t : threads) t.join();
  for (const Job& job : jobs) {
    EXPECT_EQ(job.status, DACE_OK) << job.error;
    EXPECT_TRUE(job.ok) << "factor " << job.factor;
  }
  EXPECT_EQ(live_modules(ctx), 4u);
  for (Job& job : jobs) dace_program_release(job.program);
  EXPECT_EQ(live_modules(ctx), 0u);
  dace_sdfg_release(four);
  dace_sdfg_release(three);
  dace_sdfg_release(shared);
  dace_context_release(ctx);
}

TEST(CApiProgramThreads, CallsFromSeveralThreads) {
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  o.opt_level = 1;
  o.num_threads = 1;  // the threads here bring the parallelism
  std::vector<dace_sdfg_t*> sdfgs;
  std::vector<dace_program_t*> programs;
  const char* factors[] = {"1", "2", "3", "4"};
  for (int k = 0; k < 4; ++k) {
    std::string name = "p" + std::to_string(k);
    sdfgs.push_back(make_axpb(name.c_str(), factors[k]));
    programs.push_back(nullptr);
    ASSERT_DACE_OK(dace_program_compile(&programs.back(), ctx, sdfgs.back(), &o));
  }
  // Distinct programs: one thread each. Then all threads on one program (serialized calls,
  // each with its own size, so the program re-initializes between them).
  for (bool same : {false, true}) {
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int k = 0; k < 4; ++k) {
      threads.emplace_back([&, k] {
        dace_program_t* p = programs[same ? 0 : static_cast<size_t>(k)];
        double factor = same ? 1 : k + 1;
        for (int round = 0; round < 40; ++round)
          if (!call_and_check(p, factor, 50 + 13 * k + round % 3, 0.125 * round)) failures++;
      });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(failures.load(), 0) << (same ? "one program" : "distinct programs");
  }
  for (auto* p : programs) dace_program_release(p);
  for (auto* s : sdfgs) dace_sdfg_release(s);
  dace_context_release(ctx);
}

TEST(CApiProgramThreads, ReleaseUnloadsTheCode) {
  const std::string dir =
      (fs::temp_directory_path() / ("libdace_capi_threads_" + std::to_string(::getpid()))).string();
  fs::remove_all(dir);
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_sdfg_t* sdfg = make_axpb("cycle", "2");
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  o.opt_level = 0;
  // Full compiles first (no cache), then cached loads: both must unload on release.
  for (int i = 0; i < 10; ++i) {
    dace_program_t* p = nullptr;
    ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &o));
    EXPECT_EQ(live_modules(ctx), 1u);
    dace_program_release(p);
    ASSERT_EQ(live_modules(ctx), 0u);
  }
  dace_context_release(ctx);

  ASSERT_DACE_OK(dace_context_create(&ctx));
  o.cache_dir = dir.c_str();
  const int cycles = 300;
  for (int i = 0; i < cycles; ++i) {
    dace_program_t* p = nullptr;
    ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &o));
    if (i % 50 == 0) {
      ASSERT_TRUE(call_and_check(p, 2, 64, 1.5));
    }
    ASSERT_EQ(live_modules(ctx), 1u);
    dace_program_release(p);
    ASSERT_EQ(live_modules(ctx), 0u);
  }
  dace_sdfg_release(sdfg);
  dace_context_release(ctx);
  fs::remove_all(dir);
}

}  // namespace
