// The CUDA plugin's handshake and registration (DESIGN.md §7, docs/cuda.md).
//
// It registers the GPU_Device schedule (maps become kernels compiled to PTX by LLVM's NVPTX
// backend, lowering/kernel.h), the GPU_Global storage (program arguments mirrored on the
// device, lowering/global_storage.h), copies between host memory and GPU_Global
// (lowering/copy.h) and its runtime (runtime/dace_cuda_runtime.h), which
// opens libcuda.so.1 only when a program first needs the device: the plugin loads, and
// compiles GPU programs to PTX, on machines without a driver.
#include <cstdint>
#include <memory>

#include "libdace_plugin.h"
#include "lowering/blas.h"
#include "lowering/copy.h"
#include "lowering/cublas_tasklet.h"
#include "lowering/dynamic_map.h"
#include "lowering/global_storage.h"
#include "lowering/kernel.h"
#include "lowering/persistent.h"
#include "lowering/pinned_storage.h"
#include "lowering/reduce.h"
#include "lowering/shared_storage.h"
#include "lowering/stream_emit.h"
#include "lowering/thread_block.h"
#include "plugin/registry.h"
#include "runtime/dace_cuda_emulation.h"
#include "runtime/dace_cuda_runtime.h"

#ifndef LIBDACE_VERSION_STRING
#define LIBDACE_VERSION_STRING "0.0.0"
#endif

