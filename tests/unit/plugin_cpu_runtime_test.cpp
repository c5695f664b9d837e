// The CPU plugin's runtime, reached the way JIT'd code reaches it: by loading the plugin
// and looking its functions up in the registry's runtime-symbol table.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <limits>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>
#include <vector>

#include <dlfcn.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plugin/loader.h"
#include "plugin_test_support.h"
#include "process_memory_support.h"

namespace dace::plugin {
namespace {

using RangeFn = void (*)(void*, int64_t, int64_t);
using BoxFn = void (*)(void*, const int64_t*, const int64_t*);
using ParallelFor = void (*)(RangeFn, void*, int64_t, int64_t, int64_t, int32_t, int32_t);
using ParallelForNd = int32_t (*)(BoxFn, void*, int32_t, const int64_t*, const int64_t*, int64_t,
                                  int32_t, int32_t);

constexpr int32_t kStatic = 0, kDynamic = 1, kGuided = 2;

struct Runtime {
  ParallelFor parallel_for = nullptr;
  ParallelForNd parallel_for_nd = nullptr;
  int32_t (*num_threads)() = nullptr;
  void (*set_num_threads)(int32_t) = nullptr;
  int32_t (*thread_num)() = nullptr;
  int32_t (*vendor_threads_begin)(int64_t, int32_t) = nullptr;
  void (*vendor_threads_end)(int32_t) = nullptr;
  double (*add_f64)(double*, double) = nullptr;
  float (*add_f32)(float*, float) = nullptr;
  int64_t (*add_i64)(int64_t*, int64_t) = nullptr;
  int32_t (*add_i32)(int32_t*, int32_t) = nullptr;
  double (*min_f64)(double*, double) = nullptr;
  double (*max_f64)(double*, double) = nullptr;
  int64_t (*min_i64)(int64_t*, int64_t) = nullptr;
  int32_t (*max_i32)(int32_t*, int32_t) = nullptr;
};

template <class Fn>
void bind(const Registry& r, const char* name, Fn& out) {
  out = reinterpret_cast<Fn>(r.find_runtime_symbol(name));
}

// Loaded once per process (plugins are never unloaded anyway).
const Runtime* runtime(std::string* why) {
  static Registry registry;
  static Runtime rt;
  static std::string error;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string path = testing::cpu_plugin_path();
    if (!testing::file_exists(path)) {
      error = "CPU plugin not built (looked for " + path + ")";
      return;
    }
    Result<PluginInfo> info = load_plugin(registry, path);
    if (!info.ok()) {
      error = info.error().message;
      return;
    }
    bind(registry, "dace_cpu_parallel_for", rt.parallel_for);
    bind(registry, "dace_cpu_parallel_for_nd", rt.parallel_for_nd);
    bind(registry, "dace_cpu_num_threads", rt.num_threads);
    bind(registry, "dace_cpu_set_num_threads", rt.set_num_threads);
    bind(registry, "dace_cpu_thread_num", rt.thread_num);
    bind(registry, "dace_cpu_vendor_threads_begin", rt.vendor_threads_begin);
    bind(registry, "dace_cpu_vendor_threads_end", rt.vendor_threads_end);
    bind(registry, "dace_cpu_atomic_add_f64", rt.add_f64);
    bind(registry, "dace_cpu_atomic_add_f32", rt.add_f32);
    bind(registry, "dace_cpu_atomic_add_i64", rt.add_i64);
    bind(registry, "dace_cpu_atomic_add_i32", rt.add_i32);
    bind(registry, "dace_cpu_atomic_min_f64", rt.min_f64);
    bind(registry, "dace_cpu_atomic_max_f64", rt.max_f64);
    bind(registry, "dace_cpu_atomic_min_i64", rt.min_i64);
    bind(registry, "dace_cpu_atomic_max_i32", rt.max_i32);
  });
  if (why != nullptr) *why = error;
  return error.empty() ? &rt : nullptr;
}

#define DACE_REQUIRE_CPU_RUNTIME(rt)             \
  std::string why_;                              \
  const Runtime* rt = runtime(&why_);            \
  if (rt == nullptr) {                           \
    if (why_.find("not built") != std::string::npos) GTEST_SKIP() << why_; \
    FAIL() << why_;                              \
  }

