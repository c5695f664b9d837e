#include "driver/cuda_driver.h"

#include <dlfcn.h>


namespace dace::cuda {

namespace {

using GetProcAddress = CUresult (*)(const char* symbol, void** pfn, int cuda_version, uint64_t flags, int* status);

// Entry points are asked for as of CUDA 12.0, whose signatures the declarations above follow
// (cuMemAlloc is cuMemAlloc_v2 there, and so on).
constexpr int kApiVersion = 12000;

struct Loaded {
  Driver driver{};
  std::string error;
  bool ok = false;
};

template <class Fn>
bool resolve(GetProcAddress get, const char* name, Fn*& out, std::string& error) {
  void* p = nullptr;
  int status = 0;
  if (get(name, &p, kApiVersion, 0, &status) != kCudaSuccess || p == nullptr) {
    error = std::string("the CUDA driver has no entry point ") + name;
    return false;
  }
  out = reinterpret_cast<Fn*>(p);
  return true;
}

Loaded load() {
  Loaded l;
  // Never closed: the driver owns threads once initialized.
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!lib) {
    const char* e = dlerror();
    l.error = std::string("no CUDA driver: ") + (e ? e : "libcuda.so.1 cannot be loaded");
    return l;
  }
  auto get = reinterpret_cast<GetProcAddress>(dlsym(lib, "cuGetProcAddress_v2"));
  if (!get) {
    l.error = "no CUDA driver: libcuda.so.1 has no cuGetProcAddress_v2 (a driver for CUDA 12 or later is needed)";
    return l;
  }
  Driver& d = l.driver;
  bool ok = resolve(get, "cuInit", d.cuInit, l.error) && resolve(get, "cuDriverGetVersion", d.cuDriverGetVersion, l.error) &&
            resolve(get, "cuDeviceGetCount", d.cuDeviceGetCount, l.error) &&
            resolve(get, "cuDeviceGet", d.cuDeviceGet, l.error) && resolve(get, "cuDeviceGetName", d.cuDeviceGetName, l.error) &&
            resolve(get, "cuDeviceGetAttribute", d.cuDeviceGetAttribute, l.error) &&
            resolve(get, "cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain, l.error) &&
            resolve(get, "cuCtxSetCurrent", d.cuCtxSetCurrent, l.error) &&
            resolve(get, "cuCtxSynchronize", d.cuCtxSynchronize, l.error) &&
            resolve(get, "cuCtxGetLimit", d.cuCtxGetLimit, l.error) &&
            resolve(get, "cuCtxSetLimit", d.cuCtxSetLimit, l.error) &&
            resolve(get, "cuMemAlloc", d.cuMemAlloc, l.error) && resolve(get, "cuMemFree", d.cuMemFree, l.error) &&
            resolve(get, "cuMemAllocHost", d.cuMemAllocHost, l.error) &&
            resolve(get, "cuMemFreeHost", d.cuMemFreeHost, l.error) &&
            resolve(get, "cuPointerGetAttribute", d.cuPointerGetAttribute, l.error) &&
            resolve(get, "cuMemcpyHtoD", d.cuMemcpyHtoD, l.error) && resolve(get, "cuMemcpyDtoH", d.cuMemcpyDtoH, l.error) &&
            resolve(get, "cuMemcpyDtoD", d.cuMemcpyDtoD, l.error) && resolve(get, "cuMemcpy2D", d.cuMemcpy2D, l.error) &&
            resolve(get, "cuMemsetD8", d.cuMemsetD8, l.error) &&
            resolve(get, "cuModuleLoadData", d.cuModuleLoadData, l.error) &&
            resolve(get, "cuModuleGetFunction", d.cuModuleGetFunction, l.error) &&
            resolve(get, "cuLaunchKernel", d.cuLaunchKernel, l.error) &&
            resolve(get, "cuLaunchCooperativeKernel", d.cuLaunchCooperativeKernel, l.error) &&
            resolve(get, "cuOccupancyMaxActiveBlocksPerMultiprocessor", d.cuOccupancyMaxActiveBlocksPerMultiprocessor,
                    l.error) &&
            resolve(get, "cuStreamCreate", d.cuStreamCreate, l.error) &&
            resolve(get, "cuStreamDestroy", d.cuStreamDestroy, l.error) &&
            resolve(get, "cuStreamSynchronize", d.cuStreamSynchronize, l.error) &&
            resolve(get, "cuStreamWaitEvent", d.cuStreamWaitEvent, l.error) &&
            resolve(get, "cuEventCreate", d.cuEventCreate, l.error) &&
            resolve(get, "cuEventDestroy", d.cuEventDestroy, l.error) &&
            resolve(get, "cuEventRecord", d.cuEventRecord, l.error) &&
            resolve(get, "cuMemcpyHtoDAsync", d.cuMemcpyHtoDAsync, l.error) &&
            resolve(get, "cuMemcpyDtoHAsync", d.cuMemcpyDtoHAsync, l.error) &&
            resolve(get, "cuMemcpyDtoDAsync", d.cuMemcpyDtoDAsync, l.error) &&
            resolve(get, "cuMemcpy2DAsync", d.cuMemcpy2DAsync, l.error) &&
            resolve(get, "cuGetErrorString", d.cuGetErrorString, l.error) &&
            resolve(get, "cuGetErrorName", d.cuGetErrorName, l.error);
  if (!ok) return l;
  CUresult r = d.cuInit(0);
  if (r != kCudaSuccess) {
    l.error = "the CUDA driver does not initialize: " + describe(d, r);
    return l;
  }
  l.ok = true;
  return l;
}

}  // namespace

const Driver* driver(std::string* why) {
  static Loaded loaded = load();  // thread-safe, once per process
  if (!loaded.ok) {
    if (why) *why = loaded.error;
    return nullptr;
  }
  return &loaded.driver;
}

std::string describe(const Driver& d, CUresult r) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (d.cuGetErrorName) d.cuGetErrorName(r, &name);
  if (d.cuGetErrorString) d.cuGetErrorString(r, &text);
  return std::string(name ? name : "CUDA error " + std::to_string(r)) + (text ? std::string(": ") + text : "");
}

}  // namespace dace::cuda
