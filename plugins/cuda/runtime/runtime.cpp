#include "runtime/dace_cuda_runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "driver/cuda_driver.h"
#include "runtime/device_pool.h"
#include "runtime/gemm_plan.h"
#include "runtime/stream_book.h"
#include "runtime/stream_set.h"

#include <dlfcn.h>

#include <climits>

namespace {

using dace::cuda::CUcontext;
using dace::cuda::CUdeviceptr;
using dace::cuda::CUevent;
using dace::cuda::CUstream;
using dace::cuda::CUfunction;
using dace::cuda::CUmodule;
using dace::cuda::CUresult;
using dace::cuda::Driver;

// Bytes of freed device blocks kept for reuse (runtime/device_pool.h): DACE_CUDA_POOL_BYTES,
// else 2 GiB; 0 keeps none (every free is cuMemFree).
size_t pool_capacity() {
  const char* env = std::getenv("DACE_CUDA_POOL_BYTES");
  if (env && *env) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(env, &end, 10);
    if (end && *end == '\0') return static_cast<size_t>(v);
    std::fprintf(stderr, "libdace cuda: DACE_CUDA_POOL_BYTES=%s is not a byte count; keeping the default 2 GiB\n", env);
  }
  return size_t{2} << 30;
}

struct Runtime {
  std::mutex mutex;
  std::string error;  // first error of the process
  std::string status;
  CUcontext context = nullptr;
  // Loaded modules by the address of a program's embedded PTX text, with a copy of the text:
  // a program freed and another JIT-compiled later can reuse that address for other text,
  // so a hit counts only when the text is the same.
  std::map<const char*, std::pair<std::string, CUmodule>> modules;
  std::map<std::pair<CUmodule, std::string>, CUfunction> functions;
  size_t stack_limit = 0;  // CU_LIMIT_STACK_SIZE as last read or set; 0 = not read yet
  std::set<std::string> messages;  // dace_cuda_error_at's texts (stable addresses)
  std::string refusal;  // the last refused request that left the runtime usable (not sticky)
  dace::cuda::StreamBook streams;  // live streams and events, recorded events
  std::set<void*> page_locked;     // dace_cuda_malloc_host's blocks from cuMemAllocHost
  std::map<uintptr_t, size_t> live;  // dace_cuda_malloc's blocks in use, with their sizes
  dace::cuda::DevicePool pool{pool_capacity()};
};

Runtime& rt() {
  static Runtime r;
  return r;
}

int32_t fail(Runtime& r, const std::string& what) {
  if (r.error.empty()) {
    r.error = what;
    std::fprintf(stderr, "libdace cuda: %s\n", what.c_str());
  }
  return 1;
}

// The driver with device 0's primary context current on this thread, or null with the reason
// in `why` (nothing recorded: callers decide whether that is an error).
const Driver* open_device(Runtime& r, std::string& why) {
  const Driver* d = dace::cuda::driver(&why);
  if (!d) return nullptr;
  if (!r.context) {
    int count = 0;
    CUresult e = d->cuDeviceGetCount(&count);
    if (e != dace::cuda::kCudaSuccess || count == 0) {
      why = "no CUDA device: " + (e ? dace::cuda::describe(*d, e) : std::string("the driver sees none"));
      return nullptr;
    }
    dace::cuda::CUdevice dev = 0;
    if ((e = d->cuDeviceGet(&dev, 0)) || (e = d->cuDevicePrimaryCtxRetain(&r.context, dev))) {
      why = "cannot open CUDA device 0: " + dace::cuda::describe(*d, e);
      return nullptr;
    }
  }
  static thread_local CUcontext current = nullptr;
  if (current != r.context) {
    if (CUresult e = d->cuCtxSetCurrent(r.context)) {
      why = "cannot make the CUDA context current: " + dace::cuda::describe(*d, e);
      return nullptr;
    }
    current = r.context;
  }
  return d;
}

// The driver with device 0's primary context current on this thread; null after an error.
const Driver* ready(Runtime& r) {
  if (!r.error.empty()) return nullptr;
  std::string why;
  const Driver* d = open_device(r, why);
  if (!d) fail(r, why);
  return d;
}

// Refuses one request and leaves the runtime usable: the status of the call names it
// (dace_cuda_error_at), later calls go on. Returns 1.
int32_t refuse(Runtime& r, const std::string& what) {
  r.refusal = what;
  std::fprintf(stderr, "libdace cuda: %s\n", what.c_str());
  return 1;
}

