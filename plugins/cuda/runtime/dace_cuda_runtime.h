/* The CUDA plugin's runtime: what host code generated for GPU programs calls (registered as
 * runtime symbols for the JIT). Device pointers travel as void*. Every function returns 0 on
 * success; on failure it records the first error of the process (dace_cuda_error) and later
 * calls do nothing, so one missing driver or failed launch is reported once, never crashes. */
#ifndef DACE_CUDA_RUNTIME_H
#define DACE_CUDA_RUNTIME_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Loads the driver and makes device 0's primary context current on this thread. */
int32_t dace_cuda_init(void);
/* The first error recorded, or "" when none. */
const char* dace_cuda_error(void);
/* "`operation`: <the first error recorded>": the status text of a generated call whose runtime
 * call failed (`operation` names it and its SDFG element). The text stays valid for the rest of
 * the process (each distinct one is kept once). */
const char* dace_cuda_error_at(const char* operation);
/* A description of the device ("NVIDIA H100 80GB HBM3, sm_90, driver 13.0") or of why there
 * is none ("no CUDA driver: ..."). */
const char* dace_cuda_status(void);

void* dace_cuda_malloc(int64_t bytes); /* NULL on failure */
/* Device blocks freed here wait, after the device has finished its work, in a pool for a later
 * dace_cuda_malloc of the same size (rounded up to 512 bytes) instead of going back to the
 * driver: up to DACE_CUDA_POOL_BYTES bytes (default 2 GiB; 0: none), the oldest released first.
 * An allocation the driver refuses releases the pool and is tried once more. */
int32_t dace_cuda_free(void* device);
/* Releases every pooled block to the driver; returns their bytes. */
int64_t dace_cuda_pool_trim(void);
/* Bytes of device memory the pool holds now. */
int64_t dace_cuda_pool_bytes(void);

/* CPU_Pinned memory (host memory the device copies from and to without staging): page-locked
 * through the driver (cuMemAllocHost) where a CUDA device is usable, else ordinary host memory
 * (64-byte aligned), so that a program whose host code uses CPU_Pinned still runs without a
 * GPU; neither case records an error. NULL only when the host is out of memory or `bytes` is
 * negative. dace_cuda_free_host frees either kind (NULL: nothing). */
void* dace_cuda_malloc_host(int64_t bytes);
int32_t dace_cuda_free_host(void* host);
/* 1 when the driver reports `host` as page-locked host memory (CU_MEMORYTYPE_HOST), 0 when it
 * does not or there is no usable device. */
int32_t dace_cuda_is_page_locked(const void* host);

/* A GPU_Global array argument on entry: `caller` itself when it is device memory (a device
 * pointer passed through __cuda_array_interface__ or the C API: no copy), else a new device
 * block holding a copy of the `bytes` at `caller` (NULL on failure). */
void* dace_cuda_argument_in(void* caller, int64_t bytes);
/* On exit: when `device` is a copy, copies it back to `caller` and frees it; else nothing. */
int32_t dace_cuda_argument_out(void* caller, void* device, int64_t bytes);
/* On exit from a call that failed: frees `device` when it is a mirror of `caller`, copying
 * nothing back, so the caller's array keeps what it held; nothing when it is the caller's own. */
int32_t dace_cuda_argument_discard(void* caller, void* device);

enum { DACE_CUDA_HOST_TO_DEVICE = 1, DACE_CUDA_DEVICE_TO_HOST = 2, DACE_CUDA_DEVICE_TO_DEVICE = 3 };
int32_t dace_cuda_copy(void* dst, const void* src, int64_t bytes, int32_t kind);
/* `height` rows of `width_bytes`, rows `dst_pitch` / `src_pitch` bytes apart. */
int32_t dace_cuda_copy_2d(void* dst, int64_t dst_pitch, const void* src, int64_t src_pitch, int64_t width_bytes,
                          int64_t height, int32_t kind);
int32_t dace_cuda_memset(void* dst, int32_t byte, int64_t bytes);

/* Launches `kernel` of the PTX module `ptx` (NUL-terminated; loaded once per process and
 * text address) on the default stream. `params` points to one pointer per kernel parameter.
 * An empty grid launches nothing. */
int32_t dace_cuda_launch(const char* ptx, const char* kernel, int64_t grid_x, int64_t grid_y, int64_t grid_z,
                         int64_t block_x, int64_t block_y, int64_t block_z, int32_t shared_bytes, void** params);
int32_t dace_cuda_synchronize(void);
/* A cooperative launch (cuLaunchCooperativeKernel) of a kernel whose blocks wait for each other
 * at grid barriers, queued on `stream` (NULL: the default stream): all its blocks must be
 * resident at once. A grid of more blocks than the device holds for this kernel (registers
 * and shared memory counted: cuOccupancyMaxActiveBlocksPerMultiprocessor x multiprocessors)
 * is launched with that many instead, when it is 1-D: such kernels walk their points in
 * strides of the grid they run with. Fails, naming the kernel, on a device without
 * cooperative launches or when not one block of it fits a multiprocessor. */
int32_t dace_cuda_launch_cooperative(void* stream, const char* ptx, const char* kernel, int64_t grid_x,
                                     int64_t grid_y, int64_t grid_z, int64_t block_x, int64_t block_y,
                                     int64_t block_z, int32_t shared_bytes, void** params);
