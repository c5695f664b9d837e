// The compile pipeline: SDFG -> callable program, in one place for every caller (the C API
// today; the CLI, the Python package and the bindings reach it through the C API; AOT and
// tiered compilation are to call it too). Steps, each timed:
//   [SDFG optimizer (src/transform, optimize_step.h), when requested, on a copy] ->
//   [expansion of the library nodes whose implementation rewrites the SDFG (Gemm's PBLAS,
//   library_expansion_step.h), when there are any, on a copy] ->
//   cache lookup (when the session has a cache: the key covers the input SDFG's content, the
//   optimizer's fingerprint, libdace's build, the plugins, the lowering options and the LLVM
//   options; a hit skips the rest) -> validate -> lower (src/codegen) -> LLVM optimization
//   and JIT (src/jit).
// The optimizer runs before the lookup even though the key does not need its result: a
// cached program's entry points and argument list are derived from the SDFG that was
// compiled, and the step costs milliseconds.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "codegen/options.h"
#include "ir/result.h"
#include "ir/sdfg.h"
#include "jit/program.h"
#include "jit/session.h"
#include "plugin/registry.h"

namespace dace::plugin {
class DeferredPlugins;
}

namespace dace::pipeline {

// What compiles: the session (target, object cache, vendor libraries) and the plugins that
// provide schedules, expansions and runtime symbols. Shared by the programs of one context.
struct Backend {
  std::shared_ptr<jit::JitSession> session;
  std::shared_ptr<plugin::Registry> registry;
  std::string plugins_fingerprint;  // part of the cache key
  // Plugins discovered with a manifest and loaded into `registry` when a program needs them
  // (pipeline/plugin_needs.h), before its cache lookup; null when there are none.
  std::shared_ptr<plugin::DeferredPlugins> deferred;
};

struct CompileRequest {
  const ir::SDFG* sdfg = nullptr;
  std::string content_hash;  // ir content hash of *sdfg, for the cache key
  int opt_level = 1;         // LLVM level, clamped to 0..3
  bool fast_math = false;
  int num_threads = 0;       // baked into the program's parallel maps; 0 = the runtime's default
  std::string dump_dir;      // write the optimized IR and assembly here (always compiles)
  std::string optimize;      // a registered pass run on a copy first ("simplify"); empty = none
  // Tiers: the program is callable as soon as a first tier (LLVM O0, fast instruction
  // selection) is linked; the module at opt_level compiles on a background thread and is
  // swapped in between two calls (jit/program.h), and that is what the cache stores. Off,
  // at opt_level 0, with a dump_dir or on a cache hit: one compile at opt_level, as before.
  bool tiered = true;
  bool wait_optimized = false;  // return only once the optimized tier is in (or failed)
  // Tests only: run on the optimized tier's thread once its code is compiled, before it is
  // swapped in; blocking in it holds the swap, so a test can have calls racing a swap it
  // releases (capi_program_tiers_test.cpp). Not set by any user-facing option.
  std::function<void()> before_optimized_install;
  // Device code runs on the host (codegen::LowerOptions::emulate_device); DACE_CUDA_EMULATE=1
  // in the environment sets it too.
  bool emulate_device = false;
  bool bounds_check = false;    // run-time bounds checks of memlets (codegen/bounds_check.h)
  int32_t max_concurrent_streams = 0;  // codegen::LowerOptions::max_concurrent_streams
};

// Milliseconds per step, as dace_compile_stats_t reports them.
// With tiers, the LLVM phases are those of the first tier (what the first call waited
// for); the optimized tier's are in the Program (jit::Program::optimized_tier()).
struct PhaseTimes {
  bool cache_hit = false;
  bool tiered = false;      // a background job compiles the optimized tier
  double transform_ms = 0;  // the SDFG optimizer and expansion steps (validation of their input and output included)
  double validate_ms = 0, lower_ms = 0, optimize_ms = 0, jit_ms = 0, total_ms = 0;
  double codegen_ms = 0, link_ms = 0;  // the two parts of jit_ms (without the cache's share)
  uint64_t lowered_instructions = 0, ir_instructions = 0, object_bytes = 0;
  int pieces = 0, threads = 0;  // parallel code generation of the first (or only) tier; 0 on a cache hit
};

struct Compiled {
  std::unique_ptr<jit::Program> program;
  PhaseTimes times;
  std::chrono::steady_clock::time_point callable_at;  // when the first tier was ready
  std::unique_ptr<ir::SDFG> optimized;  // the copy the optimizer and expansion steps made and compiled; null without
  // The SDFG the program was compiled from (its descriptors describe the arguments).
  const ir::SDFG& compiled_sdfg(const CompileRequest& request) const {
    return optimized ? *optimized : *request.sdfg;
  }
};

// The lowering options a request asks for (shared by the JIT and ahead-of-time compiles).
codegen::LowerOptions lower_options(const CompileRequest& request, const Backend& backend);

// Errors: those of run_optimizer (optimize_step.h), InvalidSdfg (validation, naming the
// element), Unsupported (what the backend cannot
// lower, naming it), the JIT's errors. Nothing is cached on error.
Result<Compiled> compile(const CompileRequest& request, const Backend& backend);

}  // namespace dace::pipeline
