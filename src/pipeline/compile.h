// The compile pipeline: SDFG -> callable program, in one place for every caller (the C API
// today; the CLI, the Python package and the bindings reach it through the C API; AOT and
// tiered compilation are to call it too). Steps, each timed:
//   [SDFG optimizer (src/transform, optimize_step.h), when requested, on a copy] ->
//   cache lookup (when the session has a cache: the key covers the input SDFG's content, the
//   optimizer's fingerprint, libdace's build, the plugins, the lowering options and the LLVM
//   options; a hit skips the rest) -> validate -> lower (src/codegen) -> LLVM optimization
//   and JIT (src/jit).
// The optimizer runs before the lookup even though the key does not need its result: a
// cached program's entry points and argument list are derived from the SDFG that was
// compiled, and the step costs milliseconds.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "ir/result.h"
#include "ir/sdfg.h"
#include "jit/program.h"
#include "jit/session.h"
#include "plugin/registry.h"

namespace dace::pipeline {

// What compiles: the session (target, object cache, vendor libraries) and the plugins that
// provide schedules, expansions and runtime symbols. Shared by the programs of one context.
struct Backend {
  std::shared_ptr<jit::JitSession> session;
  std::shared_ptr<plugin::Registry> registry;
  std::string plugins_fingerprint;  // part of the cache key
};

struct CompileRequest {
  const ir::SDFG* sdfg = nullptr;
  std::string content_hash;  // ir content hash of *sdfg, for the cache key
  int opt_level = 1;         // LLVM level, clamped to 0..3
  bool fast_math = false;
  int num_threads = 0;       // baked into the program's parallel maps; 0 = the runtime's default
  std::string dump_dir;      // write the optimized IR and assembly here (always compiles)
  std::string optimize;      // a registered pass run on a copy first ("simplify"); empty = none
};

// Milliseconds per step, as dace_compile_stats_t reports them.
struct PhaseTimes {
  bool cache_hit = false;
  double transform_ms = 0;  // the SDFG optimizer step (validation of its input and output included)
  double validate_ms = 0, lower_ms = 0, optimize_ms = 0, jit_ms = 0, total_ms = 0;
  uint64_t ir_instructions = 0, object_bytes = 0;
};

struct Compiled {
  std::unique_ptr<jit::Program> program;
  PhaseTimes times;
  std::unique_ptr<ir::SDFG> optimized;  // the copy the optimizer step made and compiled; null without
  // The SDFG the program was compiled from (its descriptors describe the arguments).
  const ir::SDFG& compiled_sdfg(const CompileRequest& request) const {
    return optimized ? *optimized : *request.sdfg;
  }
};

// Errors: those of run_optimizer (optimize_step.h), InvalidSdfg (validation, naming the
// element), Unsupported (what the backend cannot
// lower, naming it), the JIT's errors. Nothing is cached on error.
Result<Compiled> compile(const CompileRequest& request, const Backend& backend);

}  // namespace dace::pipeline