// One call of the body: its range and the thread that ran it.
struct Call {
  int64_t begin, end;
  int32_t thread;
  bool operator<(const Call& o) const { return std::tie(begin, end) < std::tie(o.begin, o.end); }
};

struct Recorder {
  const Runtime* rt;
  int64_t base = 0;
  std::vector<std::atomic<int>> hits;
  std::mutex mutex;
  std::vector<Call> calls;
  bool count_indices = true;
  Recorder(const Runtime* r, int64_t b, size_t n) : rt(r), base(b), hits(n) {}

  static void body(void* self, int64_t begin, int64_t end) {
    auto* rec = static_cast<Recorder*>(self);
    if (rec->count_indices)
      for (int64_t i = begin; i < end; ++i) rec->hits[static_cast<size_t>(i - rec->base)]++;
    std::lock_guard<std::mutex> lock(rec->mutex);
    rec->calls.push_back({begin, end, rec->rt->thread_num()});
  }
  std::vector<Call> sorted_calls() {
    std::vector<Call> out = calls;
    std::sort(out.begin(), out.end());
    return out;
  }
};

TEST(PluginCpuRuntime, PluginRegistersRuntimeAndVendorLibraries) {
  std::string path = testing::cpu_plugin_path();
  if (!testing::file_exists(path)) GTEST_SKIP() << "CPU plugin not built: " << path;
  Registry r;
  Result<PluginInfo> info = load_plugin(r, path);
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->name, "cpu");
  for (const char* name :
       {"dace_cpu_parallel_for", "dace_cpu_parallel_for_nd", "dace_cpu_num_threads",
        "dace_cpu_set_num_threads", "dace_cpu_thread_num", "dace_cpu_atomic_add_f64",
        "dace_cpu_atomic_add_f32", "dace_cpu_atomic_add_i64", "dace_cpu_atomic_add_i32",
        "dace_cpu_atomic_min_f64", "dace_cpu_atomic_min_f32", "dace_cpu_atomic_min_i64",
        "dace_cpu_atomic_min_i32", "dace_cpu_atomic_max_f64", "dace_cpu_atomic_max_f32",
        "dace_cpu_atomic_max_i64", "dace_cpu_atomic_max_i32", "dace_cpu_vendor_threads_begin",
        "dace_cpu_vendor_threads_end"})
    EXPECT_NE(r.find_runtime_symbol(name), nullptr) << name;
  EXPECT_EQ(r.runtime_symbols().size(), 19u);
  EXPECT_TRUE(r.vendor_library_available("libomp.so.5"));
  std::vector<VendorLibrary> libs = r.vendor_libraries();
  ASSERT_EQ(libs.size(), 3u);  // by name
  EXPECT_EQ(libs[0].name, "liblapacke.so.3");
  EXPECT_FALSE(libs[0].required);  // optional: availability recorded, no failure
  EXPECT_EQ(libs[1].name, "libomp.so.5");
  EXPECT_TRUE(libs[1].required);
  EXPECT_EQ(libs[2].name, "libopenblas.so.0");
  EXPECT_FALSE(libs[2].required);
}

TEST(PluginCpuRuntime, EveryIndexExactlyOnce) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  const std::vector<std::pair<int64_t, int64_t>> ranges = {
      {0, 0}, {5, 5}, {5, 3}, {0, 1}, {-7, 10}, {3, 1000}, {-1, 1}};
  for (int32_t schedule : {kStatic, kDynamic, kGuided, 17 /* unknown: static */})
    for (int32_t threads : {1, 2})
      for (int64_t chunk : {0, 1, 3, 7, 5000})
        for (auto [begin, end] : ranges) {
          size_t n = end > begin ? static_cast<size_t>(end - begin) : 0;
          Recorder rec(rt, begin, n);
          rt->parallel_for(&Recorder::body, &rec, begin, end, chunk, schedule, threads);
          for (size_t i = 0; i < n; ++i)
            ASSERT_EQ(rec.hits[i].load(), 1)
                << "index " << begin + static_cast<int64_t>(i) << " schedule " << schedule
                << " threads " << threads << " chunk " << chunk;
          if (n == 0) {
            EXPECT_TRUE(rec.calls.empty());
          }
          for (const Call& c : rec.calls) {
            EXPECT_LT(c.begin, c.end);
            EXPECT_LE(begin, c.begin);
            EXPECT_LE(c.end, end);
          }
        }
}

