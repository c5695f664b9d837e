// dace_cpu_parallel_for: the caller and the helpers of thread_pool.h pull sub-ranges.
//
// Work is handed out by this file rather than by `#pragma omp for`, so that the body sees
// whole sub-ranges (one call per chunk, a vectorizable loop inside) and guided pieces keep
// their size. Offsets are unsigned and relative to `begin`, which keeps ranges spanning most
// of int64 free of overflow.
//
// Static schedules keep OpenMP's assignment (member t runs block t, or chunks t, t+team,
// ...) while every member is running; a piece its owner has not claimed when another member
// runs out of its own is taken by that member, so a preempted helper delays nothing.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>

#include "dace_cpu_runtime.h"
#include "thread_pool.h"

namespace {

class Loop final : public dace_cpu::TeamJob {
 public:
  Loop(dace_cpu_range_fn body, void* closure, int64_t begin, uint64_t n, uint64_t chunk, int32_t schedule,
       uint32_t team)
      : body_(body), closure_(closure), begin_(begin), n_(n), chunk_(chunk), schedule_(schedule), team_(team),
        cursors_(new std::atomic<uint64_t>[team]()) {}

  void work(uint32_t member, uint32_t team) override {
    switch (schedule_) {
      case DACE_CPU_SCHEDULE_DYNAMIC: run_dynamic(); break;
      case DACE_CPU_SCHEDULE_GUIDED: run_guided(team); break;
      default:
        // Own pieces first, then whatever other members have not claimed yet.
        for (uint32_t k = 0; k < team_; ++k) run_static_owner((member + k) % team_);
    }
  }

  bool finished() const override { return done_.load(std::memory_order_acquire) == n_; }

 private:
  void call(uint64_t from, uint64_t to) {
    // Offsets below n fit, as an int64 distance from begin, in the two's-complement sum.
    int64_t b = static_cast<int64_t>(static_cast<uint64_t>(begin_) + from);
    int64_t e = static_cast<int64_t>(static_cast<uint64_t>(begin_) + to);
    body_(closure_, b, e);
    done_.fetch_add(to - from, std::memory_order_acq_rel);
  }

  // Pieces of `owner`, claimed one at a time through its cursor (local piece number).
  void run_static_owner(uint32_t owner) {
    std::atomic<uint64_t>& cursor = cursors_[owner];
    if (chunk_ == 0) {  // one contiguous block per owner
      if (cursor.load(std::memory_order_relaxed) != 0 || cursor.fetch_add(1, std::memory_order_relaxed) != 0)
        return;
      uint64_t q = n_ / team_, r = n_ % team_;
      uint64_t from = owner * q + std::min<uint64_t>(owner, r);
      uint64_t to = from + q + (owner < r ? 1 : 0);
      if (from < to) call(from, to);
      return;
    }
    uint64_t chunks = (n_ - 1) / chunk_ + 1;
    if (owner >= chunks) return;
    uint64_t mine = (chunks - 1 - owner) / team_ + 1;  // chunks owner, owner + team, ...
    for (;;) {
      if (cursor.load(std::memory_order_relaxed) >= mine) return;
      uint64_t j = cursor.fetch_add(1, std::memory_order_relaxed);
      if (j >= mine) return;  // at most `team` extra increments: no wrap-around
      uint64_t from = (owner + j * team_) * chunk_;
      call(from, from + std::min(chunk_, n_ - from));
    }
  }

  void run_dynamic() {
    uint64_t chunks = (n_ - 1) / chunk_ + 1;
    for (;;) {
      uint64_t k = next_.fetch_add(1, std::memory_order_relaxed);
      if (k >= chunks) return;  // at most `team` extra increments: no wrap-around
      uint64_t from = k * chunk_;
      call(from, from + std::min(chunk_, n_ - from));
    }
  }

  void run_guided(uint64_t threads) {
    uint64_t from = next_.load(std::memory_order_relaxed);
    for (;;) {
      if (from >= n_) return;
      uint64_t remaining = n_ - from;
      uint64_t size = std::max(chunk_, (remaining - 1) / (2 * threads) + 1);
      size = std::min(size, remaining);
      if (next_.compare_exchange_weak(from, from + size, std::memory_order_relaxed)) {
        call(from, from + size);
        from = next_.load(std::memory_order_relaxed);
      }
    }
  }

  dace_cpu_range_fn body_;
  void* closure_;
  int64_t begin_;
  uint64_t n_;      // number of indices, > 0
  uint64_t chunk_;  // > 0, except 0 for the blocked static schedule
  int32_t schedule_;
  uint32_t team_;
  std::unique_ptr<std::atomic<uint64_t>[]> cursors_;  // static: next piece of each owner
  std::atomic<uint64_t> next_{0};                      // dynamic: next chunk; guided: next offset
  std::atomic<uint64_t> done_{0};                      // indices whose body call returned
};

// Most members of one team: far above any core count we run on, and it bounds the
// per-call cursor array.
constexpr uint64_t kMaxTeam = 1024;

}  // namespace

extern "C" void dace_cpu_parallel_for(dace_cpu_range_fn body, void* closure, int64_t begin,
                                      int64_t end, int64_t chunk, int32_t schedule,
                                      int32_t num_threads) {
  if (body == nullptr || end <= begin) return;
  uint64_t n = static_cast<uint64_t>(end) - static_cast<uint64_t>(begin);
  int32_t requested = num_threads > 0 ? num_threads : dace_cpu_num_threads();
  uint64_t threads = std::min<uint64_t>({static_cast<uint64_t>(std::max(requested, 1)), n, kMaxTeam});
  // A region that could not get more than one thread would only add its fork cost; inside
  // a host's own OpenMP region we stay on the host's thread as a nested region would.
  if (threads <= 1 || omp_get_active_level() >= omp_get_max_active_levels()) {
    body(closure, begin, end);
    return;
  }

  if (schedule != DACE_CPU_SCHEDULE_DYNAMIC && schedule != DACE_CPU_SCHEDULE_GUIDED)
    schedule = DACE_CPU_SCHEDULE_STATIC;
  uint64_t piece = 0;
  if (chunk > 0) {
    piece = std::min(static_cast<uint64_t>(chunk), n);
  } else if (schedule == DACE_CPU_SCHEDULE_DYNAMIC) {
    piece = (n - 1) / (8 * threads) + 1;
  } else if (schedule == DACE_CPU_SCHEDULE_GUIDED) {
    piece = 1;
  }
  Loop loop(body, closure, begin, n, piece, schedule, static_cast<uint32_t>(threads));
  // Busy pool (another caller's loop) or a nested call from inside a piece: run it here.
  if (!dace_cpu::run_on_team(loop, static_cast<uint32_t>(threads))) body(closure, begin, end);
}