// 0 on success; else the error is the process's sticky one, or, when the context stays
// usable (leaves_context_usable: out of memory, a launch too large...), a refusal of this
// request only.
int32_t check(Runtime& r, const Driver& d, CUresult e, const char* what) {
  if (e == dace::cuda::kCudaSuccess) return 0;
  const std::string text = std::string(what) + ": " + dace::cuda::describe(d, e);
  return dace::cuda::leaves_context_usable(e) ? refuse(r, text) : fail(r, text);
}

// Releases every kept device block (cuMemFree); returns their bytes.
int64_t release_kept(Runtime& r, const Driver& d) {
  int64_t bytes = 0;
  for (const auto& [block, size] : r.pool.drain()) {
    check(r, d, d.cuMemFree(static_cast<CUdeviceptr>(block)), "cuMemFree");
    bytes += static_cast<int64_t>(size);
  }
  return bytes;
}

CUdeviceptr dev(const void* p) { return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(p)); }

CUstream as_stream(void* s) { return static_cast<CUstream>(s); }
CUevent as_event(void* e) { return static_cast<CUevent>(e); }

// Refuses the call when `bad` names a misuse of streams or events by generated code
// (runtime/stream_book.h): the status names `entry`, but the runtime stays usable (nothing
// reached the driver, so this is not the process's sticky error); 0 when there is none.
int32_t misuse(Runtime& r, const char* entry, const std::string& bad) {
  return bad.empty() ? 0 : refuse(r, std::string(entry) + ": " + bad);
}

// The function `kernel` of the PTX module `ptx` (loaded once per text, cached by name); null
// after recording the error.
CUfunction function_of(Runtime& r, const Driver& d, const char* ptx, const char* kernel) {
  auto m = r.modules.find(ptx);
  if (m != r.modules.end() && m->second.first != ptx) {
    r.modules.erase(m);  // the module stays loaded: its kernels may still be cached by handle
    m = r.modules.end();
  }
  if (m == r.modules.end()) {
    CUmodule mod = nullptr;
    if (check(r, d, d.cuModuleLoadData(&mod, ptx), "cuModuleLoadData (PTX JIT)")) return nullptr;
    m = r.modules.emplace(ptx, std::make_pair(std::string(ptx), mod)).first;
  }
  auto key = std::make_pair(m->second.second, std::string(kernel));
  auto f = r.functions.find(key);
  if (f == r.functions.end()) {
    CUfunction fn = nullptr;
    if (check(r, d, d.cuModuleGetFunction(&fn, m->second.second, kernel), "cuModuleGetFunction")) return nullptr;
    f = r.functions.emplace(key, fn).first;
  }
  return f->second;
}

// cuBLAS, opened at the first product (no CUDA library is linked): our own declarations of
// the few entry points used (cublas_api.h's v2 API; handles are opaque pointers).
struct Cublas {
  void* library = nullptr;
  std::string name;
  int (*create)(void**) = nullptr;
  int (*set_stream)(void*, void*) = nullptr;
  int (*get_property)(int, int*) = nullptr;
  int (*sgemm)(void*, int, int, int, int, int, const float*, const float*, int, const float*, int, const float*,
               float*, int) = nullptr;
  int (*dgemm)(void*, int, int, int, int, int, const double*, const double*, int, const double*, int, const double*,
               double*, int) = nullptr;
  // Complex products (cuComplex / cuDoubleComplex: two floats / doubles, passed by address).
  int (*cgemm)(void*, int, int, int, int, int, const void*, const void*, int, const void*, int, const void*, void*,
               int) = nullptr;
  int (*zgemm)(void*, int, int, int, int, int, const void*, const void*, int, const void*, int, const void*, void*,
               int) = nullptr;
  void* handle = nullptr;  // created on the first product, once there is a device
  std::string status;      // "cuBLAS X.Y.Z (library)" or why it is unavailable
  bool ok = false;
};

template <class F>
void bind(void* library, const char* name, F& fn) {
  fn = reinterpret_cast<F>(dlsym(library, name));
}