// Records calls like Recorder; the caller's (member 0's) first call waits, bounded, until
// `helper_calls` calls ran on other members, so the helper is known to be running and the
// static assignment can be observed. A member that finds its own pieces done takes over
// pieces nobody has claimed, so without the wait a late helper may run nothing at all.
struct OwnerProbe : Recorder {
  size_t helper_calls;
  std::atomic<size_t> others{0};
  std::atomic<bool> first_seen{false};
  std::atomic<bool> timed_out{false};
  OwnerProbe(const Runtime* r, int64_t b, size_t n, size_t h) : Recorder(r, b, n), helper_calls(h) {}
  static void body(void* self, int64_t begin, int64_t end) {
    auto* p = static_cast<OwnerProbe*>(self);
    if (p->rt->thread_num() != 0) {
      Recorder::body(self, begin, end);
      p->others++;
      return;
    }
    if (!p->first_seen.exchange(true)) {
      auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      while (p->others.load() < p->helper_calls) {
        if (std::chrono::steady_clock::now() > deadline) {
          p->timed_out = true;
          break;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
    }
    Recorder::body(self, begin, end);
  }
};

TEST(PluginCpuRuntime, StaticBlocksRunOnTwoThreads) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  OwnerProbe rec(rt, -7, 17, 1);
  rt->parallel_for(&OwnerProbe::body, &rec, -7, 10, 0, kStatic, 2);
  EXPECT_FALSE(rec.timed_out.load());
  // 17 indices on 2 threads: blocks of 9 and 8, thread 0 first.
  std::vector<Call> calls = rec.sorted_calls();
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].begin, -7);
  EXPECT_EQ(calls[0].end, 2);
  EXPECT_EQ(calls[0].thread, 0);
  EXPECT_EQ(calls[1].begin, 2);
  EXPECT_EQ(calls[1].end, 10);
  EXPECT_EQ(calls[1].thread, 1);
}

TEST(PluginCpuRuntime, StaticChunksAreRoundRobin) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  OwnerProbe rec(rt, 0, 17, 3);  // thread 1 owns 3-6, 9-12, 15-17
  rt->parallel_for(&OwnerProbe::body, &rec, 0, 17, 3, kStatic, 2);
  EXPECT_FALSE(rec.timed_out.load());
  std::vector<Call> calls = rec.sorted_calls();
  ASSERT_EQ(calls.size(), 6u);  // 0-3 3-6 6-9 9-12 12-15 15-17
  for (size_t k = 0; k < calls.size(); ++k) {
    EXPECT_EQ(calls[k].begin, static_cast<int64_t>(3 * k));
    EXPECT_EQ(calls[k].end, std::min<int64_t>(17, static_cast<int64_t>(3 * k + 3)));
    // Thread 1 ran its own chunks, in order, while thread 0 was held in its first one;
    // after them it may have taken over 6-9 and 12-15, which thread 0 had not yet claimed.
    if (k % 2 == 1 || k == 0) {
      EXPECT_EQ(calls[k].thread, static_cast<int32_t>(k % 2)) << "chunk " << k;
    }
  }
}

// Pieces of a static schedule are all run, each once, whichever member ends up running
// them: many short loops in a row, so that helpers are sometimes late and the caller
// takes their pieces over.
TEST(PluginCpuRuntime, StaticPiecesTakenOverStillRunOnce) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  for (int rep = 0; rep < 2000; ++rep) {
    int64_t chunk = rep % 3;  // 0: blocks; 1, 2: round-robin chunks
    Recorder rec(rt, 0, 11);
    rt->parallel_for(&Recorder::body, &rec, 0, 11, chunk, kStatic, 3);
    for (size_t i = 0; i < 11; ++i) ASSERT_EQ(rec.hits[i].load(), 1) << "rep " << rep << " index " << i;
  }
}

