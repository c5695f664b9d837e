// The CPU plugin's handshake and registration.
//
// It contributes the precompiled runtime (runtime symbols for the JIT's closed-world table),
// its vendor libraries, the CPU_Multicore and CPU_Persistent schedules (lowering/multicore.h:
// outlined bodies calling the runtime's parallel_for), the OpenBLAS implementations of the
// BLAS library nodes (lowering/blas.h: CBLAS calls when libopenblas loaded; otherwise the
// core lowers the nodes as loop nests), the LAPACKE implementations of the LAPACK /
// linear-algebra nodes (lowering/lapack.h; without liblapacke those nodes are Unsupported),
// and the C++ tasklets of DaCe's OpenBLAS expansions (lowering/vendor_lowering.h).
#include <cstdint>
#include <memory>
#include <string_view>

#include "libdace_plugin.h"
#include "plugin/registry.h"
#include "lowering/blas.h"
#include "lowering/lapack.h"
#include "lowering/multicore.h"
#include "lowering/vendor_lowering.h"
#include "runtime/dace_cpu_runtime.h"

#ifndef LIBDACE_VERSION_STRING
#define LIBDACE_VERSION_STRING "0.0.0"
#endif

namespace {

struct Symbol {
  const char* name;
  void* address;
};

template <class Fn>
void* address_of(Fn* fn) {
  return reinterpret_cast<void*>(fn);
}

int32_t register_cpu(dace_plugin_registry_t* handle) {
  dace::plugin::Registry* registry = dace::plugin::Registry::from_handle(handle);
  if (registry == nullptr) return 1;

  const Symbol symbols[] = {
      {"dace_cpu_parallel_for", address_of(&dace_cpu_parallel_for)},
      {"dace_cpu_parallel_for_nd", address_of(&dace_cpu_parallel_for_nd)},
      {"dace_cpu_num_threads", address_of(&dace_cpu_num_threads)},
      {"dace_cpu_set_num_threads", address_of(&dace_cpu_set_num_threads)},
      {"dace_cpu_thread_num", address_of(&dace_cpu_thread_num)},
      {"dace_cpu_vendor_threads_begin", address_of(&dace_cpu_vendor_threads_begin)},
      {"dace_cpu_vendor_threads_end", address_of(&dace_cpu_vendor_threads_end)},
      {"dace_cpu_atomic_add_f64", address_of(&dace_cpu_atomic_add_f64)},
      {"dace_cpu_atomic_add_f32", address_of(&dace_cpu_atomic_add_f32)},
      {"dace_cpu_atomic_add_i64", address_of(&dace_cpu_atomic_add_i64)},
      {"dace_cpu_atomic_add_i32", address_of(&dace_cpu_atomic_add_i32)},
      {"dace_cpu_atomic_min_f64", address_of(&dace_cpu_atomic_min_f64)},
      {"dace_cpu_atomic_min_f32", address_of(&dace_cpu_atomic_min_f32)},
      {"dace_cpu_atomic_min_i64", address_of(&dace_cpu_atomic_min_i64)},
      {"dace_cpu_atomic_min_i32", address_of(&dace_cpu_atomic_min_i32)},
      {"dace_cpu_atomic_max_f64", address_of(&dace_cpu_atomic_max_f64)},
      {"dace_cpu_atomic_max_f32", address_of(&dace_cpu_atomic_max_f32)},
      {"dace_cpu_atomic_max_i64", address_of(&dace_cpu_atomic_max_i64)},
      {"dace_cpu_atomic_max_i32", address_of(&dace_cpu_atomic_max_i32)},
  };
  for (const Symbol& s : symbols)
    if (!registry->add_runtime_symbol(s.name, s.address).ok()) return 1;

  // libomp is linked by this plugin, so it is present whenever the plugin loaded; naming it
  // lets the JIT resolve __kmpc_*/omp_* for code that calls OpenMP directly. OpenBLAS is
  // optional: without it the BLAS expansions fall back to plain loops.
  if (!registry->add_vendor_library("libomp.so.5", true).ok()) return 1;
  if (!registry->add_vendor_library(dace::cpu::kOpenBlasLibrary, false).ok()) return 1;
  // LAPACKE is optional as well: without it LAPACK nodes are refused as Unsupported.
  if (!registry->add_vendor_library(dace::cpu::kLapackeLibrary, false).ok()) return 1;

  if (!dace::cpu::register_schedules(*registry).ok()) return 1;
  if (!dace::cpu::register_blas(*registry).ok()) return 1;
  if (!dace::cpu::register_lapack(*registry).ok()) return 1;
  if (!dace::cpu::register_cpp_tasklets(*registry).ok()) return 1;
  return 0;
}

const dace_plugin_info_t kInfo = {
    DACE_PLUGIN_ABI_VERSION, "cpu", LIBDACE_VERSION_STRING, DACE_PLUGIN_BUILD_ID, register_cpu,
};

}  // namespace

extern "C" const dace_plugin_info_t* dace_plugin_query(uint32_t abi_version) {
  return abi_version == DACE_PLUGIN_ABI_VERSION ? &kInfo : nullptr;
}
