#include "cpu_placement.h"

#if defined(__linux__)
#include <sched.h>
#endif

namespace dace_cpu {

#if defined(__linux__)

int32_t current_cpu() { return static_cast<int32_t>(sched_getcpu()); }

bool move_off_cpu(int32_t cpu) {
  if (cpu < 0 || cpu >= CPU_SETSIZE) return false;
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return false;
  if (!CPU_ISSET(cpu, &allowed) || CPU_COUNT(&allowed) < 2) return false;
  cpu_set_t elsewhere = allowed;
  CPU_CLR(cpu, &elsewhere);
  if (sched_setaffinity(0, sizeof elsewhere, &elsewhere) != 0) return false;
  // The move has happened; the full mask again, so the kernel may place us anywhere later.
  sched_setaffinity(0, sizeof allowed, &allowed);
  return true;
}

#else

int32_t current_cpu() { return -1; }

bool move_off_cpu(int32_t) { return false; }

#endif

}  // namespace dace_cpu
