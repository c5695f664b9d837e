// The emulated device's cooperative launch (plugins/cuda/runtime/dace_cuda_emulation.h),
// driven by hand-written host kernels: blocks run one at a time and hand on at each grid
// barrier, so every block finishes a phase before any starts the next (the log of (phase,
// block) is in that order); a grid of more blocks than are resident runs with the resident
// ones; blocks reaching different numbers of barriers, and a barrier outside a cooperative
// launch, fail naming what happened.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using LaunchCooperative = int32_t (*)(void*, const char*, const char*, int64_t, int64_t, int64_t, int64_t, int64_t,
                                      int64_t, int32_t, void**);

struct Entries {
  LaunchCooperative launch = nullptr;
  void (*grid_sync)() = nullptr;
  const int64_t* (*block_index)() = nullptr;
  const int64_t* (*grid_dim)() = nullptr;
  const char* (*error)() = nullptr;
  void (*inject)(const char*, int64_t) = nullptr;
};

Entries& entries() {
  static Entries e;
  return e;
}

bool load_entries() {
  plugin::Registry* r = cuda_registry();
  if (!r) return false;
  Entries& e = entries();
  e.launch = reinterpret_cast<LaunchCooperative>(r->find_runtime_symbol("dace_cuda_emu_launch_cooperative"));
  e.grid_sync = reinterpret_cast<void (*)()>(r->find_runtime_symbol("dace_cuda_emu_grid_sync"));
  e.block_index = reinterpret_cast<const int64_t* (*)()>(r->find_runtime_symbol("dace_cuda_emu_block_index"));
  e.grid_dim = reinterpret_cast<const int64_t* (*)()>(r->find_runtime_symbol("dace_cuda_emu_grid_dim"));
  e.error = reinterpret_cast<const char* (*)()>(r->find_runtime_symbol("dace_cuda_emu_error"));
  e.inject = reinterpret_cast<void (*)(const char*, int64_t)>(r->find_runtime_symbol("dace_cuda_emu_inject_failure"));
  return e.launch && e.grid_sync && e.block_index && e.grid_dim && e.error && e.inject;
}

using Log = std::vector<std::pair<int64_t, int64_t>>;  // (phase, block)

// Three phases, a grid barrier after each; params[0] is the log.
void three_phases(void** params) {
  Log& log = *static_cast<Log*>(params[0]);
  for (int64_t phase = 0; phase < 3; ++phase) {
    log.emplace_back(phase, entries().block_index()[0]);
    entries().grid_sync();
  }
}

// Only block 0 reaches a barrier.
void uneven_barriers(void**) {
  if (entries().block_index()[0] == 0) entries().grid_sync();
}

const char* kernel_address(void (*fn)(void**)) { return reinterpret_cast<const char*>(fn); }

TEST(CudaGridRun, EveryBlockFinishesAPhaseBeforeAnyStartsTheNext) {
  REQUIRE_CUDA_PLUGIN();
  ASSERT_TRUE(load_entries());
  Log log;
  void* params[] = {&log};
  // 5 blocks asked for, 3 resident (DACE_CUDA_EMU_PERSISTENT_BLOCKS): the grid shrinks to 3.
  ASSERT_EQ(entries().launch(nullptr, nullptr, kernel_address(three_phases), 5, 1, 1, 64, 1, 1, 0, params), 0)
      << entries().error();
  Log want;
  for (int64_t phase = 0; phase < 3; ++phase)
    for (int64_t block = 0; block < 3; ++block) want.emplace_back(phase, block);
  EXPECT_EQ(log, want);
}

TEST(CudaGridRun, BlocksReachingDifferentNumbersOfBarriersFailTheLaunch) {
  REQUIRE_CUDA_PLUGIN();
  ASSERT_TRUE(load_entries());
  entries().inject(nullptr, 0);  // a clean error record
  EXPECT_NE(entries().launch(nullptr, nullptr, kernel_address(uneven_barriers), 3, 1, 1, 32, 1, 1, 0, nullptr), 0);
  EXPECT_NE(std::string(entries().error()).find("different numbers of grid barriers (1 and 0)"), std::string::npos)
      << entries().error();
  entries().inject(nullptr, 0);
}

TEST(CudaGridRun, ABarrierOutsideACooperativeLaunchIsAnError) {
  REQUIRE_CUDA_PLUGIN();
  ASSERT_TRUE(load_entries());
  entries().inject(nullptr, 0);
  entries().grid_sync();
  EXPECT_NE(std::string(entries().error()).find("a grid barrier outside a cooperative launch"), std::string::npos)
      << entries().error();
  entries().inject(nullptr, 0);
}

// The grid barrier counts the blocks along x (%nctaid.x): a 2-D grid is refused before any
// block runs, as the device runtime refuses it.
TEST(CudaGridRun, AGridOfMoreThanOneDimensionIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  ASSERT_TRUE(load_entries());
  entries().inject(nullptr, 0);
  EXPECT_NE(entries().launch(nullptr, nullptr, kernel_address(uneven_barriers), 2, 2, 1, 32, 1, 1, 0, nullptr), 0);
  EXPECT_NE(std::string(entries().error()).find("cooperative kernels are launched on 1-D grids"), std::string::npos)
      << entries().error();
  entries().inject(nullptr, 0);
}

}  // namespace
}  // namespace dace::codegen::testing

