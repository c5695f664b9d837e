/*
 * The CPU plugin's precompiled runtime: what JIT-compiled CPU code calls (DESIGN.md §6).
 *
 * A CPU_Multicore map is lowered to an outlined function over a sub-range of its iteration
 * space plus one call to dace_cpu_parallel_for, run by the runtime's own team of helper
 * threads (thread_pool.h); LLVM's libomp only supplies the default team size and the nesting
 * check, so JIT'd code never depends on the OpenMP runtime's ABI. The plugin registers every
 * function below as a runtime symbol under its own name (plugins/cpu/plugin.cpp).
 *
 * C ABI, usable from C99 and C++. All functions are thread-safe.
 */
#ifndef DACE_CPU_RUNTIME_H
#define DACE_CPU_RUNTIME_H

#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define DACE_CPU_API __attribute__((visibility("default")))
#else
#define DACE_CPU_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Scheduling policies, as in OpenMP. Unknown values behave as STATIC. */
#define DACE_CPU_SCHEDULE_STATIC 0
#define DACE_CPU_SCHEDULE_DYNAMIC 1
#define DACE_CPU_SCHEDULE_GUIDED 2

/* Most dimensions dace_cpu_parallel_for_nd accepts. */
#define DACE_CPU_MAX_DIMS 8

/* Return values of dace_cpu_parallel_for_nd. */
#define DACE_CPU_OK 0
#define DACE_CPU_EINVAL (-1) /* ndims outside 1..DACE_CPU_MAX_DIMS, or a NULL pointer */
#define DACE_CPU_ERANGE (-2) /* the iteration space has more than INT64_MAX points */

/* Runs body over the half-open range [begin, end), in sub-ranges, on up to num_threads
 * threads (0 = dace_cpu_num_threads()). Every index is covered exactly once. Returns after
 * all sub-ranges are done. A static piece whose owner has not started it when another member
 * is done with its own is run by that member, so which thread runs a piece can vary.
 *   chunk > 0:  STATIC hands out chunks of `chunk` indices round-robin by thread,
 *               DYNAMIC hands them out on demand, GUIDED hands out shrinking pieces of at
 *               least `chunk` indices (proportional to the remaining work).
 *   chunk <= 0: STATIC gives each thread one contiguous block of nearly equal size,
 *               DYNAMIC uses chunks of ceil(n / (8 * threads)), GUIDED a minimum of 1.
 * An empty range (end <= begin) calls nothing. With one thread, inside a parallel region
 * that cannot nest, or with a single index, body runs once on the whole range in the
 * calling thread. body must not throw. */
typedef void (*dace_cpu_range_fn)(void* closure, int64_t begin, int64_t end);
DACE_CPU_API void dace_cpu_parallel_for(dace_cpu_range_fn body, void* closure, int64_t begin,
                                        int64_t end, int64_t chunk, int32_t schedule,
                                        int32_t num_threads);

/* The collapsed form for perfectly nested maps: the box [begin[d], end[d]) for d < ndims is
 * linearized in row-major order, split as in dace_cpu_parallel_for (chunk counts points of
 * the whole box), and each piece reaches body as a few rectangular sub-boxes
 * lo[d] <= i_d < hi[d] (at most 2*ndims-1 per piece, in row-major order). The inner
 * dimension thus stays a plain loop that LLVM can vectorize. Returns DACE_CPU_OK or an error
 * code above (then body is not called). An empty dimension calls nothing. */
typedef void (*dace_cpu_box_fn)(void* closure, const int64_t* lo, const int64_t* hi);
DACE_CPU_API int32_t dace_cpu_parallel_for_nd(dace_cpu_box_fn body, void* closure,
                                              int32_t ndims, const int64_t* begin,
                                              const int64_t* end, int64_t chunk,
                                              int32_t schedule, int32_t num_threads);

/* Default team size: the value last set, else OpenMP's (OMP_NUM_THREADS or the cores). */
DACE_CPU_API int32_t dace_cpu_num_threads(void);
/* Sets the default team size for all threads; n <= 0 restores OpenMP's default. */
DACE_CPU_API void dace_cpu_set_num_threads(int32_t n);
/* 0-based id of the calling thread in the innermost team (0 outside parallel code). */
DACE_CPU_API int32_t dace_cpu_thread_num(void);

/* A vendor library's own threads inside a team. A parallel_for whose body calls OpenBLAS
 * would have every member's call wake OpenBLAS's own worker threads too (team x OpenBLAS
 * threads on the cores). Called around such a parallel_for with its point count and
 * num_threads: when a team would run (more than one thread and one point), OpenBLAS runs
 * single-threaded until the matching end, process-wide (OpenBLAS 0.3.21 has one thread count
 * for all callers), and its previous count comes back after the last overlapping region.
 * Returns the token for end: 0 when nothing was changed (no team, or OpenBLAS not loaded). */
DACE_CPU_API int32_t dace_cpu_vendor_threads_begin(int64_t points, int32_t num_threads);
DACE_CPU_API void dace_cpu_vendor_threads_end(int32_t token);

/* Atomic read-modify-write for write-conflict resolution; each returns the old value.
 * min/max store `value` only when it compares strictly less (greater) than the stored
 * value, so a NaN value never replaces anything. */
DACE_CPU_API double dace_cpu_atomic_add_f64(double* target, double value);
DACE_CPU_API float dace_cpu_atomic_add_f32(float* target, float value);
DACE_CPU_API int64_t dace_cpu_atomic_add_i64(int64_t* target, int64_t value);
DACE_CPU_API int32_t dace_cpu_atomic_add_i32(int32_t* target, int32_t value);
DACE_CPU_API double dace_cpu_atomic_min_f64(double* target, double value);
DACE_CPU_API float dace_cpu_atomic_min_f32(float* target, float value);
DACE_CPU_API int64_t dace_cpu_atomic_min_i64(int64_t* target, int64_t value);
DACE_CPU_API int32_t dace_cpu_atomic_min_i32(int32_t* target, int32_t value);
DACE_CPU_API double dace_cpu_atomic_max_f64(double* target, double value);
DACE_CPU_API float dace_cpu_atomic_max_f32(float* target, float value);
DACE_CPU_API int64_t dace_cpu_atomic_max_i64(int64_t* target, int64_t value);
DACE_CPU_API int32_t dace_cpu_atomic_max_i32(int32_t* target, int32_t value);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DACE_CPU_RUNTIME_H */