Cublas& cublas() {
  static Cublas c = [] {
    Cublas c;
    std::string tried;
    for (const char* name : {"libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so",
                             "/usr/local/cuda/lib64/libcublas.so", "/usr/local/cuda/lib/libcublas.so"}) {
      c.library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (c.library) {
        c.name = name;
        break;
      }
      const char* e = dlerror();
      tried += std::string(tried.empty() ? "" : "; ") + (e ? e : name);
    }
    if (!c.library) {
      c.status = "no cuBLAS: " + tried;
      return c;
    }
    bind(c.library, "cublasCreate_v2", c.create);
    bind(c.library, "cublasSetStream_v2", c.set_stream);
    bind(c.library, "cublasGetProperty", c.get_property);
    bind(c.library, "cublasSgemm_v2", c.sgemm);
    bind(c.library, "cublasDgemm_v2", c.dgemm);
    bind(c.library, "cublasCgemm_v2", c.cgemm);  // optional: complex products are refused without
    bind(c.library, "cublasZgemm_v2", c.zgemm);
    if (!c.create || !c.set_stream || !c.sgemm || !c.dgemm) {
      c.status = "no cuBLAS: " + c.name + " lacks cublasCreate_v2 / cublasSetStream_v2 / cublasSgemm_v2 / cublasDgemm_v2";
      return c;
    }
    int major = 0, minor = 0, patch = 0;
    if (c.get_property) {
      c.get_property(0, &major);
      c.get_property(1, &minor);
      c.get_property(2, &patch);
    }
    c.status = "cuBLAS " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch) + " (" +
               c.name + ")";
    c.ok = true;
    return c;
  }();
  return c;
}

}  // namespace

extern "C" {

int32_t dace_cuda_init(void) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  return ready(r) ? 0 : 1;
}

const char* dace_cuda_error(void) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.error.c_str();
}

const char* dace_cuda_error_at(const char* operation) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  const std::string& why = r.error.empty() ? r.refusal : r.error;
  return r.messages.insert(std::string(operation ? operation : "CUDA runtime") + ": " + why).first->c_str();
}

const char* dace_cuda_status(void) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::string why;
  const Driver* d = dace::cuda::driver(&why);
  if (!d) {
    r.status = why;
    return r.status.c_str();
  }
  int count = 0, version = 0;
  d->cuDriverGetVersion(&version);
  if (d->cuDeviceGetCount(&count) != dace::cuda::kCudaSuccess || count == 0) {
    r.status = "no CUDA device (driver " + std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10) + ")";
    return r.status.c_str();
  }
  char name[256] = {0};
  int major = 0, minor = 0;
  d->cuDeviceGetName(name, sizeof(name) - 1, 0);
  d->cuDeviceGetAttribute(&major, dace::cuda::kAttrComputeCapabilityMajor, 0);
  d->cuDeviceGetAttribute(&minor, dace::cuda::kAttrComputeCapabilityMinor, 0);
  r.status = std::string(name) + ", sm_" + std::to_string(major) + std::to_string(minor) + ", driver " +
             std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
  return r.status.c_str();
}

void* dace_cuda_argument_in(void* caller, int64_t bytes) {
  {
    Runtime& r = rt();
    std::lock_guard<std::mutex> lock(r.mutex);
    const Driver* d = ready(r);
    if (!d) return nullptr;
    // Host memory the driver does not know answers CUDA_ERROR_INVALID_VALUE: not an error.
    unsigned type = 0;
    if (d->cuPointerGetAttribute(&type, dace::cuda::kPointerAttributeMemoryType, dev(caller)) == dace::cuda::kCudaSuccess &&
        type == static_cast<unsigned>(dace::cuda::kMemoryTypeDevice))
      return caller;
  }
  void* device = dace_cuda_malloc(bytes);
  if (!device) return nullptr;
  if (dace_cuda_copy(device, caller, bytes, DACE_CUDA_HOST_TO_DEVICE)) {
    dace_cuda_free(device);
    return nullptr;
  }
  return device;
}

int32_t dace_cuda_argument_out(void* caller, void* device, int64_t bytes) {
  if (device == caller || !device) return 0;
  int32_t e = dace_cuda_copy(caller, device, bytes, DACE_CUDA_DEVICE_TO_HOST);
  return dace_cuda_free(device) | e;
}

int32_t dace_cuda_argument_discard(void* caller, void* device) {
  if (device == caller || !device) return 0;
  return dace_cuda_free(device);
}

void* dace_cuda_malloc(int64_t bytes) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  const Driver* d = ready(r);
  if (!d) return nullptr;
  if (bytes < 0) {
    refuse(r, "cuMemAlloc: negative size " + std::to_string(bytes));
    return nullptr;
  }
  // cuMemAlloc refuses 0 bytes; an empty array still gets a distinct block.
  const size_t size = dace::cuda::DevicePool::rounded(static_cast<size_t>(bytes));
  if (const uintptr_t kept = r.pool.take(size)) {
    r.live[kept] = size;
    return reinterpret_cast<void*>(kept);
  }
  CUdeviceptr p = 0;
  CUresult e = d->cuMemAlloc(&p, size);
  if (e == dace::cuda::kErrorOutOfMemory && r.pool.kept_blocks() > 0) {
    release_kept(r, *d);  // blocks kept for other sizes may make room
    e = d->cuMemAlloc(&p, size);
  }
  if (check(r, *d, e, "cuMemAlloc")) return nullptr;
  r.live[static_cast<uintptr_t>(p)] = size;
  return reinterpret_cast<void*>(static_cast<uintptr_t>(p));
}

