// The team behind dace_cpu_parallel_for: persistent helper threads that join a published
// job when they are running, and a caller that never waits for a helper that has not
// started.
//
// Why not an OpenMP parallel region: its closing barrier waits for every thread of the
// team. On cores shared with other processes a helper is often preempted when the region
// forks; the caller then waits a scheduler time slice (milliseconds) for a few
// microseconds of work. heat_3d at NPBench S forks 50 regions per call: 0.3 ms on two free
// cores, 2-8 ms with one of them busy. Here the caller takes over every piece no helper has
// claimed and waits only for pieces already running, so a busy neighbour costs at most the
// one-thread time. A helper that waits on the CPU its caller forked from moves off it
// (cpu_placement.h), since the kernel does not re-place a polling thread.
#ifndef DACE_CPU_THREAD_POOL_H
#define DACE_CPU_THREAD_POOL_H

#include <cstdint>

namespace dace_cpu {

// Work shared by the caller (team id 0) and helpers (ids 1..team-1).
class TeamJob {
 public:
  virtual ~TeamJob() = default;
  // Claims and runs pieces until none is left for this member; safe to call concurrently.
  virtual void work(uint32_t member, uint32_t team) = 0;
  // True once every piece has been run to its end (not merely claimed).
  virtual bool finished() const = 0;
};

// Runs job on the calling thread and on up to team-1 helpers; returns when job.finished().
// Returns false without running anything when the pool is busy with another caller's job
// or the calling thread is itself running a job piece (then the caller runs the work
// alone).
bool run_on_team(TeamJob& job, uint32_t team);

// Team id of the calling thread in the job it is running (0 outside jobs and for callers).
int32_t current_member();

}  // namespace dace_cpu

#endif  // DACE_CPU_THREAD_POOL_H
