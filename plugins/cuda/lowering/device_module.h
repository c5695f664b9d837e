// The device side of one lowered program: an NVPTX module beside the host module, in the
// same LLVMContext, that collects one kernel per GPU_Device map. When the host module is
// complete it is compiled to PTX (libdevice linked for math), embedded into the host module
// as a constant string the launches name, and optionally written to
// LowerOptions::device_code_dir as <sdfg>.ptx.
//
// Emulated device (LowerOptions::emulate_device, docs/cuda.md): the same kernels are built
// for the host instead and linked into the host module; the host's runtime calls go to the
// runtime's emulation (dace_cuda_emu_*: host memory, grid and block as loops).
#pragma once
#include <set>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include <map>

#include "codegen/frame.h"
#include "lowering/streams.h"

namespace llvm {
class GlobalVariable;
class TargetMachine;
}  // namespace llvm

namespace dace::cuda {

// The kernel being lowered: how its threads are laid out and, in emulation, the thread index
// of the thread loop being emitted.
struct KernelState {
  llvm::Function* fn = nullptr;  // the outlined kernel body (per block in emulation)
  // The GPU_Device map holds GPU_ThreadBlock maps: one block per map point, whose threads
  // the GPU_ThreadBlock maps use (block = their largest extents); else one thread per point.
  bool thread_blocks = false;
  std::array<int64_t, 3> block{1, 1, 1};
  bool in_thread_block = false;  // lowering a GPU_ThreadBlock map's body
  // Emulation: the induction variables of the innermost thread loop (x, y, z); null outside.
  std::array<llvm::Value*, 3> tid{};
  std::string where;  // the map (or node) the kernel lowers: what a refusal names
  // Static shared memory the kernel has placed so far (block_shared_array): the block's
  // total must stay within kMaxStaticSharedBytes, or the launch would fail on the device.
  int64_t shared_bytes = 0;
  // A GPU_Persistent map whose GPU_Device maps run one after another with grid barriers
  // between them (lowering/cooperative.h): launched cooperatively, the inner maps grid-strided.
  bool cooperative = false;
  llvm::GlobalVariable* grid_barrier = nullptr;  // its barrier words (lowering/grid_barrier.h)
};

struct DeviceModule {
  std::string sdfg_name;
  bool emulate = false;  // built for the host and linked into it (docs/cuda.md)
  KernelState* kernel = nullptr;  // while a GPU_Device map is lowered
  std::unique_ptr<llvm::Module> module;
  std::unique_ptr<codegen::ModuleContext> mc;
  std::unique_ptr<llvm::TargetMachine> target;
  // In the host module: stands for the PTX text until it exists (replaced by the finisher).
  llvm::GlobalVariable* ptx = nullptr;
  std::vector<std::string> kernels;
  // Host functions whose exit path already waits for their kernels (synchronize_on_exit).
  std::set<const llvm::Function*> synchronized_functions;
  // Streams (lowering/stream_emit.h): the program's set of streams and events as loaded at
  // the program function's entry, that function and its SDFG, how many streams lead the set
  // (its events follow), and the plans of the states planned so far. No set: every piece of
  // device work runs on the default stream.
  llvm::Value* stream_set = nullptr;
  const llvm::Function* program_function = nullptr;
  const ir::SDFG* program_sdfg = nullptr;
  int set_streams = 0;
  std::map<const ir::State*, StreamPlan> plans;
  // States of concurrent plans whose cooperative kernels went to the default stream instead of
  // their plan streams: the end of such a state synchronizes the default stream too.
  std::set<const ir::State*> default_stream_states;
  ~DeviceModule();
};

// The device module of the host module `host` (created on first use, with its finisher).
// `sdfg_name` is the top-level SDFG's name (init checks the driver; files are named by it).
Result<DeviceModule*> device_module(codegen::ModuleContext& host, const std::string& sdfg_name);

// The device module of the program that `f` is a function of (named by its top-level SDFG).
Result<DeviceModule*> device_module(codegen::Frame& f);

// The host module's device module when one was made already, else null (creates nothing:
// the host module stays as it would be without the caller).
DeviceModule* existing_device_module(codegen::ModuleContext& host);

// Generated host code: when `status` (what a runtime entry point returned, i32; or an i1
// that is true on failure, for entries that return a null pointer) is not 0, "`operation`:
// the runtime's first error" (dace_cuda_error_at) becomes the call's LibraryFailure status
// (DACE_ERROR_RUNTIME); `operation` names the call and its SDFG element. Then the function is
// left (`leave`, Frame::leave) or the code goes on after the check: on the exit path, where the
// remaining copies and frees must still run, and amid the function's allocations, whose exit
// path is valid only once all are made (the runtime's sticky error then fails the next runtime
// call, which leaves).
void record_runtime_failure(codegen::Frame& f, llvm::Value* status, bool leave, const std::string& operation);

// Launches are asynchronous: a kernel may still run, or have faulted, when the call would
// return, and with device-memory arguments and no transients no later runtime call would
// notice. The first launch in host frame `f` puts a checked dace_cuda_synchronize at the front
// of f's exit path (before its copies back and frees): its failure is the call's status.
void synchronize_on_exit(DeviceModule& dm, codegen::Frame& f, const std::string& where);

// The device module whose ModuleContext is `device` (kernels and the device functions of
// nested SDFGs are emitted there), or null for a host module.
DeviceModule* device_module_of(codegen::ModuleContext& device);

// Emulation: the names of the runtime's entry points that host code calls and their
// emulated counterparts (dace_cuda_X -> dace_cuda_emu_X).
std::string emulated_entry(const std::string& runtime_entry);

// The architecture PTX is generated for: $DACE_CUDA_ARCH, else sm_80 (PTX for sm_80 is
// JIT-compiled by the driver for any later GPU, the H100's sm_90 included).
std::string target_arch();

// Links libdevice, optimizes (O3) and emits PTX for `m` (kernels keep external linkage,
// everything else is internalized).
Result<std::string> compile_ptx(DeviceModule& dm);

// A libm function the lowering calls by name (`tanh`, `tanhf`) that libdevice implements:
// the only functions device code may call besides intrinsics.
bool libm_function(const std::string& name);
bool has_libdevice_counterpart(const std::string& name);

// libdevice.10.bc: $DACE_CUDA_LIBDEVICE, else the toolkit's found at build time.
std::string libdevice_path();

}  // namespace dace::cuda
