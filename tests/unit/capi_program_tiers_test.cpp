// Tiered compilation through the C API (dace_compile_options_t version 4): a program is
// callable on its first tier while the optimized tier compiles, results equal the plain loop
// in both tiers and across the swap under calls from eight threads, wait_optimized returns
// with the optimized tier in, tiered = 0 is one compile as in version 2, and the cache holds
// the optimized tier (byte-identical to a single-tier compile's entry).
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "builder/api_internal.h"
#include "capi_program_test_util.h"
#include "jit/program.h"
#include "jit/session.h"

namespace {

namespace fs = std::filesystem;
using capi_test::call_axpb;
using capi_test::make_axpb;

// B = A * 3 + s against the plain loop, exactly (no FP contraction in either tier).
bool call_and_check(dace_program_t* p, int64_t n, double s) {
  std::vector<double> a(static_cast<size_t>(n)), b(static_cast<size_t>(n), -1.0);
  for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i)] = 0.25 * static_cast<double>(i % 23) - 2;
  if (call_axpb(p, a, b, s) != DACE_OK) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (b[i] != a[i] * 3 + s) return false;
  return true;
}

dace_compile_stats_t stats_of(dace_program_t* p) {
  dace_compile_stats_t st{};
  st.version = DACE_COMPILE_STATS_VERSION;
  EXPECT_DACE_OK(dace_program_compile_stats(&st, p));
  return st;
}

size_t live_modules(dace_context_t* ctx) {
  std::lock_guard<std::mutex> lock(ctx->jit_mutex);
  return ctx->session ? ctx->session->live_modules() : 0;
}

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag)
      : path(fs::temp_directory_path() / ("dace-tiers-" + tag + "-" + std::to_string(getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::vector<fs::path> files() const {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(path)) out.push_back(e.path());
    return out;
  }
};

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(CApiProgramTiers, DefaultsOfVersionFour) {
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  EXPECT_EQ(o.tiered, 1);
  EXPECT_EQ(o.wait_optimized, 0);
  dace_compile_options_t v3{};
  ASSERT_DACE_OK(dace_compile_options_init(&v3, 3));
  EXPECT_EQ(v3.version, 3u);
  EXPECT_EQ(v3.tiered, 0) << "version 3 init must not write version 4 fields";
  dace_compile_options_t v4{};
  ASSERT_DACE_OK(dace_compile_options_init(&v4, 4));
  EXPECT_EQ(v4.tiered, 1);
}

TEST(CApiProgramTiers, DisabledTiersIsOneCompile) {
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_sdfg_t* sdfg = make_axpb("tiers_off", "3");
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  o.tiered = 0;
  dace_program_t* p = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &o));
  // No background job: the one module is the program's, right away.
  EXPECT_EQ(live_modules(ctx), 1u);
  dace_compile_stats_t st = stats_of(p);
  EXPECT_EQ(st.tiered, 0);
  EXPECT_EQ(st.tier, 2);
  EXPECT_EQ(st.optimized_ms, st.total_ms);
  EXPECT_GT(st.optimize_ms, 0);
  EXPECT_GT(st.lowered_instructions, 0u);
  EXPECT_EQ(st.optimized_ir_instructions, st.ir_instructions);
  EXPECT_EQ(st.optimized_optimize_ms, 0);
  EXPECT_TRUE(call_and_check(p, 1000, 0.5));
  dace_program_release(p);
  EXPECT_EQ(live_modules(ctx), 0u);
  dace_sdfg_release(sdfg);
  dace_context_release(ctx);
}

TEST(CApiProgramTiers, VersionTwoOptionsGetTiersByDefault) {
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_sdfg_t* sdfg = make_axpb("tiers_v2", "3");
  dace_compile_options_t o{};
  ASSERT_DACE_OK(dace_compile_options_init(&o, 2));
  o.tiered = 0;  // past version 2's bytes: must be ignored (the default, tiers, applies)
  dace_program_t* p = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &o));
  EXPECT_EQ(stats_of(p).tiered, 1);
  EXPECT_TRUE(call_and_check(p, 100, 1.0));
  dace_program_release(p);
  dace_sdfg_release(sdfg);
  dace_context_release(ctx);
}

