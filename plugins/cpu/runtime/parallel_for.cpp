// dace_cpu_parallel_for: one OpenMP parallel region whose threads pull sub-ranges.
//
// Work is handed out by this file rather than by `#pragma omp for`, so that the body sees
// whole sub-ranges (one call per chunk, a vectorizable loop inside) and guided pieces keep
// their size. Offsets are unsigned and relative to `begin`, which keeps ranges spanning most
// of int64 free of overflow.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "dace_cpu_runtime.h"

namespace {

struct Loop {
  dace_cpu_range_fn body;
  void* closure;
  int64_t begin;
  uint64_t n;      // number of indices, > 0
  uint64_t chunk;  // > 0, except 0 for the blocked static schedule
  int32_t schedule;
  std::atomic<uint64_t> next{0};  // dynamic: next chunk number; guided: next offset
};

void call(const Loop& loop, uint64_t from, uint64_t to) {
  // Offsets below n fit, as an int64 distance from begin, in the two's-complement sum.
  int64_t b = static_cast<int64_t>(static_cast<uint64_t>(loop.begin) + from);
  int64_t e = static_cast<int64_t>(static_cast<uint64_t>(loop.begin) + to);
  loop.body(loop.closure, b, e);
}

void run_static_blocked(const Loop& loop, uint64_t tid, uint64_t threads) {
  uint64_t q = loop.n / threads, r = loop.n % threads;
  uint64_t from = tid * q + std::min(tid, r);
  uint64_t to = from + q + (tid < r ? 1 : 0);
  if (from < to) call(loop, from, to);
}

void run_static_chunked(const Loop& loop, uint64_t tid, uint64_t threads) {
  uint64_t chunks = (loop.n - 1) / loop.chunk + 1;
  for (uint64_t k = tid; k < chunks; k += threads) {
    uint64_t from = k * loop.chunk;
    call(loop, from, from + std::min(loop.chunk, loop.n - from));
    if (chunks - k <= threads) break;  // k + threads would reach or pass the end
  }
}

void run_dynamic(Loop& loop) {
  uint64_t chunks = (loop.n - 1) / loop.chunk + 1;
  for (;;) {
    uint64_t k = loop.next.fetch_add(1, std::memory_order_relaxed);
    if (k >= chunks) return;  // at most `threads` extra increments: no wrap-around
    uint64_t from = k * loop.chunk;
    call(loop, from, from + std::min(loop.chunk, loop.n - from));
  }
}

void run_guided(Loop& loop, uint64_t threads) {
  uint64_t from = loop.next.load(std::memory_order_relaxed);
  for (;;) {
    if (from >= loop.n) return;
    uint64_t remaining = loop.n - from;
    uint64_t size = std::max(loop.chunk, (remaining - 1) / (2 * threads) + 1);
    size = std::min(size, remaining);
    if (loop.next.compare_exchange_weak(from, from + size, std::memory_order_relaxed)) {
      call(loop, from, from + size);
      from = loop.next.load(std::memory_order_relaxed);
    }
  }
}

void run_thread(Loop& loop, uint64_t tid, uint64_t threads) {
  switch (loop.schedule) {
    case DACE_CPU_SCHEDULE_DYNAMIC: run_dynamic(loop); break;
    case DACE_CPU_SCHEDULE_GUIDED: run_guided(loop, threads); break;
    default:
      if (loop.chunk == 0)
        run_static_blocked(loop, tid, threads);
      else
        run_static_chunked(loop, tid, threads);
  }
}

}  // namespace

extern "C" void dace_cpu_parallel_for(dace_cpu_range_fn body, void* closure, int64_t begin,
                                      int64_t end, int64_t chunk, int32_t schedule,
                                      int32_t num_threads) {
  if (body == nullptr || end <= begin) return;
  uint64_t n = static_cast<uint64_t>(end) - static_cast<uint64_t>(begin);
  int32_t requested = num_threads > 0 ? num_threads : dace_cpu_num_threads();
  uint64_t threads = std::min<uint64_t>(static_cast<uint64_t>(std::max(requested, 1)), n);
  // A region that could not get more than one thread would only add its fork cost.
  if (threads <= 1 || omp_get_active_level() >= omp_get_max_active_levels()) {
    body(closure, begin, end);
    return;
  }

  if (schedule != DACE_CPU_SCHEDULE_DYNAMIC && schedule != DACE_CPU_SCHEDULE_GUIDED)
    schedule = DACE_CPU_SCHEDULE_STATIC;
  Loop loop{body, closure, begin, n, 0, schedule};
  if (chunk > 0) {
    loop.chunk = std::min(static_cast<uint64_t>(chunk), n);
  } else if (schedule == DACE_CPU_SCHEDULE_DYNAMIC) {
    loop.chunk = (n - 1) / (8 * threads) + 1;
  } else if (schedule == DACE_CPU_SCHEDULE_GUIDED) {
    loop.chunk = 1;
  }

#pragma omp parallel num_threads(static_cast<int>(threads))
  {
    // The team may be smaller than requested (thread limits); split by its real size.
    run_thread(loop, static_cast<uint64_t>(omp_get_thread_num()),
               static_cast<uint64_t>(omp_get_num_threads()));
  }
}