int32_t dace_cuda_free(void* device) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  const Driver* d = ready(r);
  if (!d || !device) return d ? 0 : 1;
  auto it = r.live.find(reinterpret_cast<uintptr_t>(device));
  if (it == r.live.end()) return check(r, *d, d->cuMemFree(dev(device)), "cuMemFree");  // not from the pool's side
  const size_t size = it->second;
  r.live.erase(it);
  // cuMemFree waits for the device before the block can be used again; a kept block must
  // too (another thread's call could take it while this call's kernels still ran).
  if (check(r, *d, d->cuCtxSynchronize(), "cuCtxSynchronize (freeing a device block)")) return 1;
  int32_t status = 0;
  for (const auto& [block, bytes] : r.pool.keep(reinterpret_cast<uintptr_t>(device), size))
    status |= check(r, *d, d->cuMemFree(static_cast<CUdeviceptr>(block)), "cuMemFree");
  return status;
}

int64_t dace_cuda_pool_trim(void) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.pool.kept_blocks() == 0) return 0;
  const Driver* d = ready(r);
  return d ? release_kept(r, *d) : 0;
}

int64_t dace_cuda_pool_bytes(void) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  return static_cast<int64_t>(r.pool.kept_bytes());
}

void* dace_cuda_malloc_host(int64_t bytes) {
  if (bytes < 0) return nullptr;
  // Whole 64-byte lines, as the core's heap blocks (the generated code zeroes them so).
  const size_t size = (static_cast<size_t>(bytes > 0 ? bytes : 1) + 63) / 64 * 64;
  {
    Runtime& r = rt();
    std::lock_guard<std::mutex> lock(r.mutex);
    std::string why;
    // After a sticky error the context may be unusable: ordinary memory serves as well.
    const Driver* d = r.error.empty() ? open_device(r, why) : nullptr;
    void* p = nullptr;
    if (d && d->cuMemAllocHost(&p, size) == dace::cuda::kCudaSuccess && p) {
      r.page_locked.insert(p);
      return p;
    }
  }
  // No device, or the driver could not lock that much: ordinary host memory is still correct
  // (copies stage through the driver's own pinned buffers).
  return std::aligned_alloc(64, size);
}

int32_t dace_cuda_free_host(void* host) {
  if (!host) return 0;
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.page_locked.erase(host) == 0) {
    std::free(host);
    return 0;
  }
  std::string why;
  const Driver* d = open_device(r, why);  // it opened when the block was allocated
  return d ? check(r, *d, d->cuMemFreeHost(host), "cuMemFreeHost") : fail(r, "cuMemFreeHost: " + why);
}

int32_t dace_cuda_is_page_locked(const void* host) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::string why;
  const Driver* d = r.error.empty() ? open_device(r, why) : nullptr;
  unsigned type = 0;
  return d && d->cuPointerGetAttribute(&type, dace::cuda::kPointerAttributeMemoryType, dev(host)) ==
                  dace::cuda::kCudaSuccess &&
                 type == static_cast<unsigned>(dace::cuda::kMemoryTypeHost)
             ? 1
             : 0;
}

int32_t dace_cuda_copy(void* dst, const void* src, int64_t bytes, int32_t kind) {
  return dace_cuda_copy_on(nullptr, dst, src, bytes, kind);
}