TEST(PluginCpuRuntime, DynamicDefaultChunk) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  Recorder rec(rt, 0, 1000);
  rt->parallel_for(&Recorder::body, &rec, 0, 1000, 0, kDynamic, 2);
  // ceil(1000 / (8 * 2)) = 63: fifteen chunks of 63 and a last one of 55.
  std::vector<Call> calls = rec.sorted_calls();
  ASSERT_EQ(calls.size(), 16u);
  for (size_t k = 0; k < calls.size(); ++k) {
    EXPECT_EQ(calls[k].begin, static_cast<int64_t>(63 * k));
    EXPECT_EQ(calls[k].end - calls[k].begin, k + 1 < calls.size() ? 63 : 55);
  }
}

TEST(PluginCpuRuntime, GuidedPiecesShrinkAndRespectTheMinimum) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  Recorder rec(rt, 0, 1000);
  rt->parallel_for(&Recorder::body, &rec, 0, 1000, 4, kGuided, 2);
  std::vector<Call> calls = rec.sorted_calls();
  ASSERT_FALSE(calls.empty());
  EXPECT_EQ(calls.front().end - calls.front().begin, 250);  // ceil(1000 / (2 * 2))
  for (size_t k = 0; k < calls.size(); ++k) {
    int64_t size = calls[k].end - calls[k].begin;
    if (k + 1 < calls.size()) {
      EXPECT_GE(size, 4);
      EXPECT_GE(size, calls[k + 1].end - calls[k + 1].begin);
      // Each piece is ceil(remaining / 4), at least 4.
      int64_t remaining = 1000 - calls[k].begin;
      EXPECT_EQ(size, std::min(remaining, std::max<int64_t>(4, (remaining + 3) / 4)));
    }
  }
}

// The first call waits until another thread has run a piece: passes only when the team
// really has a second working thread (bounded wait, so a broken runtime fails, not hangs).
struct TwoThreadProbe {
  const Runtime* rt;
  std::atomic<int> calls{0};
  std::atomic<bool> other_thread_ran{false};
  std::atomic<bool> timed_out{false};
  static void body(void* self, int64_t, int64_t) {
    auto* p = static_cast<TwoThreadProbe*>(self);
    int32_t tid = p->rt->thread_num();
    if (tid != 0) p->other_thread_ran = true;
    if (p->calls.fetch_add(1) == 0) {
      auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      while (!p->other_thread_ran.load()) {
        if (std::chrono::steady_clock::now() > deadline) {
          p->timed_out = true;
          return;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
    }
  }
};

TEST(PluginCpuRuntime, DynamicAndGuidedUseTheSecondThread) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  for (int32_t schedule : {kDynamic, kGuided, kStatic}) {
    TwoThreadProbe probe{rt};
    rt->parallel_for(&TwoThreadProbe::body, &probe, 0, 64, 1, schedule, 2);
    EXPECT_TRUE(probe.other_thread_ran.load()) << "schedule " << schedule;
    EXPECT_FALSE(probe.timed_out.load()) << "schedule " << schedule;
  }
}

// A team larger than the helpers that can be started: in a forked child (the parent's
// helpers do not exist there) under an address-space limit that leaves no room for new
// thread stacks, a 64-thread loop still runs every index once on the calling thread. Skipped
// under AddressSanitizer: the limit leaves it no room for its own mappings (a new thread's
// fake stack), and it ends the process instead of letting the thread fail to start.
TEST(PluginCpuRuntime, HelpersThatCannotStartLeaveTheWorkToTheCaller) {
  if (testing_support::kAddressSanitizer) GTEST_SKIP() << "RLIMIT_AS tests do not run under AddressSanitizer";
  DACE_REQUIRE_CPU_RUNTIME(rt);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    long pages = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
      std::fclose(f);
    }
    if (pages <= 0) _exit(3);
    rlim_t limit = static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) + (4u << 20);
    rlimit rl{limit, limit};
    if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(4);
    try {  // never let the forked child fall back into the test runner
      for (int32_t schedule : {kStatic, kDynamic, kGuided}) {
        Recorder rec(rt, 0, 200);
        rec.calls.reserve(256);
        rt->parallel_for(&Recorder::body, &rec, 0, 200, 1, schedule, 64);
        for (size_t i = 0; i < 200; ++i)
          if (rec.hits[i].load() != 1) _exit(5);
      }
    } catch (...) {
      _exit(6);
    }
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "child ended by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