TEST(CApiProgramTiers, WaitOptimizedReturnsWithTheOptimizedTierCached) {
  TempDir tiered_cache("tiered"), single_cache("single");
  dace_sdfg_t* sdfg = make_axpb("tiers_wait", "3");
  std::string tiered_entry, single_entry;
  {
    dace_context_t* ctx = nullptr;
    ASSERT_DACE_OK(dace_context_create(&ctx));
    dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
    o.wait_optimized = 1;
    std::string dir = tiered_cache.path.string();
    o.cache_dir = dir.c_str();
    dace_program_t* p = nullptr;
    ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &o));
    dace_compile_stats_t st = stats_of(p);
    EXPECT_EQ(st.tiered, 1);
    EXPECT_EQ(st.tier, 2);
    EXPECT_GE(st.optimized_ms, st.total_ms);
    EXPECT_GT(st.optimized_optimize_ms, 0);
    EXPECT_GT(st.optimized_codegen_ms, 0);
    EXPECT_GT(st.optimized_ir_instructions, 0u);
    EXPECT_GE(st.swap_ms, 0);
    EXPECT_EQ(live_modules(ctx), 1u) << "the first tier is unloaded after the swap";
    // The optimized tier is in the cache as soon as the compile returns.
    auto files = tiered_cache.files();
    ASSERT_EQ(files.size(), 1u);
    tiered_entry = read_all(files[0]);
    EXPECT_TRUE(call_and_check(p, 1000, -1.5));
    dace_program_release(p);
    dace_context_release(ctx);
  }
  {
    dace_context_t* ctx = nullptr;
    ASSERT_DACE_OK(dace_context_create(&ctx));
    dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
    o.tiered = 0;
    std::string dir = single_cache.path.string();
    o.cache_dir = dir.c_str();
    dace_program_t* p = nullptr;
    ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &o));
    auto files = single_cache.files();
    ASSERT_EQ(files.size(), 1u);
    single_entry = read_all(files[0]);
    dace_program_release(p);
    dace_context_release(ctx);
  }
  EXPECT_FALSE(tiered_entry.empty());
  EXPECT_EQ(tiered_entry, single_entry) << "the cache must hold the optimized tier, as a single-tier compile";
  {
    // A later tiered compile hits the entry: no tiers then.
    dace_context_t* ctx = nullptr;
    ASSERT_DACE_OK(dace_context_create(&ctx));
    dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
    std::string dir = tiered_cache.path.string();
    o.cache_dir = dir.c_str();
    dace_program_t* p = nullptr;
    ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &o));
    dace_compile_stats_t st = stats_of(p);
    EXPECT_EQ(st.cache_hit, 1);
    EXPECT_EQ(st.tiered, 0);
    EXPECT_EQ(st.tier, 2);
    EXPECT_TRUE(call_and_check(p, 10, 2.0));
    dace_program_release(p);
    dace_context_release(ctx);
  }
  dace_sdfg_release(sdfg);
}

// Waits (sleeping) until `done()` or about a minute has passed; whether it got there.
template <class F>
bool wait_until(F done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// Eight threads call a tiered program while its optimized tier is held back after its
// compile (the context's test hook, pipeline::CompileRequest::before_optimized_install), so
// on any machine they run on tier 1 first; the swap is then let go while they keep calling,
// and they go on calling on the optimized tier. The program counts the calls each tier's code
// ran (jit::TierState, under the call lock), so the test knows which side of the swap every
// call was on. Every call must give the plain loop's result. A swap that installed the new
// entry points or unloaded the old module without taking the call lock would pull code or
// state from under a running call (a crash or a wrong B) or miscount the tiers.
TEST(CApiProgramTiers, EightThreadsCallAcrossTheSwap) {
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  std::promise<void> gate;
  std::shared_future<void> opened = gate.get_future().share();
  bool gate_open = false;
  auto open_gate = [&] {
    if (!gate_open) gate.set_value();
    gate_open = true;
  };
  std::atomic<bool> held{false};
  {
    std::lock_guard<std::mutex> lock(ctx->jit_mutex);
    ctx->before_optimized_install = [opened, &held] {
      held = true;
      opened.wait();
    };
  }
  dace_sdfg_t* sdfg = make_axpb("tiers_threads", "3");
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  dace_program_t* p = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &o));
  const dace::jit::Program& program = dace::capi::jit_program_of(*p);
  ASSERT_EQ(stats_of(p).tiered, 1);

  constexpr int kThreads = 8, kCallsBefore = 20, kCallsAfter = 50;
  std::atomic<int> failures{0}, threads_ready{0};
  std::atomic<uint64_t> calls_made{0};
  std::atomic<bool> swap_done{false}, give_up{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const int64_t n = 2000 + 37 * t;  // different sizes: calls re-initialize the state too
      int before = 0, after = 0;
      while (!give_up.load()) {
        const bool swapped = swap_done.load();
        if (!call_and_check(p, n, 0.5 * t)) failures++;
        calls_made++;
        if (!swapped && ++before == kCallsBefore) threads_ready++;
        if (swapped && ++after == kCallsAfter) break;
      }
    });
  }
  // Every thread has called on tier 1 and the optimized code is compiled and held.
  const bool ready = wait_until([&] { return threads_ready.load() == kThreads && held.load(); });
  EXPECT_TRUE(ready) << "threads ready " << threads_ready.load() << ", optimized tier held " << held.load();
  const dace::jit::TierState held_state = program.optimized_tier();
  EXPECT_EQ(held_state.tier, 1);
  EXPECT_TRUE(held_state.pending);
  EXPECT_GE(held_state.first_tier_calls, uint64_t{kThreads * kCallsBefore});
  EXPECT_EQ(held_state.optimized_tier_calls, 0u) << "a call ran the optimized code while its install was held";
  EXPECT_EQ(stats_of(p).tier, 1);

  open_gate();  // the swap happens while the eight threads call
  const bool swapped = wait_until([&] { return !program.optimized_tier().pending; });
  EXPECT_TRUE(swapped) << "the optimized tier did not come in";
  const dace::jit::TierState at_swap = program.optimized_tier();
  EXPECT_EQ(at_swap.tier, 2);
  EXPECT_TRUE(at_swap.status.ok()) << at_swap.status.error().message;
  swap_done = true;
  if (!ready || !swapped) give_up = true;
  for (auto& th : threads) th.join();

  EXPECT_EQ(failures.load(), 0);
  const dace::jit::TierState end = program.optimized_tier();
  EXPECT_EQ(end.first_tier_calls, at_swap.first_tier_calls) << "a call ran tier 1 code after the swap";
  EXPECT_GE(end.optimized_tier_calls, uint64_t{kThreads * kCallsAfter});
  EXPECT_EQ(end.first_tier_calls + end.optimized_tier_calls, calls_made.load()) << "each call ran exactly one tier";
  dace_compile_stats_t st = stats_of(p);
  EXPECT_EQ(st.tier, 2);
  EXPECT_GE(st.optimized_ms, st.total_ms);
  RecordProperty("calls_in_tier1", static_cast<int>(end.first_tier_calls));
  RecordProperty("calls_in_tier2", static_cast<int>(end.optimized_tier_calls));
  dace_program_release(p);
  EXPECT_EQ(live_modules(ctx), 0u);
  dace_sdfg_release(sdfg);
  dace_context_release(ctx);
}

