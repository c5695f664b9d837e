#include "runtime/dace_cuda_emulation.h"
#include "runtime/dace_cuda_runtime.h"

#include "runtime/gemm_plan.h"
#include "runtime/stream_book.h"
#include "runtime/stream_set.h"
#include "runtime/emulated_order.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <complex>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace {

// cudaMalloc's alignment, so that code relying on it behaves the same.
constexpr int64_t kAlignment = 256;

thread_local int64_t block_index[3] = {0, 0, 0};
thread_local int64_t grid_dim[3] = {1, 1, 1};

// A cooperative launch: each block runs on a thread of its own, but only the block holding
// the turn runs; it hands the turn on at each grid barrier and when it ends, in block order.
// So every block finishes a phase before any starts the next (what the device's barrier
// guarantees), deterministically, and a kernel missing a barrier reads what the blocks after
// it have not written yet.
struct GridRun {
  std::mutex mutex;
  std::condition_variable turn_changed;
  int64_t blocks = 0;
  int64_t turn = 0;
  std::vector<bool> finished;
  std::vector<int64_t> barriers;  // grid barriers each block reached
};
thread_local GridRun* current_grid = nullptr;
thread_local int64_t current_rank = 0;

// Gives the turn to the next block (in a ring) that has not finished.
void pass_turn(GridRun& g, int64_t from) {
  for (int64_t k = 1; k <= g.blocks; ++k) {
    const int64_t next = (from + k) % g.blocks;
    if (!g.finished[static_cast<size_t>(next)]) {
      g.turn = next;
      break;
    }
  }
  g.turn_changed.notify_all();
}

// The emulated device's memory: blocks dace_cuda_emu_malloc handed out (start -> bytes), so
// an argument pointing into one is device memory, used in place.
struct Blocks {
  std::mutex mutex;
  std::map<uintptr_t, int64_t> live;
  int64_t copied_arguments = 0;
  int64_t host_allocations = 0;  // dace_cuda_emu_malloc_host calls that returned memory
};

Blocks& blocks() {
  static Blocks b;
  return b;
}

bool is_device_memory(const void* p) {
  Blocks& b = blocks();
  std::lock_guard<std::mutex> lock(b.mutex);
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto it = b.live.upper_bound(a);
  if (it == b.live.begin()) return false;
  --it;
  return a < it->first + static_cast<uintptr_t>(std::max<int64_t>(it->second, 1));
}

struct Errors {
  std::mutex mutex;
  std::string first;
  std::set<std::string> messages;  // dace_cuda_emu_error_at's texts (stable addresses)
  std::string injected_entry;      // dace_cuda_emu_inject_failure: the entry that fails ...
  int64_t injected_skip = 0;       // ... after this many more calls of it
  bool poisoned = false;           // an injected failure happened: every later call fails
  bool recoverable = false;        // the injected failure leaves the device usable (one call fails)
  std::string refusal;             // the last refused request that left the device usable
};

Errors& errors() {
  static Errors e;
  return e;
}

int32_t fail(const std::string& what) {
  Errors& e = errors();
  std::lock_guard<std::mutex> lock(e.mutex);
  if (e.first.empty()) {
    e.first = what;
    std::fprintf(stderr, "libdace cuda (emulated): %s\n", what.c_str());
  }
  return 1;
}

// Whether this call of `entry` fails by injection: it is the one dace_cuda_emu_inject_failure
// asked to fail (its error is recorded, replacing an earlier one, and the injection used up),
// or one after it (a real driver's errors are sticky too; the runtime's entries then fail).
bool injected(const char* entry) {
  Errors& e = errors();
  std::lock_guard<std::mutex> lock(e.mutex);
  if (e.poisoned) return true;
  if (e.injected_entry != entry) return false;
  if (e.injected_skip-- > 0) return false;
  e.injected_entry.clear();
  if (e.recoverable) {  // this call only, as the driver's non-sticky errors
    e.refusal = std::string("dace_cuda_") + entry + ": injected recoverable failure (emulated device)";
    std::fprintf(stderr, "libdace cuda (emulated): %s\n", e.refusal.c_str());
    return true;
  }
  e.poisoned = true;
  e.first = std::string("dace_cuda_") + entry + ": injected failure (emulated device)";
  std::fprintf(stderr, "libdace cuda (emulated): %s\n", e.first.c_str());
  return true;
}