// Body of HelperBesideItsCallerSleeps, run in a process of its own: pins itself to the CPU it
// is on, so the helper a 2-thread loop starts shares the caller's CPU, and exits 0 when the
// process then used (almost) no CPU time while the caller slept; else prints why, exits 1.
[[noreturn]] void pinned_helper_stays_idle(const Runtime* rt) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(sched_getcpu(), &one);
  if (sched_setaffinity(0, sizeof one, &one) != 0) {
    std::fprintf(stderr, "sched_setaffinity failed\n");
    _exit(1);
  }
  TwoThreadProbe probe{rt};
  rt->parallel_for(&TwoThreadProbe::body, &probe, 0, 64, 1, kDynamic, 2);
  if (!probe.other_thread_ran.load()) {
    std::fprintf(stderr, "the helper never ran a piece\n");
    _exit(1);
  }
  auto cpu_ms = [] {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
  };
  const double before = cpu_ms();
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  const double idle_ms = cpu_ms() - before;
  if (idle_ms > 2.0) {
    std::fprintf(stderr, "while the caller slept 40 ms the process used %.1f ms of CPU: the helper kept polling\n",
                 idle_ms);
    _exit(1);
  }
  for (int rep = 0; rep < 200; ++rep) {
    Recorder rec(rt, 0, 300);
    rt->parallel_for(&Recorder::body, &rec, 0, 300, 0, rep % 2 ? kDynamic : kStatic, 2);
    for (size_t i = 0; i < 300; ++i)
      if (rec.hits[i].load() != 1) {
        std::fprintf(stderr, "index %zu ran %d times\n", i, rec.hits[i].load());
        _exit(1);
      }
  }
  _exit(0);
}

// A helper on the CPU its caller runs on sleeps between loops instead of polling: the kernel
// places it anew when the next loop wakes it, and it takes no turns from the caller
// meanwhile. The check runs in a fresh process (gtest's threadsafe death-test style
// re-executes the test binary), whose pool has no helper yet; the 40 ms sleep is within the
// 50 ms a polling helper keeps polling. Loops after that still run every index once.
TEST(PluginCpuRuntime, HelperBesideItsCallerSleeps) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  cpu_set_t mask;
  if (sched_getcpu() < 0 || sched_getaffinity(0, sizeof mask, &mask) != 0)
    GTEST_SKIP() << "the CPU a thread runs on or its affinity cannot be read here";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(pinned_helper_stays_idle(rt), ::testing::ExitedWithCode(0), "");
}

TEST(PluginCpuRuntime, OneThreadRunsInline) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  for (int32_t schedule : {kStatic, kDynamic, kGuided}) {
    Recorder rec(rt, 0, 100);
    rt->parallel_for(&Recorder::body, &rec, 0, 100, 7, schedule, 1);
    ASSERT_EQ(rec.calls.size(), 1u);
    EXPECT_EQ(rec.calls[0].begin, 0);
    EXPECT_EQ(rec.calls[0].end, 100);
    EXPECT_EQ(rec.calls[0].thread, 0);
  }
}

TEST(PluginCpuRuntime, RangesAtTheLimitsOfInt64) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  Recorder whole(rt, 0, 0);
  whole.count_indices = false;
  rt->parallel_for(&Recorder::body, &whole, kMin, kMax, 0, kStatic, 2);
  // 2^64 - 1 indices: thread 0 gets 2^63, thread 1 the remaining 2^63 - 1.
  std::vector<Call> calls = whole.sorted_calls();
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].begin, kMin);
  EXPECT_EQ(calls[0].end, 0);
  EXPECT_EQ(calls[1].begin, 0);
  EXPECT_EQ(calls[1].end, kMax);

  for (int32_t schedule : {kStatic, kDynamic, kGuided}) {
    Recorder low(rt, kMin, 11);
    rt->parallel_for(&Recorder::body, &low, kMin, kMin + 11, 2, schedule, 2);
    Recorder high(rt, kMax - 11, 11);
    rt->parallel_for(&Recorder::body, &high, kMax - 11, kMax, 2, schedule, 2);
    for (size_t i = 0; i < 11; ++i) {
      EXPECT_EQ(low.hits[i].load(), 1);
      EXPECT_EQ(high.hits[i].load(), 1);
    }
  }
}