// On the default stream the copies are the synchronous cuMemcpy* (the host may read what a
// device-to-host copy wrote as soon as it returns); on another stream they are queued.
int32_t dace_cuda_copy_on(void* stream, void* dst, const void* src, int64_t bytes, int32_t kind) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  const Driver* d = ready(r);
  if (!d) return 1;
  if (misuse(r, "dace_cuda_copy_on", r.streams.use_stream(stream))) return 1;
  if (bytes <= 0) return 0;
  auto n = static_cast<size_t>(bytes);
  if (stream) {
    CUstream s = as_stream(stream);
    switch (kind) {
      case DACE_CUDA_HOST_TO_DEVICE: return check(r, *d, d->cuMemcpyHtoDAsync(dev(dst), src, n, s), "cuMemcpyHtoDAsync");
      case DACE_CUDA_DEVICE_TO_HOST: return check(r, *d, d->cuMemcpyDtoHAsync(dst, dev(src), n, s), "cuMemcpyDtoHAsync");
      case DACE_CUDA_DEVICE_TO_DEVICE:
        return check(r, *d, d->cuMemcpyDtoDAsync(dev(dst), dev(src), n, s), "cuMemcpyDtoDAsync");
      default: return fail(r, "dace_cuda_copy: unknown copy kind " + std::to_string(kind));
    }
  }
  switch (kind) {
    case DACE_CUDA_HOST_TO_DEVICE: return check(r, *d, d->cuMemcpyHtoD(dev(dst), src, n), "cuMemcpyHtoD");
    case DACE_CUDA_DEVICE_TO_HOST: return check(r, *d, d->cuMemcpyDtoH(dst, dev(src), n), "cuMemcpyDtoH");
    case DACE_CUDA_DEVICE_TO_DEVICE: return check(r, *d, d->cuMemcpyDtoD(dev(dst), dev(src), n), "cuMemcpyDtoD");
    default: return fail(r, "dace_cuda_copy: unknown copy kind " + std::to_string(kind));
  }
}

int32_t dace_cuda_copy_2d(void* dst, int64_t dst_pitch, const void* src, int64_t src_pitch, int64_t width_bytes,
                          int64_t height, int32_t kind) {
  return dace_cuda_copy_2d_on(nullptr, dst, dst_pitch, src, src_pitch, width_bytes, height, kind);
}

int32_t dace_cuda_copy_2d_on(void* stream, void* dst, int64_t dst_pitch, const void* src, int64_t src_pitch,
                             int64_t width_bytes, int64_t height, int32_t kind) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  const Driver* d = ready(r);
  if (!d) return 1;
  if (misuse(r, "dace_cuda_copy_2d_on", r.streams.use_stream(stream))) return 1;
  if (width_bytes <= 0 || height <= 0) return 0;
  if (kind < DACE_CUDA_HOST_TO_DEVICE || kind > DACE_CUDA_DEVICE_TO_DEVICE)
    return fail(r, "dace_cuda_copy_2d: unknown copy kind " + std::to_string(kind));
  dace::cuda::Memcpy2D c{};
  const bool src_host = kind == DACE_CUDA_HOST_TO_DEVICE;
  const bool dst_host = kind == DACE_CUDA_DEVICE_TO_HOST;
  c.srcMemoryType = src_host ? dace::cuda::kMemoryTypeHost : dace::cuda::kMemoryTypeDevice;
  if (src_host) c.srcHost = src; else c.srcDevice = dev(src);
  c.srcPitch = static_cast<size_t>(src_pitch);
  c.dstMemoryType = dst_host ? dace::cuda::kMemoryTypeHost : dace::cuda::kMemoryTypeDevice;
  if (dst_host) c.dstHost = dst; else c.dstDevice = dev(dst);
  c.dstPitch = static_cast<size_t>(dst_pitch);
  c.WidthInBytes = static_cast<size_t>(width_bytes);
  c.Height = static_cast<size_t>(height);
  if (stream) return check(r, *d, d->cuMemcpy2DAsync(&c, as_stream(stream)), "cuMemcpy2DAsync");
  return check(r, *d, d->cuMemcpy2D(&c), "cuMemcpy2D");
}

int32_t dace_cuda_memset(void* dst, int32_t byte, int64_t bytes) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  const Driver* d = ready(r);
  if (!d) return 1;
  if (bytes <= 0) return 0;
  return check(r, *d, d->cuMemsetD8(dev(dst), static_cast<unsigned char>(byte), static_cast<size_t>(bytes)), "cuMemsetD8");
}

int32_t dace_cuda_launch(const char* ptx, const char* kernel, int64_t grid_x, int64_t grid_y, int64_t grid_z,
                         int64_t block_x, int64_t block_y, int64_t block_z, int32_t shared_bytes, void** params) {
  return dace_cuda_launch_on(nullptr, ptx, kernel, grid_x, grid_y, grid_z, block_x, block_y, block_z, shared_bytes,
                             params, 0);
}