// The tier that compile_stats and optimized_tier() report never lags the code calls run:
// one thread calls across the swap and, after every call, reads the tier state. Once a call
// of its own has run the optimized code (counted under the call lock), the state it reads
// next must say tier 2, with the optimized module's statistics. The swap is held back until
// the thread calls (the context's test hook), so it happens during the loop on any machine.
// A tier published after the swap under a separate lock (after unloading tier 1) is seen as
// tier 1 by the calls that land in between.
TEST(CApiProgramTiers, TierIsPublishedWithTheSwap) {
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_sdfg_t* sdfg = make_axpb("tiers_publish", "3");
  // The window of a late update is short (the old module's unload): several swaps, so that
  // a tier published late is caught on a loaded machine too.
  constexpr int kRounds = 8;
  int lagging = 0, failures = 0;
  for (int round = 0; round < kRounds; ++round) {
    std::promise<void> gate;
    std::shared_future<void> opened = gate.get_future().share();
    std::atomic<bool> held{false};
    {
      std::lock_guard<std::mutex> lock(ctx->jit_mutex);
      ctx->before_optimized_install = [opened, &held] {
        held = true;
        opened.wait();
      };
    }
    dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
    dace_program_t* p = nullptr;
    ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &o));
    const dace::jit::Program& program = dace::capi::jit_program_of(*p);
    ASSERT_EQ(stats_of(p).tiered, 1);
    ASSERT_TRUE(wait_until([&] { return held.load(); })) << "the optimized tier never reached its install";

    std::atomic<bool> calling{false};
    int calls_on_tier2 = 0;
    std::thread caller([&] {
      // Calls until 200 of them have run the optimized code (or a minute has passed).
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while (calls_on_tier2 < 200 && std::chrono::steady_clock::now() < deadline) {
        if (!call_and_check(p, 16, 1.0)) failures++;
        calling = true;
        const dace::jit::TierState state = program.optimized_tier();
        const dace_compile_stats_t st = stats_of(p);
        if (state.optimized_tier_calls == 0) continue;
        calls_on_tier2++;
        if (state.tier != 2 || !state.swapped_at || st.tier != 2 || st.optimized_ir_instructions == 0) lagging++;
      }
    });
    const bool started = wait_until([&] { return calling.load(); });
    gate.set_value();  // the swap happens while the thread calls
    caller.join();
    EXPECT_TRUE(started);
    EXPECT_EQ(calls_on_tier2, 200) << "round " << round << ": the optimized tier did not come in";
    dace_program_release(p);
  }
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(lagging, 0) << "calls ran the optimized code while the tier state still said tier 1";
  {
    std::lock_guard<std::mutex> lock(ctx->jit_mutex);
    ctx->before_optimized_install = nullptr;
  }
  dace_sdfg_release(sdfg);
  dace_context_release(ctx);
}

// Releasing a program while its optimized tier still compiles waits for it, then unloads
// everything.
TEST(CApiProgramTiers, ReleaseDuringTheBackgroundCompile) {
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_sdfg_t* sdfg = make_axpb("tiers_release", "3");
  for (int i = 0; i < 3; ++i) {
    dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
    dace_program_t* p = nullptr;
    ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &o));
    if (i == 1) {
      EXPECT_TRUE(call_and_check(p, 50, 0.0));
    }
    dace_program_release(p);
    EXPECT_EQ(live_modules(ctx), 0u);
  }
  dace_sdfg_release(sdfg);
  dace_context_release(ctx);
}

}  // namespace
