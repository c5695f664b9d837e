// OpenBLAS single-threaded while a team runs bodies that call it (dace_cpu_runtime.h).
//
// Debian's OpenBLAS 0.3.21 is the pthread build: a call above its small-size limit from a
// team member hands parts to OpenBLAS's own workers, so a 2-member team on 2 cores ran 4
// threads (NPBench doitgen at M). That version has one process-wide thread count
// (openblas_set_num_threads; the per-caller openblas_set_num_threads_local came later), so the
// first overlapping region saves it and sets 1, and the last one restores it. The library is
// found, not loaded: the plugin loaded it (RTLD_LOCAL, so not through RTLD_DEFAULT) before any
// program that calls it could run.
#include <dlfcn.h>
#include <omp.h>

#include <mutex>

#include "dace_cpu_runtime.h"

namespace {

using GetThreads = int (*)(void);
using SetThreads = void (*)(int);

struct VendorThreads {
  std::mutex mutex;
  GetThreads get = nullptr;
  SetThreads set = nullptr;
  int regions = 0;  // regions between begin and end
  int saved = 0;    // OpenBLAS's thread count before the first of them
};

VendorThreads& state() {
  static VendorThreads s;
  return s;
}

// Looks OpenBLAS up while it is not found yet (it may be loaded after the first region).
bool find_openblas(VendorThreads& s) {
  if (s.set) return true;
  void* h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_NOLOAD);
  if (!h) return false;
  auto get = reinterpret_cast<GetThreads>(dlsym(h, "openblas_get_num_threads"));
  auto set = reinterpret_cast<SetThreads>(dlsym(h, "openblas_set_num_threads"));
  // The plugin loaded it with RTLD_NODELETE: dropping the reference NOLOAD took keeps it.
  dlclose(h);
  if (!get || !set) return false;
  s.get = get;
  s.set = set;
  return true;
}

}  // namespace

extern "C" int32_t dace_cpu_vendor_threads_begin(int64_t points, int32_t num_threads) {
  const int32_t team = num_threads > 0 ? num_threads : dace_cpu_num_threads();
  // As dace_cpu_parallel_for: no team for one thread, one point, or inside a host's region.
  if (team <= 1 || points <= 1 || omp_get_active_level() >= omp_get_max_active_levels()) return 0;
  VendorThreads& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!find_openblas(s)) return 0;
  if (s.regions++ == 0) {
    s.saved = s.get();
    if (s.saved > 1) s.set(1);
  }
  return 1;
}

extern "C" void dace_cpu_vendor_threads_end(int32_t token) {
  if (token == 0) return;
  VendorThreads& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (--s.regions == 0 && s.saved > 1) s.set(s.saved);
}
