// Where a thread runs, and moving the calling thread off one CPU (thread_pool.cpp's helpers
// use it to leave the CPU their caller runs on). Linux only; elsewhere nothing is known and
// nothing moves.
#ifndef DACE_CPU_PLACEMENT_H
#define DACE_CPU_PLACEMENT_H

#include <cstdint>

namespace dace_cpu {

// The CPU the calling thread runs on, -1 where that cannot be asked.
int32_t current_cpu();

// Moves the calling thread to another CPU of its affinity mask than `cpu` and gives it its
// mask back (the kernel moves a thread whose CPU leaves its mask at once, and leaves it where
// it is when the mask grows again). False when there is no other CPU to go to, or `cpu` is
// not a CPU of the mask.
bool move_off_cpu(int32_t cpu);

}  // namespace dace_cpu

#endif  // DACE_CPU_PLACEMENT_H
