#include "thread_pool.h"

#include "cpu_placement.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <exception>
#include <thread>

namespace dace_cpu {
namespace {

using Clock = std::chrono::steady_clock;

// An idle helper polls this long before it sleeps: the gaps between the regions of a time
// loop and between the calls of a timed loop stay well below it. Past the first stretch it
// yields between polls, so a neighbour that needs the core gets it.
constexpr auto kSpin = std::chrono::microseconds(200);
constexpr auto kPoll = std::chrono::milliseconds(50);

thread_local int32_t t_member = 0;
thread_local bool t_in_team = false;  // running a job (caller or helper): no nested team

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Polls pred: pause first, then yield (a preempted thread we wait for then gets the core).
template <class Pred>
void wait_until(Pred pred) {
  for (int k = 0; !pred(); ++k) {
    if (k < 2000)
      cpu_relax();
    else
      std::this_thread::yield();
  }
}

class Pool {
 public:
  bool run(TeamJob& job, uint32_t team) {
    if (t_in_team) return false;
    std::unique_lock<std::mutex> lock(busy_, std::try_to_lock);
    if (!lock.owns_lock()) return false;  // another caller's job: run alone, not after it
    grow(team - 1);
    team_.store(team, std::memory_order_relaxed);
    next_member_.store(1, std::memory_order_relaxed);
    caller_cpu_.store(current_cpu(), std::memory_order_relaxed);
    job_.store(&job);
    generation_.fetch_add(1);
    if (sleepers_.load() > 0) generation_.notify_all();
    t_in_team = true;
    job.work(0, team);
    // Pieces still unclaimed were taken above; only pieces a helper is running remain.
    wait_until([&] { return job.finished(); });
    job_.store(nullptr);
    // A helper that saw the job may still hold its pointer: the job lives on our stack.
    wait_until([&] { return inside_.load() == 0; });
    t_in_team = false;
    return true;
  }

 private:
  void grow(uint32_t helpers) {
    // Helpers are detached and the pool is never destroyed: nothing to join at exit.
    // A new helper starts from the generation before this job's, so it joins this job.
    // A helper that cannot be started (thread limits) is simply absent: the caller runs
    // the pieces nobody claims, so the loop still completes.
    uint32_t before = generation_.load();
    for (; started_ < helpers; ++started_) {
      try {
        std::thread([this, before] { helper(before); }).detach();
      } catch (const std::exception&) {  // system_error, or bad_alloc for its state
        return;
      }
    }
  }

  // A helper that polls on the CPU its caller ran on when it last forked only takes turns
  // with the caller there, and polling keeps it there: the kernel moves a running thread
  // only to even out run queues, and with another process busy on the other core,
  // caller + helper on one core and that process on the other already count as even (nor
  // does sleeping help: the caller's wake-up puts the helper back beside it). So the helper
  // moves itself off that CPU, once per wait; where it cannot (one CPU allowed) it sleeps
  // until the next fork instead of taking the caller's turns. mandelbrot1 at NPBench S on
  // 2 threads ran whole runs at its 1-thread time with the helper beside the caller.
  // Returns true when the helper should sleep now.
  bool leave_caller_cpu(bool& moved) {
    const int32_t caller = caller_cpu_.load(std::memory_order_relaxed);
    if (moved || caller < 0 || caller != current_cpu()) return false;
    moved = true;
    return !move_off_cpu(caller);
  }

  uint32_t next_generation(uint32_t seen) {
    Clock::time_point start = Clock::now();
    bool moved = false;
    for (int k = 0;; ++k) {
      uint32_t g = generation_.load(std::memory_order_acquire);
      if (g != seen) return g;
      if (k % 64 != 0) {
        cpu_relax();
        continue;
      }
      Clock::duration idle = Clock::now() - start;
      const bool stay_beside = leave_caller_cpu(moved);
      if (stay_beside) {
        sleep_until_next(seen);
        start = Clock::now();
      } else if (idle < kSpin) {
        cpu_relax();
      } else if (idle < kPoll) {
        std::this_thread::yield();
      } else {
        sleep_until_next(seen);
        start = Clock::now();
      }
    }
  }

  void sleep_until_next(uint32_t seen) {
    // Seq-cst increment before the wait: run() reads sleepers_ after bumping the
    // generation, so either it sees us and notifies, or our wait sees the new value.
    sleepers_.fetch_add(1);
    generation_.wait(seen);
    sleepers_.fetch_sub(1);
  }

  void helper(uint32_t seen) {
    t_in_team = true;
    for (;;) {
      seen = next_generation(seen);
      inside_.fetch_add(1);
      if (TeamJob* job = job_.load()) {
        uint32_t member = next_member_.fetch_add(1, std::memory_order_relaxed);
        uint32_t team = team_.load(std::memory_order_relaxed);
        if (member < team) {
          t_member = static_cast<int32_t>(member);
          job->work(member, team);
          t_member = 0;
        }
      }
      inside_.fetch_sub(1);
    }
  }

  std::mutex busy_;
  uint32_t started_ = 0;  // helpers created (guarded by busy_)
  std::atomic<uint32_t> generation_{0};
  std::atomic<TeamJob*> job_{nullptr};
  std::atomic<uint32_t> team_{0};
  std::atomic<uint32_t> next_member_{1};
  std::atomic<uint32_t> inside_{0};
  std::atomic<uint32_t> sleepers_{0};
  std::atomic<int32_t> caller_cpu_{-1};  // where the last job's caller ran when it forked
};

Pool& pool() {
  static Pool* p = new Pool;  // leaked on purpose: detached helpers use it until exit
  return *p;
}

}  // namespace

bool run_on_team(TeamJob& job, uint32_t team) {
  if (team <= 1) return false;
  return pool().run(job, team);
}

int32_t current_member() { return t_member; }

}  // namespace dace_cpu