TEST(PluginCpuRuntime, NumThreadsSetting) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  int32_t original = rt->num_threads();
  EXPECT_GE(original, 1);
  rt->set_num_threads(3);
  EXPECT_EQ(rt->num_threads(), 3);
  rt->set_num_threads(2);
  Recorder rec(rt, 0, 10);
  rt->parallel_for(&Recorder::body, &rec, 0, 10, 0, kStatic, 0);  // 0: the default, now 2
  EXPECT_EQ(rec.calls.size(), 2u);
  rt->set_num_threads(0);
  EXPECT_EQ(rt->num_threads(), original);
  rt->set_num_threads(-5);
  EXPECT_EQ(rt->num_threads(), original);
  EXPECT_EQ(rt->thread_num(), 0);
}

// OpenBLAS runs single-threaded between begin and end of a region that forks a team, also
// across overlapping regions, and gets its own count back after the last one; a region that
// forks no team (one thread, one point) leaves it alone. Read through OpenBLAS's own getter.
TEST(PluginCpuRuntime, OpenBlasIsSingleThreadedInsideTeams) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  ASSERT_NE(rt->vendor_threads_begin, nullptr);
  void* blas = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!blas) GTEST_SKIP() << "libopenblas.so.0 cannot be loaded here";
  auto get = reinterpret_cast<int (*)()>(dlsym(blas, "openblas_get_num_threads"));
  auto set = reinterpret_cast<void (*)(int)>(dlsym(blas, "openblas_set_num_threads"));
  ASSERT_TRUE(get && set);
  const int before = get();
  set(3);
  EXPECT_EQ(rt->vendor_threads_begin(100, 1), 0) << "one thread forks no team";
  EXPECT_EQ(rt->vendor_threads_begin(1, 2), 0) << "one point forks no team";
  EXPECT_EQ(get(), 3);
  const int32_t outer = rt->vendor_threads_begin(100, 2);
  EXPECT_NE(outer, 0);
  EXPECT_EQ(get(), 1);
  const int32_t overlapping = rt->vendor_threads_begin(8, 2);  // another caller's region meanwhile
  EXPECT_EQ(get(), 1);
  rt->vendor_threads_end(outer);
  EXPECT_EQ(get(), 1) << "restored while a region still runs";
  rt->vendor_threads_end(overlapping);
  EXPECT_EQ(get(), 3);
  rt->vendor_threads_end(0);  // a token of no change changes nothing
  EXPECT_EQ(get(), 3);
  set(before);
  dlclose(blas);
}

struct Nested {
  const Runtime* rt;
  std::vector<std::atomic<int>> hits = std::vector<std::atomic<int>>(12 * 9);
  struct Row {
    Nested* self;
    int64_t i;
  };
  static void inner(void* row, int64_t begin, int64_t end) {
    auto* r = static_cast<Row*>(row);
    for (int64_t j = begin; j < end; ++j) r->self->hits[static_cast<size_t>(r->i * 9 + j)]++;
  }
  static void outer(void* self, int64_t begin, int64_t end) {
    auto* n = static_cast<Nested*>(self);
    for (int64_t i = begin; i < end; ++i) {
      Row row{n, i};
      n->rt->parallel_for(&inner, &row, 0, 9, 2, kDynamic, 2);
    }
  }
};

TEST(PluginCpuRuntime, NestedParallelForCoversTheProduct) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  Nested nested{rt};
  rt->parallel_for(&Nested::outer, &nested, 0, 12, 0, kStatic, 2);
  for (size_t k = 0; k < nested.hits.size(); ++k) EXPECT_EQ(nested.hits[k].load(), 1) << k;
}