int32_t dace_cuda_launch_on(void* stream, const char* ptx, const char* kernel, int64_t grid_x, int64_t grid_y,
                            int64_t grid_z, int64_t block_x, int64_t block_y, int64_t block_z, int32_t shared_bytes,
                            void** params, int32_t) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  const Driver* d = ready(r);
  if (!d) return 1;
  if (misuse(r, "dace_cuda_launch_on", r.streams.use_stream(stream))) return 1;
  if (grid_x <= 0 || grid_y <= 0 || grid_z <= 0) return 0;
  if (grid_x > 0x7fffffff || grid_y > 65535 || grid_z > 65535)
    return refuse(r, std::string("kernel ") + kernel + ": grid " + std::to_string(grid_x) + "x" + std::to_string(grid_y) +
                       "x" + std::to_string(grid_z) + " exceeds the device's limits");
  CUfunction fn = function_of(r, *d, ptx, kernel);
  if (!fn) return 1;
  return check(r, *d,
                d->cuLaunchKernel(fn, static_cast<unsigned>(grid_x), static_cast<unsigned>(grid_y),
                                  static_cast<unsigned>(grid_z), static_cast<unsigned>(block_x),
                                  static_cast<unsigned>(block_y), static_cast<unsigned>(block_z),
                                  static_cast<unsigned>(shared_bytes), as_stream(stream), params, nullptr),
                (std::string("cuLaunchKernel ") + kernel).c_str());
}

int32_t dace_cuda_launch_cooperative(void* stream, const char* ptx, const char* kernel, int64_t grid_x,
                                     int64_t grid_y, int64_t grid_z, int64_t block_x, int64_t block_y,
                                     int64_t block_z, int32_t shared_bytes, void** params) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  const Driver* d = ready(r);
  if (!d) return 1;
  if (misuse(r, "dace_cuda_launch_cooperative", r.streams.use_stream(stream))) return 1;
  if (grid_x <= 0 || grid_y <= 0 || grid_z <= 0) return 0;
  const std::string name = std::string("cooperative launch of kernel ") + kernel;
  // The grid barrier counts the blocks along x (%nctaid.x): a 2-D or 3-D grid would never fill it.
  if (grid_y != 1 || grid_z != 1)
    return refuse(r, name + ": a " + std::to_string(grid_x) + " x " + std::to_string(grid_y) + " x " +
                       std::to_string(grid_z) + " grid; cooperative kernels are launched on 1-D grids");
  int supported = 0, sms = 0;
  if (check(r, *d, d->cuDeviceGetAttribute(&supported, dace::cuda::kAttrCooperativeLaunch, 0),
            "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH)") ||
      check(r, *d, d->cuDeviceGetAttribute(&sms, dace::cuda::kAttrMultiprocessorCount, 0),
            "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)"))
    return 1;
  if (!supported) return refuse(r, name + ": the device does not support cooperative launches");
  CUfunction fn = function_of(r, *d, ptx, kernel);
  if (!fn) return 1;
  const int64_t threads = block_x * block_y * block_z;
  int per_sm = 0;
  if (check(r, *d,
            d->cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, static_cast<int>(threads),
                                                           static_cast<size_t>(shared_bytes)),
            "cuOccupancyMaxActiveBlocksPerMultiprocessor"))
    return 1;
  const int64_t resident = static_cast<int64_t>(per_sm) * sms;
  if (resident <= 0)
    return refuse(r, name + ": not one block of " + std::to_string(threads) +
                       " threads fits a multiprocessor (registers or shared memory)");
  if (grid_x * grid_y * grid_z > resident) {
    if (grid_y != 1 || grid_z != 1)
      return refuse(r, name + ": " + std::to_string(grid_x * grid_y * grid_z) + " blocks, but only " +
                         std::to_string(resident) + " can be resident at once");
    grid_x = resident;  // the kernel strides over the grid it runs with
  }
  return check(r, *d,
               d->cuLaunchCooperativeKernel(fn, static_cast<unsigned>(grid_x), static_cast<unsigned>(grid_y),
                                            static_cast<unsigned>(grid_z), static_cast<unsigned>(block_x),
                                            static_cast<unsigned>(block_y), static_cast<unsigned>(block_z),
                                            static_cast<unsigned>(shared_bytes), as_stream(stream), params),
               ("cuLaunchCooperativeKernel " + std::string(kernel)).c_str());
}

int32_t dace_cuda_synchronize(void) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  const Driver* d = ready(r);
  if (!d) return 1;
  return check(r, *d, d->cuCtxSynchronize(), "kernel execution (cuCtxSynchronize)");
}

int32_t dace_cuda_stream_create(void** out) {
  if (!out) return 1;
  *out = nullptr;
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  const Driver* d = ready(r);
  if (!d) return 1;
  CUstream s = nullptr;
  // Blocking: default-stream work (argument copies, work left there) stays ordered with it.
  if (check(r, *d, d->cuStreamCreate(&s, dace::cuda::kStreamDefault), "cuStreamCreate")) return 1;
  if (!s) return fail(r, "cuStreamCreate returned the default stream");
  r.streams.add_stream(s);
  *out = s;
  return 0;
}

