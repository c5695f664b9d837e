/* The CUDA plugin's emulated device (docs/cuda.md): the runtime entry points of
 * dace_cuda_runtime.h for programs compiled with emulate_device / DACE_CUDA_EMULATE=1, whose
 * kernels were built for the host. The lowering redirects each dace_cuda_X the host code
 * calls to dace_cuda_emu_X (same signature). Device memory is host memory, copies and memsets
 * are memcpy and memset, a launch runs the grid's blocks one after the other on the calling
 * thread. No driver is needed. */
#ifndef DACE_CUDA_EMULATION_H
#define DACE_CUDA_EMULATION_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

int32_t dace_cuda_emu_init(void);
const char* dace_cuda_emu_error(void);
const char* dace_cuda_emu_status(void);
void* dace_cuda_emu_malloc(int64_t bytes);
int32_t dace_cuda_emu_free(void* device);
/* dace_cuda_malloc_host / free_host: ordinary host memory (64-byte aligned); NULL for a negative
 * size or out of memory. dace_cuda_emu_host_allocations counts the blocks handed out so far. */
void* dace_cuda_emu_malloc_host(int64_t bytes);
int32_t dace_cuda_emu_free_host(void* host);
int64_t dace_cuda_emu_host_allocations(void);
/* Device memory is what dace_cuda_emu_malloc returned (and not yet freed): an argument
 * inside such a block is used in place, any other is copied (dace_cuda_argument_in/out). */
void* dace_cuda_emu_argument_in(void* caller, int64_t bytes);
int32_t dace_cuda_emu_argument_out(void* caller, void* device, int64_t bytes);
int32_t dace_cuda_emu_argument_discard(void* caller, void* device);
/* How many arguments the emulated runtime has copied in so far (tests tell copy from none). */
int64_t dace_cuda_emu_arguments_copied(void);
int32_t dace_cuda_emu_copy(void* dst, const void* src, int64_t bytes, int32_t kind);
int32_t dace_cuda_emu_copy_2d(void* dst, int64_t dst_pitch, const void* src, int64_t src_pitch, int64_t width_bytes,
                              int64_t height, int32_t kind);
int32_t dace_cuda_emu_memset(void* dst, int32_t byte, int64_t bytes);
/* `ptx` is NULL and `kernel` the address of the emulated kernel, `void kernel(void** params)`,
 * which the launch calls once per block (z, y, x order) with dace_cuda_emu_block_index set. */
int32_t dace_cuda_emu_launch(const char* ptx, const char* kernel, int64_t grid_x, int64_t grid_y, int64_t grid_z,
                             int64_t block_x, int64_t block_y, int64_t block_z, int32_t shared_bytes, void** params);
int32_t dace_cuda_emu_synchronize(void);
/* dace_cuda_launch_cooperative: a 1-D grid of more than DACE_CUDA_EMU_PERSISTENT_BLOCKS blocks
 * runs with that many. Each block runs on a thread of its own, one block at a time: the turn
 * passes to the next block at each dace_cuda_emu_grid_sync and when a block ends, so all
 * blocks finish a phase before any starts the next. Blocks that reach different numbers of
 * barriers (which would hang a GPU) fail the launch. */
int32_t dace_cuda_emu_launch_cooperative(void* stream, const char* ptx, const char* kernel, int64_t grid_x,
                                         int64_t grid_y, int64_t grid_z, int64_t block_x, int64_t block_y,
                                         int64_t block_z, int32_t shared_bytes, void** params);
/* The grid barrier of an emulated cooperative kernel (called by the kernel; outside such a
 * launch it records an error). */
void dace_cuda_emu_grid_sync(void);
/* The grid (x, y, z) of the launch the calling thread is running. */
const int64_t* dace_cuda_emu_grid_dim(void);
/* dace_cuda_gemm on host memory: the same cuBLAS call plan, run by host loops. */
int32_t dace_cuda_emu_gemm(int32_t type, int64_t m, int64_t n, int64_t k, double alpha, const void* a, int64_t a_rs,
                           int64_t a_cs, const void* b, int64_t b_rs, int64_t b_cs, double beta, void* c, int64_t c_rs,
                           int64_t c_cs);