struct BoxRecorder {
  int nd;
  std::vector<int64_t> begin, end;
  std::vector<std::atomic<int>> hits;
  std::mutex mutex;
  std::vector<std::vector<int64_t>> boxes;  // lo..., hi...
  BoxRecorder(std::vector<int64_t> b, std::vector<int64_t> e)
      : nd(static_cast<int>(b.size())), begin(std::move(b)), end(std::move(e)), hits(volume()) {}
  size_t volume() const {
    size_t v = 1;
    for (int d = 0; d < nd; ++d) v *= static_cast<size_t>(std::max<int64_t>(0, end[d] - begin[d]));
    return v;
  }
  size_t linear(const std::vector<int64_t>& idx) const {
    size_t k = 0;
    for (int d = 0; d < nd; ++d) k = k * static_cast<size_t>(end[d] - begin[d]) + static_cast<size_t>(idx[d] - begin[d]);
    return k;
  }
  static void body(void* self, const int64_t* lo, const int64_t* hi) {
    auto* r = static_cast<BoxRecorder*>(self);
    std::vector<int64_t> box(lo, lo + r->nd);
    box.insert(box.end(), hi, hi + r->nd);
    for (int d = 0; d < r->nd; ++d) {
      EXPECT_LE(r->begin[d], lo[d]);
      EXPECT_LT(lo[d], hi[d]);
      EXPECT_LE(hi[d], r->end[d]);
    }
    // Walk the box with plain nested loops (odometer over the dimensions).
    std::vector<int64_t> idx(lo, lo + r->nd);
    for (;;) {
      r->hits[r->linear(idx)]++;
      int d = r->nd - 1;
      while (d >= 0 && ++idx[d] == hi[d]) {
        idx[d] = lo[d];
        --d;
      }
      if (d < 0) break;
    }
    std::lock_guard<std::mutex> lock(r->mutex);
    r->boxes.push_back(std::move(box));
  }
};

TEST(PluginCpuRuntime, CollapsedBoxesCoverEveryPointOnce) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> spaces = {
      {{2, -1}, {5, 4}}, {{0, 0, 0}, {3, 5, 7}}, {{-3}, {8}}, {{0, 0, 0, 0}, {2, 3, 1, 5}}};
  for (const auto& [b, e] : spaces)
    for (int32_t schedule : {kStatic, kDynamic, kGuided})
      for (int64_t chunk : {0, 1, 4, 7, 11})
        for (int32_t threads : {1, 2}) {
          BoxRecorder rec(b, e);
          ASSERT_EQ(rt->parallel_for_nd(&BoxRecorder::body, &rec, rec.nd, b.data(), e.data(),
                                        chunk, schedule, threads),
                    0);
          for (size_t k = 0; k < rec.hits.size(); ++k)
            ASSERT_EQ(rec.hits[k].load(), 1) << "point " << k << " nd " << rec.nd << " schedule "
                                             << schedule << " chunk " << chunk;
        }
}

TEST(PluginCpuRuntime, CollapsedBoxesOfStaticChunks) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  // 3 x 5 points [2,5) x [-1,4), chunks of 7: [0,7) [7,14) [14,15) in row-major order.
  BoxRecorder rec({2, -1}, {5, 4});
  ASSERT_EQ(rt->parallel_for_nd(&BoxRecorder::body, &rec, 2, rec.begin.data(), rec.end.data(), 7,
                                kStatic, 2),
            0);
  std::set<std::vector<int64_t>> got(rec.boxes.begin(), rec.boxes.end());
  std::set<std::vector<int64_t>> want = {
      {2, -1, 3, 4},  // piece 0: row 2 whole
      {3, -1, 4, 1},  //          row 3, columns -1..0
      {3, 1, 4, 4},   // piece 1: row 3, columns 1..3
      {4, -1, 5, 3},  //          row 4, columns -1..2
      {4, 3, 5, 4},   // piece 2: row 4, column 3
  };
  EXPECT_EQ(got, want);
  EXPECT_EQ(rec.boxes.size(), 5u);
}