int32_t dace_cuda_stream_destroy(void* stream) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  const Driver* d = ready(r);
  if (!d) return 1;
  if (misuse(r, "dace_cuda_stream_destroy", r.streams.remove_stream(stream))) return 1;
  return check(r, *d, d->cuStreamDestroy(as_stream(stream)), "cuStreamDestroy");
}

int32_t dace_cuda_event_create(void** out) {
  if (!out) return 1;
  *out = nullptr;
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  const Driver* d = ready(r);
  if (!d) return 1;
  CUevent e = nullptr;  // ordering only: no timestamps, so recording and waiting stay cheap
  if (check(r, *d, d->cuEventCreate(&e, dace::cuda::kEventDisableTiming), "cuEventCreate")) return 1;
  r.streams.add_event(e);
  *out = e;
  return 0;
}

int32_t dace_cuda_event_destroy(void* event) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  const Driver* d = ready(r);
  if (!d) return 1;
  if (misuse(r, "dace_cuda_event_destroy", r.streams.remove_event(event))) return 1;
  return check(r, *d, d->cuEventDestroy(as_event(event)), "cuEventDestroy");
}

void** dace_cuda_streams_create(int32_t streams, int32_t events) {
  return dace::cuda::create_stream_set(streams, events, dace_cuda_stream_create, dace_cuda_event_create,
                                       dace_cuda_stream_destroy, dace_cuda_event_destroy);
}

int32_t dace_cuda_streams_destroy(void** set) {
  return dace::cuda::destroy_stream_set(set, dace_cuda_stream_destroy, dace_cuda_event_destroy);
}

int32_t dace_cuda_event_record(void* event, void* stream) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  const Driver* d = ready(r);
  if (!d) return 1;
  if (misuse(r, "dace_cuda_event_record", r.streams.record(event, stream))) return 1;
  return check(r, *d, d->cuEventRecord(as_event(event), as_stream(stream)), "cuEventRecord");
}

int32_t dace_cuda_stream_wait_event(void* stream, void* event) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  const Driver* d = ready(r);
  if (!d) return 1;
  if (misuse(r, "dace_cuda_stream_wait_event", r.streams.wait(stream, event))) return 1;
  return check(r, *d, d->cuStreamWaitEvent(as_stream(stream), as_event(event), 0), "cuStreamWaitEvent");
}

int32_t dace_cuda_stream_synchronize(void* stream) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  const Driver* d = ready(r);
  if (!d) return 1;
  if (misuse(r, "dace_cuda_stream_synchronize", r.streams.use_stream(stream))) return 1;
  return check(r, *d, d->cuStreamSynchronize(as_stream(stream)), "kernel execution (cuStreamSynchronize)");
}

int32_t dace_cuda_reserve_stack(int64_t bytes) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.refusal.clear();
  if (bytes > DACE_CUDA_MAX_STACK_BYTES) {
    r.refusal = "dace_cuda_reserve_stack: " + std::to_string(bytes) + " bytes per thread exceed CUDA's " +
                std::to_string(DACE_CUDA_MAX_STACK_BYTES) + " (512 KiB); the driver was not asked";
    return 1;
  }
  const Driver* d = ready(r);
  if (!d) return 1;
  if (!r.stack_limit && check(r, *d, d->cuCtxGetLimit(&r.stack_limit, dace::cuda::kLimitStackSize), "cuCtxGetLimit"))
    return 1;
  if (bytes <= 0 || static_cast<size_t>(bytes) <= r.stack_limit) return 0;
  if (check(r, *d, d->cuCtxSetLimit(dace::cuda::kLimitStackSize, static_cast<size_t>(bytes)),
            ("cuCtxSetLimit(CU_LIMIT_STACK_SIZE, " + std::to_string(bytes) + ")").c_str()))
    return 1;
  r.stack_limit = static_cast<size_t>(bytes);
  return 0;
}

int64_t dace_cuda_persistent_blocks(int64_t block_threads) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  const Driver* d = ready(r);
  if (!d) return 0;
  int sms = 0, threads = 0;
  if (check(r, *d, d->cuDeviceGetAttribute(&sms, dace::cuda::kAttrMultiprocessorCount, 0),
            "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)") ||
      check(r, *d, d->cuDeviceGetAttribute(&threads, dace::cuda::kAttrMaxThreadsPerMultiprocessor, 0),
            "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)"))
    return 0;
  const int64_t per_sm = std::max<int64_t>(1, threads / std::max<int64_t>(1, block_threads));
  return static_cast<int64_t>(sms) * per_sm;
}