namespace {

// The program's CUDA streams and events (lowering/stream_emit.h): needed only when a
// top-level state of the program has work for more than one stream.
class StreamsProgramState final : public dace::plugin::ProgramStateLowering {
 public:
  std::string_view program_state_key() const override { return dace::cuda::kStreamsStateKey; }
  bool needed(const dace::codegen::LowerOptions& options, const dace::ir::SDFG& sdfg) const override {
    return dace::cuda::stream_counts(options, sdfg).streams > 1;
  }
  dace::Status lower_program_init(dace::codegen::ProgramStateContext& context) const override {
    return dace::cuda::lower_streams_init(context);
  }
  dace::Status lower_program_exit(dace::codegen::ProgramStateContext& context) const override {
    return dace::cuda::lower_streams_exit(context);
  }
  dace::Status lower_program_entry(dace::codegen::ProgramStateContext& context) const override {
    return dace::cuda::lower_streams_entry(context);
  }
};

std::shared_ptr<const dace::plugin::ProgramStateLowering> streams_state() {
  static const auto state = std::make_shared<StreamsProgramState>();
  return state;
}

// Kernels (GPU_Device, GPU_Persistent maps) bring the program's streams: a program with
// concurrent work but no kernel (copies and products only) keeps the default stream.
class DeviceSchedule final : public dace::plugin::ScheduleLowering {
 public:
  dace::Status lower_scope(dace::codegen::ScopeContext& context) const override {
    return dace::cuda::lower_device_map(context);
  }
  std::shared_ptr<const dace::plugin::ProgramStateLowering> program_state() const override { return streams_state(); }
};

class ThreadBlockSchedule final : public dace::plugin::ScheduleLowering {
 public:
  dace::Status lower_scope(dace::codegen::ScopeContext& context) const override {
    return dace::cuda::lower_thread_block_map(context);
  }
};

class PersistentSchedule final : public dace::plugin::ScheduleLowering {
 public:
  dace::Status lower_scope(dace::codegen::ScopeContext& context) const override {
    return dace::cuda::lower_persistent_map(context);
  }
  std::shared_ptr<const dace::plugin::ProgramStateLowering> program_state() const override { return streams_state(); }
};

// Lowered with the GPU_Device map that holds it (lowering/dynamic_map.h); reached here only
// when it is anywhere else.
class DynamicThreadBlockSchedule final : public dace::plugin::ScheduleLowering {
 public:
  dace::Status lower_scope(dace::codegen::ScopeContext& context) const override {
    return dace::cuda::lower_misplaced_dynamic_map(context);
  }
};

// Reduce nodes in host code whose operands are in GPU_Global memory: a reduction kernel
// (lowering/reduce.h). DaCe names its GPU expansion of Reduce "CUDA (device)".
class DeviceReduce final : public dace::plugin::LibraryExpansion {
 public:
  dace::Status expand(dace::transform::ExpansionContext&) const override {
    return dace::make_error(dace::Code::Unsupported, "cuda: Reduce on GPU memory is lowered to a kernel, not expanded");
  }
  bool lowers_to_ir() const override { return true; }
  bool lowers_device_operands() const override { return true; }
  dace::Status lower_node(dace::codegen::LibraryNodeContext& context) const override {
    return dace::cuda::lower_device_reduce(context);
  }
};

// Matrix products in host code whose operands are in GPU_Global memory: a cuBLAS call
// (lowering/blas.h), DaCe's "cuBLAS" implementation.
class DeviceMatMul final : public dace::plugin::LibraryExpansion {
 public:
  dace::Status expand(dace::transform::ExpansionContext&) const override {
    return dace::make_error(dace::Code::Unsupported, "cuda: matrix products on GPU memory are cuBLAS calls, not expanded");
  }
  bool lowers_to_ir() const override { return true; }
  bool lowers_device_operands() const override { return true; }
  dace::Status lower_node(dace::codegen::LibraryNodeContext& context) const override {
    return dace::cuda::lower_device_matmul(context);
  }
};

// DaCe's cuBLAS C++ tasklets (the GPU expansions of Gemm/Gemv/Dot in *.gpu.sdfg files): the
// same cuBLAS call as the library nodes above (lowering/cublas_tasklet.h).
class CublasTasklet final : public dace::plugin::CppTaskletLowering {
 public:
  bool claims(std::string_view code) const override { return dace::cuda::is_cublas_tasklet(code); }
  dace::Status lower_tasklet(dace::codegen::CppTaskletContext& context) const override {
    return dace::cuda::lower_cublas_tasklet(context);
  }
};

template <class Fn>
void* address_of(Fn* fn) {
  return reinterpret_cast<void*>(fn);
}

int32_t register_cuda(dace_plugin_registry_t* handle) {
  dace::plugin::Registry* registry = dace::plugin::Registry::from_handle(handle);
  if (registry == nullptr) return 1;
  struct Symbol {
    const char* name;
    void* address;
  };
  const Symbol symbols[] = {
      {"dace_cuda_init", address_of(&dace_cuda_init)},
      {"dace_cuda_error", address_of(&dace_cuda_error)},
      {"dace_cuda_error_at", address_of(&dace_cuda_error_at)},
      {"dace_cuda_status", address_of(&dace_cuda_status)},
      {"dace_cuda_malloc", address_of(&dace_cuda_malloc)},
      {"dace_cuda_free", address_of(&dace_cuda_free)},
      {"dace_cuda_pool_trim", address_of(&dace_cuda_pool_trim)},
      {"dace_cuda_pool_bytes", address_of(&dace_cuda_pool_bytes)},
      {"dace_cuda_malloc_host", address_of(&dace_cuda_malloc_host)},
      {"dace_cuda_free_host", address_of(&dace_cuda_free_host)},
      {"dace_cuda_is_page_locked", address_of(&dace_cuda_is_page_locked)},
      {"dace_cuda_argument_in", address_of(&dace_cuda_argument_in)},
      {"dace_cuda_argument_out", address_of(&dace_cuda_argument_out)},
      {"dace_cuda_argument_discard", address_of(&dace_cuda_argument_discard)},
      {"dace_cuda_copy", address_of(&dace_cuda_copy)},
      {"dace_cuda_copy_2d", address_of(&dace_cuda_copy_2d)},
      {"dace_cuda_memset", address_of(&dace_cuda_memset)},
      {"dace_cuda_launch", address_of(&dace_cuda_launch)},
      {"dace_cuda_synchronize", address_of(&dace_cuda_synchronize)},
      {"dace_cuda_reserve_stack", address_of(&dace_cuda_reserve_stack)},
      {"dace_cuda_persistent_blocks", address_of(&dace_cuda_persistent_blocks)},
      {"dace_cuda_gemm", address_of(&dace_cuda_gemm)},
      {"dace_cuda_blas_status", address_of(&dace_cuda_blas_status)},
      {"dace_cuda_stream_create", address_of(&dace_cuda_stream_create)},
      {"dace_cuda_stream_destroy", address_of(&dace_cuda_stream_destroy)},
      {"dace_cuda_event_create", address_of(&dace_cuda_event_create)},
      {"dace_cuda_streams_create", address_of(&dace_cuda_streams_create)},
      {"dace_cuda_streams_destroy", address_of(&dace_cuda_streams_destroy)},
      {"dace_cuda_event_destroy", address_of(&dace_cuda_event_destroy)},
      {"dace_cuda_event_record", address_of(&dace_cuda_event_record)},
      {"dace_cuda_stream_wait_event", address_of(&dace_cuda_stream_wait_event)},
      {"dace_cuda_stream_synchronize", address_of(&dace_cuda_stream_synchronize)},
      {"dace_cuda_launch_on", address_of(&dace_cuda_launch_on)},
      {"dace_cuda_launch_cooperative", address_of(&dace_cuda_launch_cooperative)},
      {"dace_cuda_copy_on", address_of(&dace_cuda_copy_on)},
      {"dace_cuda_copy_2d_on", address_of(&dace_cuda_copy_2d_on)},
      {"dace_cuda_gemm_on", address_of(&dace_cuda_gemm_on)},
      // The emulated device (programs compiled with emulate_device call these instead).
      {"dace_cuda_emu_init", address_of(&dace_cuda_emu_init)},
      {"dace_cuda_emu_error", address_of(&dace_cuda_emu_error)},
      {"dace_cuda_emu_status", address_of(&dace_cuda_emu_status)},
      {"dace_cuda_emu_malloc", address_of(&dace_cuda_emu_malloc)},
      {"dace_cuda_emu_free", address_of(&dace_cuda_emu_free)},
      {"dace_cuda_emu_malloc_host", address_of(&dace_cuda_emu_malloc_host)},
      {"dace_cuda_emu_free_host", address_of(&dace_cuda_emu_free_host)},
      {"dace_cuda_emu_host_allocations", address_of(&dace_cuda_emu_host_allocations)},
      {"dace_cuda_emu_argument_in", address_of(&dace_cuda_emu_argument_in)},
      {"dace_cuda_emu_argument_out", address_of(&dace_cuda_emu_argument_out)},
      {"dace_cuda_emu_argument_discard", address_of(&dace_cuda_emu_argument_discard)},
      {"dace_cuda_emu_arguments_copied", address_of(&dace_cuda_emu_arguments_copied)},
      {"dace_cuda_emu_copy", address_of(&dace_cuda_emu_copy)},
      {"dace_cuda_emu_copy_2d", address_of(&dace_cuda_emu_copy_2d)},
      {"dace_cuda_emu_memset", address_of(&dace_cuda_emu_memset)},
      {"dace_cuda_emu_launch", address_of(&dace_cuda_emu_launch)},
      {"dace_cuda_emu_synchronize", address_of(&dace_cuda_emu_synchronize)},
      {"dace_cuda_emu_gemm", address_of(&dace_cuda_emu_gemm)},
      {"dace_cuda_emu_block_index", address_of(&dace_cuda_emu_block_index)},
      {"dace_cuda_emu_error_at", address_of(&dace_cuda_emu_error_at)},
      {"dace_cuda_emu_reserve_stack", address_of(&dace_cuda_emu_reserve_stack)},
      {"dace_cuda_emu_stack_limit", address_of(&dace_cuda_emu_stack_limit)},
      {"dace_cuda_emu_persistent_blocks", address_of(&dace_cuda_emu_persistent_blocks)},
      {"dace_cuda_emu_stream_create", address_of(&dace_cuda_emu_stream_create)},
      {"dace_cuda_emu_stream_destroy", address_of(&dace_cuda_emu_stream_destroy)},
      {"dace_cuda_emu_event_create", address_of(&dace_cuda_emu_event_create)},
      {"dace_cuda_emu_streams_create", address_of(&dace_cuda_emu_streams_create)},
      {"dace_cuda_emu_streams_destroy", address_of(&dace_cuda_emu_streams_destroy)},
      {"dace_cuda_emu_event_destroy", address_of(&dace_cuda_emu_event_destroy)},
      {"dace_cuda_emu_event_record", address_of(&dace_cuda_emu_event_record)},
      {"dace_cuda_emu_stream_wait_event", address_of(&dace_cuda_emu_stream_wait_event)},
      {"dace_cuda_emu_stream_synchronize", address_of(&dace_cuda_emu_stream_synchronize)},
      {"dace_cuda_emu_launch_on", address_of(&dace_cuda_emu_launch_on)},
      {"dace_cuda_emu_launch_cooperative", address_of(&dace_cuda_emu_launch_cooperative)},
      {"dace_cuda_emu_grid_sync", address_of(&dace_cuda_emu_grid_sync)},
      {"dace_cuda_emu_grid_dim", address_of(&dace_cuda_emu_grid_dim)},
      {"dace_cuda_emu_copy_on", address_of(&dace_cuda_emu_copy_on)},
      {"dace_cuda_emu_copy_2d_on", address_of(&dace_cuda_emu_copy_2d_on)},
      {"dace_cuda_emu_gemm_on", address_of(&dace_cuda_emu_gemm_on)},
      {"dace_cuda_emu_live_streams", address_of(&dace_cuda_emu_live_streams)},
      {"dace_cuda_emu_live_events", address_of(&dace_cuda_emu_live_events)},
      {"dace_cuda_emu_inject_failure", address_of(&dace_cuda_emu_inject_failure)},
      {"dace_cuda_emu_inject_recoverable_failure", address_of(&dace_cuda_emu_inject_recoverable_failure)},
  };
  for (const Symbol& s : symbols)
    if (!registry->add_runtime_symbol(s.name, s.address).ok()) return 1;
  if (!registry->add_schedule("GPU_Device", std::make_shared<DeviceSchedule>()).ok()) return 1;
  if (!registry->add_schedule("GPU_Persistent", std::make_shared<PersistentSchedule>()).ok()) return 1;
  if (!registry->add_schedule("GPU_ThreadBlock", std::make_shared<ThreadBlockSchedule>()).ok()) return 1;
  if (!registry->add_schedule("GPU_ThreadBlock_Dynamic", std::make_shared<DynamicThreadBlockSchedule>()).ok()) return 1;
  if (!registry->add_storage("GPU_Global", std::make_shared<dace::cuda::GlobalStorage>()).ok()) return 1;
  // Copies in host code between host memory and GPU_Global, both ways, and GPU_Global to GPU_Global.
  auto copy = std::make_shared<dace::cuda::DeviceCopy>();
  for (const char* const* host = dace::cuda::host_storage_names(); *host; ++host)
    if (!registry->add_copy(*host, "GPU_Global", copy).ok() || !registry->add_copy("GPU_Global", *host, copy).ok()) return 1;
  if (!registry->add_copy("GPU_Global", "GPU_Global", copy).ok()) return 1;
  if (!registry->add_storage("GPU_Shared", std::make_shared<dace::cuda::SharedStorage>()).ok()) return 1;
  if (!registry->add_storage("CPU_Pinned", std::make_shared<dace::cuda::PinnedStorage>()).ok()) return 1;
  if (!registry->add_expansion("dace.libraries.standard.nodes.reduce.Reduce", "CUDA (device)",
                               std::make_shared<DeviceReduce>()).ok())
    return 1;
  auto matmul = std::make_shared<DeviceMatMul>();
  for (const char* cls : {"dace.libraries.blas.nodes.matmul.MatMul", "dace.libraries.blas.nodes.gemm.Gemm",
                          "dace.libraries.blas.nodes.gemv.Gemv", "dace.libraries.blas.nodes.dot.Dot"})
    if (!registry->add_expansion(cls, "cuBLAS", matmul).ok()) return 1;
  if (!registry->add_cpp_tasklet("cuBLAS", std::make_shared<CublasTasklet>()).ok()) return 1;
  return 0;
}

const dace_plugin_info_t kInfo = {
    DACE_PLUGIN_ABI_VERSION, "cuda", LIBDACE_VERSION_STRING, DACE_PLUGIN_BUILD_ID, register_cuda,
};

}  // namespace

extern "C" const dace_plugin_info_t* dace_plugin_query(uint32_t abi_version) {
  return abi_version == DACE_PLUGIN_ABI_VERSION ? &kInfo : nullptr;
}
