// The few CUDA driver API entry points the plugin uses, declared here (not cuda.h) and
// resolved at run time: `dlopen("libcuda.so.1")` on first use, then `cuGetProcAddress` for
// each entry (TOOLCHAIN.md "CUDA": a plugin linked to -lcuda fails to load without a driver).
// Without a driver the plugin still loads, compiles device code to PTX and reports a status.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace dace::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
using CUcontext = CUctx_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUstream = CUstream_st*;
using CUevent = CUevent_st*;

constexpr CUresult kCudaSuccess = 0;
constexpr CUresult kErrorOutOfMemory = 2;  // CUDA_ERROR_OUT_OF_MEMORY

// Whether the context stays usable after `e`: CUDA's errors about one request — a bad
// argument or handle, too little memory, a kernel or module the driver cannot find or load,
// a launch too large for the device — as against the sticky ones after which every later
// call fails (a kernel's illegal address or instruction, a failed launch, a lost device, an
// unknown error: anything not listed here).
constexpr bool leaves_context_usable(CUresult e) {
  switch (e) {
    case 1:    // CUDA_ERROR_INVALID_VALUE
    case 2:    // CUDA_ERROR_OUT_OF_MEMORY
    case 200:  // CUDA_ERROR_INVALID_IMAGE
    case 209:  // CUDA_ERROR_NO_BINARY_FOR_GPU
    case 218:  // CUDA_ERROR_INVALID_PTX
    case 222:  // CUDA_ERROR_UNSUPPORTED_PTX_VERSION
    case 400:  // CUDA_ERROR_INVALID_HANDLE
    case 500:  // CUDA_ERROR_NOT_FOUND
    case 701:  // CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
    case 720:  // CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE
      return true;
    default:
      return false;
  }
}
constexpr int kMemoryTypeHost = 1;    // CU_MEMORYTYPE_HOST
constexpr int kMemoryTypeDevice = 2;  // CU_MEMORYTYPE_DEVICE
constexpr int kPointerAttributeMemoryType = 2;  // CU_POINTER_ATTRIBUTE_MEMORY_TYPE
constexpr int kAttrComputeCapabilityMajor = 75;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kAttrComputeCapabilityMinor = 76;
constexpr int kAttrMultiprocessorCount = 16;           // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
constexpr int kAttrMaxThreadsPerMultiprocessor = 39;  // CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR
constexpr int kAttrCooperativeLaunch = 95;  // CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH
constexpr unsigned kStreamDefault = 0;  // CU_STREAM_DEFAULT: synchronizes with the legacy default stream
constexpr unsigned kEventDisableTiming = 2;  // CU_EVENT_DISABLE_TIMING
constexpr int kLimitStackSize = 0;  // CU_LIMIT_STACK_SIZE: bytes of stack per GPU thread

// CUDA_MEMCPY2D (the layout is part of the driver's ABI).
struct Memcpy2D {
  size_t srcXInBytes, srcY;
  int srcMemoryType;
  const void* srcHost;
  CUdeviceptr srcDevice;
  void* srcArray;
  size_t srcPitch;
  size_t dstXInBytes, dstY;
  int dstMemoryType;
  void* dstHost;
  CUdeviceptr dstDevice;
  void* dstArray;
  size_t dstPitch;
  size_t WidthInBytes, Height;
};

struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int*);
  CUresult (*cuDeviceGetCount)(int*);
  CUresult (*cuDeviceGet)(CUdevice*, int);
  CUresult (*cuDeviceGetName)(char*, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuCtxGetLimit)(size_t*, int);
  CUresult (*cuCtxSetLimit)(int, size_t);
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemAllocHost)(void**, size_t);  // page-locked host memory (CPU_Pinned)
  CUresult (*cuMemFreeHost)(void*);
  CUresult (*cuPointerGetAttribute)(void*, int, CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t);
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*cuMemcpy2D)(const Memcpy2D*);
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
  CUresult (*cuModuleLoadData)(CUmodule*, const void*);
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             CUstream, void**, void**);
  // All blocks resident at once (grid barriers); refused by the driver when they do not fit.
  CUresult (*cuLaunchCooperativeKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                        CUstream, void**);
  // Blocks of `function` with that many threads and bytes of dynamic shared memory that one
  // multiprocessor holds at once (registers and shared memory counted).
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int*, CUfunction, int, size_t);
  CUresult (*cuStreamCreate)(CUstream*, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent*, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void*, size_t, CUstream);
  CUresult (*cuMemcpyDtoHAsync)(void*, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemcpy2DAsync)(const Memcpy2D*, CUstream);
  CUresult (*cuGetErrorString)(CUresult, const char**);
  CUresult (*cuGetErrorName)(CUresult, const char**);
};

// The driver, loaded and initialized (cuInit) once per process; null when there is none, with
// the reason in `why` ("no CUDA driver: libcuda.so.1: cannot open shared object file ...").
const Driver* driver(std::string* why = nullptr);

// "CUDA_ERROR_X: text" for a driver result.
std::string describe(const Driver& d, CUresult r);

}  // namespace dace::cuda
