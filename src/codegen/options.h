// Options of the SDFG -> LLVM IR lowering. Plain struct, no LLVM types.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace dace::plugin {
class Registry;
}

namespace dace::codegen {

struct LowerOptions {
  // DaCe's default schedule on the CPU: a map with the Default schedule outside any parallel
  // scope becomes CPU_Multicore, everything nested in it Sequential. false: all Sequential.
  bool parallelize_default_maps = true;
  // What the loaded plugins offer: the CPU_Multicore schedule and library implementations
  // (OpenBLAS for MatMul/Gemm/Gemv/Dot). Not owned; must outlive lower(). Null: the
  // defaults above and plain loop nests for every library node.
  const plugin::Registry* registry = nullptr;
  // Library class paths and class-path prefixes that the manifests of the plugins found here
  // declare, loaded or not (plugin::DeferredPlugins::declared_library_classes). Only the
  // message refusing a class no plugin lowers reads them: a class of a library that a plugin
  // declares needs that plugin; any other, libdace has no lowering for. No effect on code.
  std::vector<std::string> declared_library_classes;
  // false: library nodes always become loop nests, even when a vendor library is offered.
  bool use_vendor_libraries = true;
  // Threads of a CPU_Multicore map whose omp_num_threads is 0 (baked into the program's
  // runtime calls); 0 = the runtime's default.
  int32_t default_num_threads = 0;
  // A CPU_Multicore map whose body is one flat loop and whose range is too small to pay
  // for a fork/join runs inline (decided at run time from the trip count). Tests of the
  // parallel runtime path turn it off.
  bool inline_small_parallel_maps = true;
  // Arrays the SDFG passes as arguments get `noalias` unless their descriptor says
  // may_alias (DaCe emits `__restrict__` the same way).
  bool noalias_arguments = true;
  // Instruction-level fast-math flags on all arithmetic (reassociation, contraction, ...).
  // Off: IEEE arithmetic, except that float sums of Reduce nodes and non-atomic WCR sums carry
  // `reassoc` (the order of their updates is unspecified in SDFG semantics, and DaCe builds
  // everything with -ffast-math), so such sums may round differently between -O levels.
  bool fast_math = false;
  // Run analysis::validate first, so that malformed SDFGs get a status, not undefined
  // lowering. Callers that validated already may skip it.
  bool validate = true;
  // Module identifier and source file name; empty = the SDFG's name.
  std::string module_name;
  // Where plugins write the device code they generate (the CUDA plugin: <sdfg>.ptx); empty =
  // nowhere. Does not change the generated code.
  std::string device_code_dir;
  // Emulated device: plugins with a device (CUDA) compile their device code for the host and
  // run it in-process (device memory is host memory, grid and block are loops), so GPU
  // programs run, and their results can be checked, without a GPU or driver. The compile
  // option emulate_device or DACE_CUDA_EMULATE=1 sets it (pipeline/compile.cpp).
  bool emulate_device = false;
  // Device work of one state that may run concurrently: at most this many streams per state
  // (DaCe's compiler.cuda.max_concurrent_streams). 0: the device plugin's default; 1: all
  // device work on the default stream, in issue order (docs/cuda.md "Streams and events").
  int32_t max_concurrent_streams = 0;
  // Check every memlet access against its container's shape at run time (bounds_check.h);
  // a violation is recorded in the status record and the call leaves. Off: no code at all.
  bool bounds_check = false;
};

}  // namespace dace::codegen