/* Streams and events of the emulated device: work runs in call order on the calling thread,
 * but the handles are checked as the real runtime checks them (an event waited on must have
 * been recorded, handles must be live: runtime/stream_book.h; a misuse is refused, not
 * sticky), and so is the order a device could run the work in (docs/cuda.md "Ordering
 * check"): a launch, copy or product on a created stream that reads or writes a device block
 * another created stream accessed, with neither an event wait nor a host synchronization in
 * between, fails (sticky, as a fault would be); a copy to host memory queued on a created
 * stream reaches the host only when that stream (or the device) is synchronized, so host
 * code that reads it earlier reads the old data. Handles are distinct non-null tokens. */
int32_t dace_cuda_emu_stream_create(void** out);
int32_t dace_cuda_emu_stream_destroy(void* stream);
int32_t dace_cuda_emu_event_create(void** out);
void** dace_cuda_emu_streams_create(int32_t streams, int32_t events);
int32_t dace_cuda_emu_streams_destroy(void** set);
int32_t dace_cuda_emu_event_destroy(void* event);
int32_t dace_cuda_emu_event_record(void* event, void* stream);
int32_t dace_cuda_emu_stream_wait_event(void* stream, void* event);
int32_t dace_cuda_emu_stream_synchronize(void* stream);
int32_t dace_cuda_emu_launch_on(void* stream, const char* ptx, const char* kernel, int64_t grid_x, int64_t grid_y,
                                int64_t grid_z, int64_t block_x, int64_t block_y, int64_t block_z,
                                int32_t shared_bytes, void** params, int32_t param_count);
int32_t dace_cuda_emu_copy_on(void* stream, void* dst, const void* src, int64_t bytes, int32_t kind);
int32_t dace_cuda_emu_copy_2d_on(void* stream, void* dst, int64_t dst_pitch, const void* src, int64_t src_pitch,
                                 int64_t width_bytes, int64_t height, int32_t kind);
int32_t dace_cuda_emu_gemm_on(void* stream, int32_t type, int64_t m, int64_t n, int64_t k, double alpha,
                              const void* a, int64_t a_rs, int64_t a_cs, const void* b, int64_t b_rs, int64_t b_cs,
                              double beta, void* c, int64_t c_rs, int64_t c_cs);
/* Streams and events created and not yet destroyed (tests check a program's exit path). */
int64_t dace_cuda_emu_live_streams(void);
int64_t dace_cuda_emu_live_events(void);
/* The index (x, y, z) of the block the calling thread's launch is running. */
const int64_t* dace_cuda_emu_block_index(void);
const char* dace_cuda_emu_error_at(const char* operation);
/* Keeps the largest per-thread stack asked for (the emulated CU_LIMIT_STACK_SIZE, starting
 * at the driver's default of 1024 bytes); kernels run on the host's stack. */
int32_t dace_cuda_emu_reserve_stack(int64_t bytes);
/* The emulated device has DACE_CUDA_EMU_PERSISTENT_BLOCKS resident blocks whatever the block
 * size, few enough that a GPU_Persistent kernel's threads take several grid strides. */
#define DACE_CUDA_EMU_PERSISTENT_BLOCKS 3
int64_t dace_cuda_emu_persistent_blocks(int64_t block_threads);
int64_t dace_cuda_emu_stack_limit(void);

/* Fault injection (tests of the generated code's failure paths): the call `skip` + 1 from now
 * of dace_cuda_emu_`entry` ("malloc", "copy", "copy_2d", "memset", "free", "argument_in",
 * "argument_out", "malloc_host", "launch", "synchronize", "gemm", "reserve_stack", "stream_create", "event_create",
 * "event_record", "stream_wait_event", "stream_synchronize") fails as the driver's would: it does
 * nothing, returns its failure value and records "dace_cuda_<entry>: injected failure" as
 * the error, replacing any earlier one. From then on every one of those entries fails (the
 * real runtime's errors are sticky), until `entry` NULL cancels the injection and clears the
 * failure and the recorded error. */
void dace_cuda_emu_inject_failure(const char* entry, int64_t skip);
/* The same for a failure that leaves the device usable, as the driver's out-of-memory or
 * launch-too-large errors do (not sticky): that one call fails and records
 * "dace_cuda_<entry>: injected recoverable failure (emulated device)" as the status text of
 * the call (dace_cuda_emu_error_at); every other call goes on. */
void dace_cuda_emu_inject_recoverable_failure(const char* entry, int64_t skip);

#ifdef __cplusplus
}
#endif
#endif
