// Team size and thread ids. The default is a process-wide setting (OpenMP's
// omp_set_num_threads only affects the calling thread), read at each parallel_for.
#include <omp.h>

#include <atomic>

#include "dace_cpu_runtime.h"
#include "thread_pool.h"

namespace {
std::atomic<int32_t> g_num_threads{0};  // 0: OpenMP's default
}  // namespace

extern "C" int32_t dace_cpu_num_threads(void) {
  int32_t n = g_num_threads.load(std::memory_order_relaxed);
  if (n > 0) return n;
  int max = omp_get_max_threads();
  return max > 0 ? static_cast<int32_t>(max) : 1;
}

extern "C" void dace_cpu_set_num_threads(int32_t n) {
  g_num_threads.store(n > 0 ? n : 0, std::memory_order_relaxed);
}

// The caller of a parallel_for is member 0; helpers report the member id they run as.
extern "C" int32_t dace_cpu_thread_num(void) { return dace_cpu::current_member(); }