// Live streams and events of the emulated device. Handles are tokens from a counter (never
// dereferenced), distinct from each other and from null, the default stream.
struct Streams {
  std::mutex mutex;
  dace::cuda::StreamBook book;
  uintptr_t next_token = 0x5000;
  dace::cuda::EmulatedOrder order;
  // Copies to host memory queued on a created stream: the bytes as the copy read them, written
  // to the host when the host synchronizes that stream (or the device).
  struct HostWrite {
    const void* stream;
    char* dst;
    std::string bytes;
  };
  std::vector<HostWrite> host_writes;
};

Streams& streams() {
  static Streams s;
  return s;
}

// The start of the device block holding `p`, or 0 for host memory.
uintptr_t block_of(const void* p) {
  Blocks& b = blocks();
  std::lock_guard<std::mutex> lock(b.mutex);
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto it = b.live.upper_bound(a);
  if (it == b.live.begin()) return 0;
  --it;
  return a < it->first + static_cast<uintptr_t>(std::max<int64_t>(it->second, 1)) ? it->first : 0;
}

int64_t block_bytes(uintptr_t start) {
  Blocks& b = blocks();
  std::lock_guard<std::mutex> lock(b.mutex);
  auto it = b.live.find(start);
  return it == b.live.end() ? 0 : it->second;
}

// The host's copies queued on `stream` (all of them for null) reach host memory.
void deliver_host_writes(Streams& s, const void* stream) {
  auto& w = s.host_writes;
  for (const auto& h : w)
    if (!stream || h.stream == stream) std::memcpy(h.dst, h.bytes.data(), h.bytes.size());
  w.erase(std::remove_if(w.begin(), w.end(), [&](const auto& h) { return !stream || h.stream == stream; }), w.end());
}

// Work on the default stream: ordered with all other work; `synchronous` ones (copies,
// memsets) also return only when earlier work is done, so queued host writes arrive first.
void default_stream_work(bool synchronous) {
  Streams& s = streams();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.order.barrier();
  if (synchronous) deliver_host_writes(s, nullptr);
}

// Checks the accesses of work on created stream `stream` (reads, then writes) against the
// ordering book; records a hazard as the (sticky) error of `entry`. Returns 0 when ordered.
int32_t ordered_access(const char* entry, const void* stream, const std::vector<uintptr_t>& reads,
                       const std::vector<uintptr_t>& writes) {
  std::string bad;
  {
    Streams& s = streams();
    std::lock_guard<std::mutex> lock(s.mutex);
    for (uintptr_t b : reads)
      if (b && bad.empty()) bad = s.order.access(stream, b, false);
    for (uintptr_t b : writes)
      if (b && bad.empty()) bad = s.order.access(stream, b, true);
  }
  return bad.empty() ? 0 : fail(std::string("dace_cuda_") + entry + ": " + bad);
}

void* new_token(bool stream) {
  Streams& s = streams();
  std::lock_guard<std::mutex> lock(s.mutex);
  void* token = reinterpret_cast<void*>(s.next_token);
  s.next_token += 0x10;
  if (stream) s.book.add_stream(token); else s.book.add_event(token);
  return token;
}

// 0 when `check` (run on the book under its lock) accepts the use, else refuses the call: the
// status text names the misuse (dace_cuda_emu_error_at), but, as in the real runtime, it is
// not the sticky error (nothing reached the device).
template <class Check>
int32_t checked(const char* entry, Check check) {
  std::string bad;
  {
    Streams& s = streams();
    std::lock_guard<std::mutex> lock(s.mutex);
    bad = check(s.book);
  }
  if (bad.empty()) return 0;
  Errors& e = errors();
  std::lock_guard<std::mutex> lock(e.mutex);
  e.refusal = std::string("dace_cuda_") + entry + ": " + bad;
  std::fprintf(stderr, "libdace cuda (emulated): %s\n", e.refusal.c_str());
  return 1;
}

