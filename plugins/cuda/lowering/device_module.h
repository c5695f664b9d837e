// The device side of one lowered program: an NVPTX module beside the host module, in the
// same LLVMContext, that collects one kernel per GPU_Device map. When the host module is
// complete it is compiled to PTX (libdevice linked for math), embedded into the host module
// as a constant string the launches name, and optionally written to
// LowerOptions::device_code_dir as <sdfg>.ptx.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "codegen/frame.h"

namespace llvm {
class GlobalVariable;
class TargetMachine;
}  // namespace llvm

namespace dace::cuda {

struct DeviceModule {
  std::string sdfg_name;
  std::unique_ptr<llvm::Module> module;
  std::unique_ptr<codegen::ModuleContext> mc;
  std::unique_ptr<llvm::TargetMachine> target;
  // In the host module: stands for the PTX text until it exists (replaced by the finisher).
  llvm::GlobalVariable* ptx = nullptr;
  std::vector<std::string> kernels;
  ~DeviceModule();
};

// The device module of the host module `host` (created on first use, with its finisher).
// `sdfg_name` is the top-level SDFG's name (init checks the driver; files are named by it).
Result<DeviceModule*> device_module(codegen::ModuleContext& host, const std::string& sdfg_name);

// The architecture PTX is generated for: $DACE_CUDA_ARCH, else sm_80 (PTX for sm_80 is
// JIT-compiled by the driver for any later GPU, the H100's sm_90 included).
std::string target_arch();

// Links libdevice, optimizes (O3) and emits PTX for `m` (kernels keep external linkage,
// everything else is internalized).
Result<std::string> compile_ptx(DeviceModule& dm);

// libdevice.10.bc: $DACE_CUDA_LIBDEVICE, else the toolkit's found at build time.
std::string libdevice_path();

}  // namespace dace::cuda