/* Raises the per-thread stack of the device's kernels (cuCtxSetLimit(CU_LIMIT_STACK_SIZE)) to
 * `bytes` when it is smaller; never lowers it. Called before launching a kernel whose threads
 * hold stack arrays (the driver's default, 1 KiB, is too small for large ones). */
/* More than CUDA's documented local memory per thread (512 KiB) is refused before the driver
 * is asked, without making the error sticky: the status names the bytes. */
#define DACE_CUDA_MAX_STACK_BYTES (512 * 1024)
int32_t dace_cuda_reserve_stack(int64_t bytes);
/* Blocks of `block_threads` threads that the device keeps resident at once: multiprocessors
 * x (threads per multiprocessor / block_threads), at least one per multiprocessor; the grid
 * of a GPU_Persistent kernel. 0 on failure (the runtime's error says why). */
int64_t dace_cuda_persistent_blocks(int64_t block_threads);

/* Streams and events (docs/cuda.md "Streams and events"). A program that runs independent
 * work concurrently creates its streams and events at init and destroys them at exit; a NULL
 * stream is the default stream. Streams are created blocking (CU_STREAM_DEFAULT): work on
 * the default stream (argument copies, work left there) waits for theirs and theirs for it,
 * so only work on two created streams overlaps. The host still synchronizes a stream before
 * it reads what a copy to host memory queued there wrote. Waiting on an event that was never
 * recorded, and using a handle that is not live, is an error of the generated code: the call
 * fails with the status naming it (CUDA itself would let such a wait pass), but the runtime
 * stays usable (the refusal is not the process's sticky error; dace_cuda_error_at reports it).
 * Creation returns 0 with the handle in `*out`, or nonzero with `*out` NULL: a created handle
 * is never NULL, which would be the default stream. Other entries: 0 / nonzero on failure. */
int32_t dace_cuda_stream_create(void** out);
int32_t dace_cuda_stream_destroy(void* stream);
int32_t dace_cuda_event_create(void** out);
int32_t dace_cuda_event_destroy(void* event);
/* A program's streams and events, made in its init: `streams` streams, then `events` events,
 * their handles in consecutive slots of the returned array (stream i at [i], event j at
 * [streams + j]). NULL on failure, after destroying what it had created (nothing leaks). */
void** dace_cuda_streams_create(int32_t streams, int32_t events);
/* Destroys a set dace_cuda_streams_create made (all of it, also when one destruction fails). */
int32_t dace_cuda_streams_destroy(void** set);
/* The event completes when the work queued on `stream` so far has. */
int32_t dace_cuda_event_record(void* event, void* stream);
/* Work queued on `stream` after this call starts once `event` (recorded before) completed. */
int32_t dace_cuda_stream_wait_event(void* stream, void* event);
/* The host waits for the work queued on `stream`; a failure of that work is the status. */
int32_t dace_cuda_stream_synchronize(void* stream);
/* dace_cuda_launch / copy / copy_2d queued on `stream` (NULL: the default stream, which is what
 * the entries above without a stream use). Copies to host memory are complete only after the
 * stream is synchronized. `param_count` is the number of entries of `params` (the emulated
 * device checks the device memory they point to; the driver does not need it). */
int32_t dace_cuda_launch_on(void* stream, const char* ptx, const char* kernel, int64_t grid_x, int64_t grid_y,
                            int64_t grid_z, int64_t block_x, int64_t block_y, int64_t block_z, int32_t shared_bytes,
                            void** params, int32_t param_count);
int32_t dace_cuda_copy_on(void* stream, void* dst, const void* src, int64_t bytes, int32_t kind);
int32_t dace_cuda_copy_2d_on(void* stream, void* dst, int64_t dst_pitch, const void* src, int64_t src_pitch,
                             int64_t width_bytes, int64_t height, int32_t kind);

enum { DACE_CUDA_FLOAT32 = 0, DACE_CUDA_FLOAT64 = 1, DACE_CUDA_COMPLEX64 = 2, DACE_CUDA_COMPLEX128 = 3 };
/* C (m x n) = alpha * A (m x k) * B (k x n) + beta * C, all in device memory, element (i, j)
 * of X at X + i * x_rs + j * x_cs (elements), through cuBLAS (libcublas opened at the first
 * call; runtime/gemm_plan.h maps the strides onto one column-major gemm). Complex elements
 * (interleaved real and imaginary parts, C99's and NumPy's layout) go to cublasCgemm /
 * cublasZgemm with the real factors alpha + 0i and beta + 0i; transposes are plain, never
 * conjugate. */
int32_t dace_cuda_gemm(int32_t type, int64_t m, int64_t n, int64_t k, double alpha, const void* a, int64_t a_rs,
                       int64_t a_cs, const void* b, int64_t b_rs, int64_t b_cs, double beta, void* c, int64_t c_rs,
                       int64_t c_cs);
/* dace_cuda_gemm queued on `stream` (cublasSetStream before the call; NULL: the default stream). */
int32_t dace_cuda_gemm_on(void* stream, int32_t type, int64_t m, int64_t n, int64_t k, double alpha, const void* a,
                          int64_t a_rs, int64_t a_cs, const void* b, int64_t b_rs, int64_t b_cs, double beta, void* c,
                          int64_t c_rs, int64_t c_cs);
/* "cuBLAS <version> (<library>)" when libcublas can be opened, else why not; no device needed. */
const char* dace_cuda_blas_status(void);

#ifdef __cplusplus
}
#endif
#endif