std::mutex stack_mutex;
int64_t stack_limit = 1024;  // the driver's default CU_LIMIT_STACK_SIZE

}  // namespace

extern "C" {

int32_t dace_cuda_emu_init(void) { return 0; }

const char* dace_cuda_emu_error(void) {
  Errors& e = errors();
  std::lock_guard<std::mutex> lock(e.mutex);
  return e.first.c_str();
}

const char* dace_cuda_emu_status(void) { return "emulated device (host memory, kernels run on the host)"; }

void* dace_cuda_emu_malloc(int64_t bytes) {
  if (injected("malloc")) return nullptr;
  if (bytes < 0) {
    fail("malloc of a negative size");
    return nullptr;
  }
  const int64_t rounded = (std::max<int64_t>(bytes, 1) + kAlignment - 1) / kAlignment * kAlignment;
  void* p = std::aligned_alloc(static_cast<size_t>(kAlignment), static_cast<size_t>(rounded));
  if (!p) {
    fail("out of host memory for " + std::to_string(bytes) + " bytes of device memory");
    return p;
  }
  Blocks& b = blocks();
  std::lock_guard<std::mutex> lock(b.mutex);
  b.live[reinterpret_cast<uintptr_t>(p)] = bytes;
  return p;
}

int32_t dace_cuda_emu_free(void* device) {
  if (injected("free")) return 1;
  default_stream_work(true);  // cuMemFree waits for the device
  if (device) {
    {
      Streams& s = streams();
      std::lock_guard<std::mutex> lock(s.mutex);
      s.order.forget_block(reinterpret_cast<uintptr_t>(device));
    }
    Blocks& b = blocks();
    std::lock_guard<std::mutex> lock(b.mutex);
    b.live.erase(reinterpret_cast<uintptr_t>(device));
  }
  std::free(device);
  return 0;
}

void* dace_cuda_emu_argument_in(void* caller, int64_t bytes) {
  if (injected("argument_in")) return nullptr;
  default_stream_work(true);
  if (is_device_memory(caller)) return caller;
  void* device = dace_cuda_emu_malloc(bytes);
  if (!device) return nullptr;
  if (bytes > 0) std::memcpy(device, caller, static_cast<size_t>(bytes));
  Blocks& b = blocks();
  std::lock_guard<std::mutex> lock(b.mutex);
  ++b.copied_arguments;
  return device;
}

int32_t dace_cuda_emu_argument_discard(void* caller, void* device) {
  if (device == caller || !device) return 0;
  return dace_cuda_emu_free(device);
}

int32_t dace_cuda_emu_argument_out(void* caller, void* device, int64_t bytes) {
  if (injected("argument_out")) return 1;
  default_stream_work(true);
  if (device == caller || !device) return 0;
  if (bytes > 0) std::memcpy(caller, device, static_cast<size_t>(bytes));
  return dace_cuda_emu_free(device);
}

// CPU_Pinned memory on the emulated device: ordinary host memory (nothing to lock without a
// driver), counted so that tests can tell it from the core's heap.
void* dace_cuda_emu_malloc_host(int64_t bytes) {
  if (injected("malloc_host") || bytes < 0) return nullptr;
  const int64_t rounded = (std::max<int64_t>(bytes, 1) + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, static_cast<size_t>(rounded));
  if (p) {
    // Like cuMemAllocHost's, the block holds no particular value: code that reads it before
    // writing (or without its zero-initialization) sees garbage, not a lucky zero.
    std::memset(p, 0xff, static_cast<size_t>(rounded));  // NaN in floating point, -1 in integers
    Blocks& b = blocks();
    std::lock_guard<std::mutex> lock(b.mutex);
    ++b.host_allocations;
  }
  return p;
}

int32_t dace_cuda_emu_free_host(void* host) {
  std::free(host);
  return 0;
}

int64_t dace_cuda_emu_host_allocations(void) {
  Blocks& b = blocks();
  std::lock_guard<std::mutex> lock(b.mutex);
  return b.host_allocations;
}

int64_t dace_cuda_emu_arguments_copied(void) {
  Blocks& b = blocks();
  std::lock_guard<std::mutex> lock(b.mutex);
  return b.copied_arguments;
}

int32_t dace_cuda_emu_copy(void* dst, const void* src, int64_t bytes, int32_t) {
  if (injected("copy")) return 1;
  default_stream_work(true);
  if (bytes < 0) return fail("copy of a negative size");
  if (bytes > 0) std::memmove(dst, src, static_cast<size_t>(bytes));
  return 0;
}

int32_t dace_cuda_emu_copy_2d(void* dst, int64_t dst_pitch, const void* src, int64_t src_pitch, int64_t width_bytes,
                              int64_t height, int32_t) {
  if (injected("copy_2d")) return 1;
  default_stream_work(true);
  if (width_bytes < 0 || height < 0) return fail("2-D copy of a negative size");
  for (int64_t r = 0; r < height; ++r)
    std::memmove(static_cast<char*>(dst) + r * dst_pitch, static_cast<const char*>(src) + r * src_pitch,
                 static_cast<size_t>(width_bytes));
  return 0;
}

int32_t dace_cuda_emu_memset(void* dst, int32_t byte, int64_t bytes) {
  if (injected("memset")) return 1;
  default_stream_work(true);
  if (bytes < 0) return fail("memset of a negative size");
  if (bytes > 0) std::memset(dst, byte, static_cast<size_t>(bytes));
  return 0;
}

// The grid's blocks one after the other on the calling thread.
static int32_t run_blocks(const char* kernel, int64_t grid_x, int64_t grid_y, int64_t grid_z, void** params) {
  if (!kernel) return fail("launch without a kernel");
  void (*fn)(void**) = nullptr;
  static_assert(sizeof(fn) == sizeof(kernel), "function and data pointers differ in size");
  std::memcpy(&fn, &kernel, sizeof(fn));
  grid_dim[0] = grid_x;
  grid_dim[1] = grid_y;
  grid_dim[2] = grid_z;
  for (int64_t z = 0; z < grid_z; ++z)
    for (int64_t y = 0; y < grid_y; ++y)
      for (int64_t x = 0; x < grid_x; ++x) {
        block_index[0] = x;
        block_index[1] = y;
        block_index[2] = z;
        fn(params);
      }
  return 0;
}

int32_t dace_cuda_emu_launch_cooperative(void* stream, const char*, const char* kernel, int64_t grid_x, int64_t grid_y,
                                         int64_t grid_z, int64_t, int64_t, int64_t, int32_t, void** params) {
  if (injected("launch")) return 1;
  if (checked("launch_cooperative", [&](dace::cuda::StreamBook& b) { return b.use_stream(stream); })) return 1;
  if (!stream) default_stream_work(false);  // ordered with all work queued before it
  if (!kernel) return fail("cooperative launch without a kernel");
  if (grid_x <= 0 || grid_y <= 0 || grid_z <= 0) return 0;
  // As on a device: the grid barrier counts the blocks along x only.
  if (grid_y != 1 || grid_z != 1)
    return fail("cooperative launch: a " + std::to_string(grid_x) + " x " + std::to_string(grid_y) + " x " +
                std::to_string(grid_z) + " grid; cooperative kernels are launched on 1-D grids");
  // As on a device: no more blocks than are resident, a 1-D grid shrunk to that.
  if (grid_x * grid_y * grid_z > DACE_CUDA_EMU_PERSISTENT_BLOCKS) {
    if (grid_y != 1 || grid_z != 1)
      return fail("cooperative launch: " + std::to_string(grid_x * grid_y * grid_z) + " blocks, but only " +
                  std::to_string(DACE_CUDA_EMU_PERSISTENT_BLOCKS) + " can be resident at once");
    grid_x = DACE_CUDA_EMU_PERSISTENT_BLOCKS;
  }
  void (*fn)(void**) = nullptr;
  std::memcpy(&fn, &kernel, sizeof(fn));
  GridRun g;
  g.blocks = grid_x * grid_y * grid_z;
  g.finished.assign(static_cast<size_t>(g.blocks), false);
  g.barriers.assign(static_cast<size_t>(g.blocks), 0);
  g.turn = -1;  // no block runs before all have their thread
  auto block_thread = [&g, fn, params, grid_x, grid_y, grid_z](int64_t rank) {
    {
      std::unique_lock<std::mutex> lock(g.mutex);
      g.turn_changed.wait(lock, [&] { return g.turn == rank; });
    }
    block_index[0] = rank % grid_x;
    block_index[1] = (rank / grid_x) % grid_y;
    block_index[2] = rank / (grid_x * grid_y);
    grid_dim[0] = grid_x;
    grid_dim[1] = grid_y;
    grid_dim[2] = grid_z;
    current_grid = &g;
    current_rank = rank;
    fn(params);
    current_grid = nullptr;
    std::lock_guard<std::mutex> lock(g.mutex);
    g.finished[static_cast<size_t>(rank)] = true;
    pass_turn(g, rank);
  };
  std::vector<std::thread> threads;
  std::string not_started;
  for (int64_t rank = 0; rank < g.blocks && not_started.empty(); ++rank) {
    try {
      threads.emplace_back(block_thread, rank);
    } catch (const std::system_error& e) {
      not_started = "cannot start a host thread for block " + std::to_string(rank) + ": " + e.what();
    }
  }
  {
    // Blocks without a thread count as finished: the others still run (and end) in turn.
    std::lock_guard<std::mutex> lock(g.mutex);
    for (size_t rank = threads.size(); rank < g.finished.size(); ++rank) g.finished[rank] = true;
    pass_turn(g, g.blocks - 1);
  }
  for (std::thread& t : threads) t.join();
  if (!not_started.empty()) return fail("cooperative launch: " + not_started);
  for (int64_t count : g.barriers)
    if (count != g.barriers[0])
      return fail("cooperative launch: the blocks reached different numbers of grid barriers (" +
                  std::to_string(g.barriers[0]) + " and " + std::to_string(count) + "), which hangs a GPU");
  return 0;
}

void dace_cuda_emu_grid_sync(void) {
  GridRun* g = current_grid;
  if (!g) {
    fail("a grid barrier outside a cooperative launch");
    return;
  }
  std::unique_lock<std::mutex> lock(g->mutex);
  ++g->barriers[static_cast<size_t>(current_rank)];
  pass_turn(*g, current_rank);
  g->turn_changed.wait(lock, [&] { return g->turn == current_rank; });
}

const int64_t* dace_cuda_emu_grid_dim(void) { return grid_dim; }

int32_t dace_cuda_emu_launch(const char*, const char* kernel, int64_t grid_x, int64_t grid_y, int64_t grid_z, int64_t,
                             int64_t, int64_t, int32_t, void** params) {
  if (injected("launch")) return 1;
  default_stream_work(false);
  return run_blocks(kernel, grid_x, grid_y, grid_z, params);
}

int32_t dace_cuda_emu_synchronize(void) {
  // Kernels ran to completion in dace_cuda_emu_launch; a failure here stands for a kernel
  // fault the driver reports only when the host waits for it.
  if (injected("synchronize")) return 1;
  default_stream_work(true);
  return 0;
}

static int32_t run_gemm(int32_t type, int64_t m, int64_t n, int64_t k, double alpha, const void* a, int64_t a_rs,
                        int64_t a_cs, const void* b, int64_t b_rs, int64_t b_cs, double beta, void* c, int64_t c_rs,
                        int64_t c_cs);

int32_t dace_cuda_emu_gemm(int32_t type, int64_t m, int64_t n, int64_t k, double alpha, const void* a, int64_t a_rs,
                           int64_t a_cs, const void* b, int64_t b_rs, int64_t b_cs, double beta, void* c, int64_t c_rs,
                           int64_t c_cs) {
  if (injected("gemm")) return 1;
  default_stream_work(false);
  return run_gemm(type, m, n, k, alpha, a, a_rs, a_cs, b, b_rs, b_cs, beta, c, c_rs, c_cs);
}

static int32_t run_gemm(int32_t type, int64_t m, int64_t n, int64_t k, double alpha, const void* a, int64_t a_rs,
                        int64_t a_cs, const void* b, int64_t b_rs, int64_t b_cs, double beta, void* c, int64_t c_rs,
                        int64_t c_cs) {
  if (m <= 0 || n <= 0) return 0;
  dace::cuda::GemmPlan plan;
  if (!dace::cuda::plan_gemm(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c_rs, c_cs, plan))
    return fail("gemm: an operand has no unit stride (cuBLAS needs column- or row-major operands)");
  if (type == 0) {
    dace::cuda::run_gemm_plan(plan, static_cast<float>(alpha), static_cast<float>(beta), static_cast<float*>(c));
  } else if (type == 1) {
    dace::cuda::run_gemm_plan(plan, alpha, beta, static_cast<double*>(c));
  } else if (type == DACE_CUDA_COMPLEX64) {
    using C64 = std::complex<float>;
    dace::cuda::run_gemm_plan(plan, C64(static_cast<float>(alpha)), C64(static_cast<float>(beta)), static_cast<C64*>(c));
  } else if (type == DACE_CUDA_COMPLEX128) {
    using C128 = std::complex<double>;
    dace::cuda::run_gemm_plan(plan, C128(alpha), C128(beta), static_cast<C128*>(c));
  } else {
    return fail("gemm of an unknown element type " + std::to_string(type));
  }
  return 0;
}

int32_t dace_cuda_emu_stream_create(void** out) {
  if (!out) return 1;
  *out = injected("stream_create") ? nullptr : new_token(true);
  return *out ? 0 : 1;
}

int32_t dace_cuda_emu_stream_destroy(void* stream) {
  return checked("stream_destroy", [&](dace::cuda::StreamBook& b) { return b.remove_stream(stream); });
}

int32_t dace_cuda_emu_event_create(void** out) {
  if (!out) return 1;
  *out = injected("event_create") ? nullptr : new_token(false);
  return *out ? 0 : 1;
}

void** dace_cuda_emu_streams_create(int32_t streams, int32_t events) {
  return dace::cuda::create_stream_set(streams, events, dace_cuda_emu_stream_create, dace_cuda_emu_event_create,
                                       dace_cuda_emu_stream_destroy, dace_cuda_emu_event_destroy);
}

int32_t dace_cuda_emu_streams_destroy(void** set) {
  return dace::cuda::destroy_stream_set(set, dace_cuda_emu_stream_destroy, dace_cuda_emu_event_destroy);
}

int32_t dace_cuda_emu_event_destroy(void* event) {
  return checked("event_destroy", [&](dace::cuda::StreamBook& b) { return b.remove_event(event); });
}

int32_t dace_cuda_emu_event_record(void* event, void* stream) {
  if (injected("event_record")) return 1;
  if (checked("event_record", [&](dace::cuda::StreamBook& b) { return b.record(event, stream); })) return 1;
  Streams& s = streams();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.order.record(event, stream);
  return 0;
}

int32_t dace_cuda_emu_stream_wait_event(void* stream, void* event) {
  if (injected("stream_wait_event")) return 1;
  if (checked("stream_wait_event", [&](dace::cuda::StreamBook& b) { return b.wait(stream, event); })) return 1;
  Streams& s = streams();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (stream) s.order.wait(stream, event);
  return 0;
}

int32_t dace_cuda_emu_stream_synchronize(void* stream) {
  if (injected("stream_synchronize")) return 1;
  if (checked("stream_synchronize", [&](dace::cuda::StreamBook& b) { return b.use_stream(stream); })) return 1;
  if (!stream) {
    default_stream_work(true);
    return 0;
  }
  Streams& s = streams();
  std::lock_guard<std::mutex> lock(s.mutex);
  deliver_host_writes(s, stream);
  s.order.synchronized(stream);
  return 0;
}

int32_t dace_cuda_emu_launch_on(void* stream, const char* ptx, const char* kernel, int64_t grid_x, int64_t grid_y,
                                int64_t grid_z, int64_t block_x, int64_t block_y, int64_t block_z,
                                int32_t shared_bytes, void** params, int32_t param_count) {
  if (checked("launch_on", [&](dace::cuda::StreamBook& b) { return b.use_stream(stream); })) return 1;
  if (!stream)
    return dace_cuda_emu_launch(ptx, kernel, grid_x, grid_y, grid_z, block_x, block_y, block_z, shared_bytes, params);
  if (injected("launch")) return 1;
  // The device blocks the kernel's parameters point into: all read, and written where the
  // kernel changed their bytes (compared after it ran: the emulated launch is synchronous).
  std::vector<uintptr_t> touched;
  for (int32_t i = 0; params && i < param_count; ++i) {
    uintptr_t value = 0;
    std::memcpy(&value, params[i], sizeof value);
    if (uintptr_t b = block_of(reinterpret_cast<const void*>(value)))
      if (std::find(touched.begin(), touched.end(), b) == touched.end()) touched.push_back(b);
  }
  std::vector<std::string> before;
  for (uintptr_t b : touched) before.emplace_back(reinterpret_cast<const char*>(b), static_cast<size_t>(block_bytes(b)));
  {
    Streams& s = streams();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.order.issue(stream);
  }
  if (ordered_access("launch_on", stream, touched, {})) return 1;
  if (int32_t rc = run_blocks(kernel, grid_x, grid_y, grid_z, params)) return rc;
  std::vector<uintptr_t> written;
  for (size_t i = 0; i < touched.size(); ++i)
    if (std::memcmp(before[i].data(), reinterpret_cast<const char*>(touched[i]), before[i].size()) != 0)
      written.push_back(touched[i]);
  return ordered_access("launch_on", stream, {}, written);
}

// A copy queued on created stream `stream`: device blocks checked for order; host memory it
// writes gets the bytes when the host synchronizes the stream.
static int32_t copy_on_stream(const char* entry, void* stream, char* dst, int64_t dst_pitch, const char* src,
                              int64_t src_pitch, int64_t width, int64_t height) {
  if (width < 0 || height < 0) return fail(std::string("dace_cuda_") + entry + ": a copy of a negative size");
  {
    Streams& s = streams();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.order.issue(stream);
  }
  if (ordered_access(entry, stream, {block_of(src)}, {block_of(dst)})) return 1;
  const bool to_host = block_of(dst) == 0;
  Streams& s = streams();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (block_of(src) == 0 && height > 0) {
    // Host memory a queued copy to the host is still to write (staging through the host, the
    // copies ordered by an event): on a device the earlier copy is done before this one reads.
    const char* end = src + (height - 1) * src_pitch + width;
    auto& w = s.host_writes;
    for (const auto& h : w)
      if (h.dst < end && src < h.dst + h.bytes.size()) std::memcpy(h.dst, h.bytes.data(), h.bytes.size());
    w.erase(std::remove_if(w.begin(), w.end(),
                           [&](const auto& h) { return h.dst < end && src < h.dst + h.bytes.size(); }),
            w.end());
  }
  for (int64_t r = 0; r < height; ++r) {
    char* d = dst + r * dst_pitch;
    const char* from = src + r * src_pitch;
    if (to_host) s.host_writes.push_back({stream, d, std::string(from, static_cast<size_t>(width))});
    else if (width > 0) std::memmove(d, from, static_cast<size_t>(width));
  }
  return 0;
}

int32_t dace_cuda_emu_copy_on(void* stream, void* dst, const void* src, int64_t bytes, int32_t kind) {
  if (checked("copy_on", [&](dace::cuda::StreamBook& b) { return b.use_stream(stream); })) return 1;
  if (!stream) return dace_cuda_emu_copy(dst, src, bytes, kind);
  if (injected("copy")) return 1;
  return copy_on_stream("copy_on", stream, static_cast<char*>(dst), bytes, static_cast<const char*>(src), bytes, bytes, 1);
}

int32_t dace_cuda_emu_copy_2d_on(void* stream, void* dst, int64_t dst_pitch, const void* src, int64_t src_pitch,
                                 int64_t width_bytes, int64_t height, int32_t kind) {
  if (checked("copy_2d_on", [&](dace::cuda::StreamBook& b) { return b.use_stream(stream); })) return 1;
  if (!stream) return dace_cuda_emu_copy_2d(dst, dst_pitch, src, src_pitch, width_bytes, height, kind);
  if (injected("copy_2d")) return 1;
  return copy_on_stream("copy_2d_on", stream, static_cast<char*>(dst), dst_pitch, static_cast<const char*>(src),
                        src_pitch, width_bytes, height);
}

int32_t dace_cuda_emu_gemm_on(void* stream, int32_t type, int64_t m, int64_t n, int64_t k, double alpha,
                              const void* a, int64_t a_rs, int64_t a_cs, const void* b, int64_t b_rs, int64_t b_cs,
                              double beta, void* c, int64_t c_rs, int64_t c_cs) {
  if (checked("gemm_on", [&](dace::cuda::StreamBook& book) { return book.use_stream(stream); })) return 1;
  if (!stream) return dace_cuda_emu_gemm(type, m, n, k, alpha, a, a_rs, a_cs, b, b_rs, b_cs, beta, c, c_rs, c_cs);
  if (injected("gemm")) return 1;
  {
    Streams& s = streams();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.order.issue(stream);
  }
  if (ordered_access("gemm_on", stream, {block_of(a), block_of(b), block_of(c)}, {block_of(c)})) return 1;
  return run_gemm(type, m, n, k, alpha, a, a_rs, a_cs, b, b_rs, b_cs, beta, c, c_rs, c_cs);
}

int64_t dace_cuda_emu_live_streams(void) {
  Streams& s = streams();
  std::lock_guard<std::mutex> lock(s.mutex);
  return static_cast<int64_t>(s.book.live_streams());
}

int64_t dace_cuda_emu_live_events(void) {
  Streams& s = streams();
  std::lock_guard<std::mutex> lock(s.mutex);
  return static_cast<int64_t>(s.book.live_events());
}

const int64_t* dace_cuda_emu_block_index(void) { return block_index; }

const char* dace_cuda_emu_error_at(const char* operation) {
  Errors& e = errors();
  std::lock_guard<std::mutex> lock(e.mutex);
  const std::string& why = e.first.empty() ? e.refusal : e.first;
  return e.messages.insert(std::string(operation ? operation : "CUDA runtime") + ": " + why).first->c_str();
}

int32_t dace_cuda_emu_reserve_stack(int64_t bytes) {
  if (injected("reserve_stack")) return 1;
  {
    Errors& e = errors();
    std::lock_guard<std::mutex> lock(e.mutex);
    e.refusal.clear();
    if (bytes > DACE_CUDA_MAX_STACK_BYTES) {  // as the real runtime: refused, not sticky
      e.refusal = "dace_cuda_reserve_stack: " + std::to_string(bytes) + " bytes per thread exceed CUDA's " +
                  std::to_string(DACE_CUDA_MAX_STACK_BYTES) + " (512 KiB); the driver was not asked";
      return 1;
    }
  }
  std::lock_guard<std::mutex> lock(stack_mutex);
  stack_limit = std::max(stack_limit, bytes);
  return 0;
}

int64_t dace_cuda_emu_persistent_blocks(int64_t) { return DACE_CUDA_EMU_PERSISTENT_BLOCKS; }

int64_t dace_cuda_emu_stack_limit(void) {
  std::lock_guard<std::mutex> lock(stack_mutex);
  return stack_limit;
}

void dace_cuda_emu_inject_recoverable_failure(const char* entry, int64_t skip) {
  dace_cuda_emu_inject_failure(entry, skip);
  Errors& e = errors();
  std::lock_guard<std::mutex> lock(e.mutex);
  e.recoverable = entry != nullptr;
}

void dace_cuda_emu_inject_failure(const char* entry, int64_t skip) {
  Errors& e = errors();
  std::lock_guard<std::mutex> lock(e.mutex);
  e.injected_entry = entry ? entry : "";
  e.injected_skip = skip;
  e.recoverable = false;
  if (!entry) {
    e.poisoned = false;
    e.first.clear();
  }
}

}  // extern "C"