const char* dace_cuda_blas_status(void) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  return cublas().status.c_str();
}

int32_t dace_cuda_gemm(int32_t type, int64_t m, int64_t n, int64_t k, double alpha, const void* a, int64_t a_rs,
                       int64_t a_cs, const void* b, int64_t b_rs, int64_t b_cs, double beta, void* c, int64_t c_rs,
                       int64_t c_cs) {
  return dace_cuda_gemm_on(nullptr, type, m, n, k, alpha, a, a_rs, a_cs, b, b_rs, b_cs, beta, c, c_rs, c_cs);
}

int32_t dace_cuda_gemm_on(void* stream, int32_t type, int64_t m, int64_t n, int64_t k, double alpha, const void* a,
                          int64_t a_rs, int64_t a_cs, const void* b, int64_t b_rs, int64_t b_cs, double beta, void* c,
                          int64_t c_rs, int64_t c_cs) {
  Runtime& r = rt();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (!ready(r)) return 1;
  if (misuse(r, "dace_cuda_gemm_on", r.streams.use_stream(stream))) return 1;
  if (m <= 0 || n <= 0) return 0;
  Cublas& blas = cublas();
  if (!blas.ok) return refuse(r, blas.status);
  if (!blas.handle && blas.create(&blas.handle) != 0) {
    blas.handle = nullptr;
    return fail(r, "cublasCreate_v2 failed");
  }
  // The handle is shared by all products: each call sets the stream it is queued on.
  if (int e = blas.set_stream(blas.handle, stream))
    return fail(r, "cublasSetStream_v2 failed with status " + std::to_string(e));
  dace::cuda::GemmPlan p;
  if (!dace::cuda::plan_gemm(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c_rs, c_cs, p))
    return refuse(r, "gemm: an operand has no unit stride (cuBLAS needs column- or row-major operands)");
  for (int64_t v : {p.m, p.n, p.k, p.lda, p.ldb, p.ldc})
    if (v > INT_MAX) return refuse(r, "gemm: a dimension exceeds cuBLAS's 32-bit sizes");
  const int ta = p.trans_a ? 1 : 0, tb = p.trans_b ? 1 : 0;  // CUBLAS_OP_N = 0, CUBLAS_OP_T = 1
  int rc;
  if (type == DACE_CUDA_FLOAT32) {
    const float fa = static_cast<float>(alpha), fb = static_cast<float>(beta);
    rc = blas.sgemm(blas.handle, ta, tb, static_cast<int>(p.m), static_cast<int>(p.n), static_cast<int>(p.k), &fa,
                    static_cast<const float*>(p.a), static_cast<int>(p.lda), static_cast<const float*>(p.b),
                    static_cast<int>(p.ldb), &fb, static_cast<float*>(c), static_cast<int>(p.ldc));
  } else if (type == DACE_CUDA_FLOAT64) {
    rc = blas.dgemm(blas.handle, ta, tb, static_cast<int>(p.m), static_cast<int>(p.n), static_cast<int>(p.k), &alpha,
                    static_cast<const double*>(p.a), static_cast<int>(p.lda), static_cast<const double*>(p.b),
                    static_cast<int>(p.ldb), &beta, static_cast<double*>(c), static_cast<int>(p.ldc));
  } else if (type == DACE_CUDA_COMPLEX64 || type == DACE_CUDA_COMPLEX128) {
    const bool single = type == DACE_CUDA_COMPLEX64;
    auto fn = single ? blas.cgemm : blas.zgemm;
    if (!fn) return refuse(r, blas.name + " lacks " + (single ? "cublasCgemm_v2" : "cublasZgemm_v2"));
    const float fa[2] = {static_cast<float>(alpha), 0.0f}, fb[2] = {static_cast<float>(beta), 0.0f};
    const double da[2] = {alpha, 0.0}, db[2] = {beta, 0.0};
    rc = fn(blas.handle, ta, tb, static_cast<int>(p.m), static_cast<int>(p.n), static_cast<int>(p.k),
            single ? static_cast<const void*>(fa) : da, p.a, static_cast<int>(p.lda), p.b, static_cast<int>(p.ldb),
            single ? static_cast<const void*>(fb) : db, c, static_cast<int>(p.ldc));
  } else {
    return refuse(r, "gemm of an unknown element type " + std::to_string(type));
  }
  return rc == 0 ? 0 : fail(r, "cuBLAS gemm failed with status " + std::to_string(rc));
}

}  // extern "C"
