// Moving a thread off a CPU (plugins/cpu/runtime/cpu_placement.*), which the CPU runtime's
// helpers do when they find themselves on their caller's CPU. Each case runs on a thread of
// its own, so the test runner's thread keeps its placement.
#include <gtest/gtest.h>

#include <sched.h>

#include <string>
#include <thread>

#include "runtime/cpu_placement.h"

namespace dace_cpu {
namespace {

bool own_mask(cpu_set_t& mask) { return sched_getaffinity(0, sizeof mask, &mask) == 0; }

// Runs `check` on a new thread and returns what it reports ("" = passed, else why not).
template <class Check>
std::string on_own_thread(Check check) {
  std::string why;
  std::thread([&] { why = check(); }).join();
  return why;
}

TEST(CpuPlacement, MoveOffCpuGoesElsewhereAndKeepsTheMask) {
  cpu_set_t mask;
  ASSERT_TRUE(own_mask(mask));
  if (CPU_COUNT(&mask) < 2 || current_cpu() < 0) GTEST_SKIP() << "fewer than 2 CPUs allowed, or the CPU unknown";
  std::string why = on_own_thread([]() -> std::string {
    cpu_set_t before, after;
    if (!own_mask(before)) return "sched_getaffinity failed";
    const int32_t cpu = current_cpu();
    if (!move_off_cpu(cpu)) return "move_off_cpu(" + std::to_string(cpu) + ") refused with 2+ CPUs allowed";
    const int32_t now = current_cpu();
    if (now == cpu) return "still on CPU " + std::to_string(cpu);
    if (!CPU_ISSET(now, &before)) return "moved to CPU " + std::to_string(now) + ", outside the mask";
    if (!own_mask(after) || !CPU_EQUAL(&before, &after)) return "the affinity mask changed";
    return "";
  });
  EXPECT_EQ(why, "");
}

TEST(CpuPlacement, NowhereToGoIsRefused) {
  std::string why = on_own_thread([]() -> std::string {
    const int32_t cpu = current_cpu();
    if (cpu < 0) return "";  // nothing known, nothing to check (the mask cases below need the CPU)
    cpu_set_t one, after;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) return "";  // cannot pin: not testable here
    if (move_off_cpu(cpu)) return "moved off the only CPU allowed";
    if (!own_mask(after) || !CPU_EQUAL(&one, &after)) return "the one-CPU mask changed";
    if (current_cpu() != cpu) return "left the only CPU allowed";
    return "";
  });
  EXPECT_EQ(why, "");
  EXPECT_FALSE(move_off_cpu(-1));
  EXPECT_FALSE(move_off_cpu(CPU_SETSIZE));
}

}  // namespace
}  // namespace dace_cpu