TEST(PluginCpuRuntime, CollapsedErrorsAndEmptySpaces) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  int64_t b[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  int64_t e[9] = {2, 2, 2, 2, 2, 2, 2, 2, 2};
  BoxRecorder dummy({0}, {1});
  EXPECT_EQ(rt->parallel_for_nd(&BoxRecorder::body, &dummy, 0, b, e, 0, kStatic, 2), -1);
  EXPECT_EQ(rt->parallel_for_nd(&BoxRecorder::body, &dummy, 9, b, e, 0, kStatic, 2), -1);
  EXPECT_EQ(rt->parallel_for_nd(&BoxRecorder::body, &dummy, 1, nullptr, e, 0, kStatic, 2), -1);
  EXPECT_EQ(rt->parallel_for_nd(nullptr, &dummy, 1, b, e, 0, kStatic, 2), -1);
  int64_t big_b[2] = {0, 0};
  int64_t big_e[2] = {int64_t{1} << 32, int64_t{1} << 32};  // 2^64 points
  EXPECT_EQ(rt->parallel_for_nd(&BoxRecorder::body, &dummy, 2, big_b, big_e, 0, kStatic, 2), -2);
  int64_t empty_e[3] = {2, 0, 2};
  EXPECT_EQ(rt->parallel_for_nd(&BoxRecorder::body, &dummy, 3, b, empty_e, 0, kStatic, 2), 0);
  EXPECT_TRUE(dummy.boxes.empty());
  // Eight dimensions is the maximum.
  BoxRecorder eight(std::vector<int64_t>(b, b + 8), std::vector<int64_t>(e, e + 8));
  EXPECT_EQ(rt->parallel_for_nd(&BoxRecorder::body, &eight, 8, b, e, 5, kDynamic, 2), 0);
  for (size_t k = 0; k < eight.hits.size(); ++k) EXPECT_EQ(eight.hits[k].load(), 1);
}

struct AtomicWork {
  const Runtime* rt;
  double sum_f64 = 0;
  float sum_f32 = 0;
  int64_t sum_i64 = 0;
  int32_t sum_i32 = 0;
  double low = 1e300, high = -1e300;
  int64_t low_i = std::numeric_limits<int64_t>::max();
  int32_t high_i = std::numeric_limits<int32_t>::min();
  static void body(void* self, int64_t begin, int64_t end) {
    auto* w = static_cast<AtomicWork*>(self);
    for (int64_t i = begin; i < end; ++i) {
      w->rt->add_f64(&w->sum_f64, 1.0);
      w->rt->add_f32(&w->sum_f32, 1.0f);
      w->rt->add_i64(&w->sum_i64, i);
      w->rt->add_i32(&w->sum_i32, 2);
      double v = static_cast<double>((i * 7919) % 1000);
      w->rt->min_f64(&w->low, v);
      w->rt->max_f64(&w->high, v);
      w->rt->min_i64(&w->low_i, (i * 7919) % 1000);
      w->rt->max_i32(&w->high_i, static_cast<int32_t>((i * 7919) % 1000));
    }
  }
};

TEST(PluginCpuRuntime, AtomicsUnderContention) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  AtomicWork w{rt};
  rt->parallel_for(&AtomicWork::body, &w, 0, 20000, 1, kDynamic, 2);
  EXPECT_EQ(w.sum_f64, 20000.0);
  EXPECT_EQ(w.sum_f32, 20000.0f);
  EXPECT_EQ(w.sum_i64, int64_t{20000} * 19999 / 2);
  EXPECT_EQ(w.sum_i32, 40000);
  EXPECT_EQ(w.low, 0.0);
  EXPECT_EQ(w.high, 999.0);
  EXPECT_EQ(w.low_i, 0);
  EXPECT_EQ(w.high_i, 999);
}

TEST(PluginCpuRuntime, AtomicsReturnTheOldValue) {
  DACE_REQUIRE_CPU_RUNTIME(rt);
  double x = 1.5;
  EXPECT_EQ(rt->add_f64(&x, 2.0), 1.5);
  EXPECT_EQ(x, 3.5);
  EXPECT_EQ(rt->min_f64(&x, 5.0), 3.5);
  EXPECT_EQ(x, 3.5);
  EXPECT_EQ(rt->min_f64(&x, -1.0), 3.5);
  EXPECT_EQ(x, -1.0);
  rt->min_f64(&x, std::nan(""));  // a NaN never replaces the stored value
  EXPECT_EQ(x, -1.0);
  rt->max_f64(&x, std::nan(""));
  EXPECT_EQ(x, -1.0);
  int32_t k = 4;
  EXPECT_EQ(rt->max_i32(&k, 9), 4);
  EXPECT_EQ(k, 9);
}

}  // namespace
}  // namespace dace::plugin
