#include "pipeline/compile.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>

#include "analysis/validate.h"
#include "ir/log.h"
#include "codegen/lower.h"
#include "codegen/registry_query.h"
#include "jit/binary_id.h"
#include "jit/bitcode.h"
#include "jit/program_abi.h"
#include "jit/program_key.h"
#include "pipeline/library_expansion_step.h"
#include "pipeline/optimize_step.h"
#include "pipeline/plugin_needs.h"
#include "plugin/build_id.h"
#include "plugin/deferred.h"
#include "plugin/registry.h"

namespace dace::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

// DACE_CUDA_EMULATE=1 (any value but empty and "0"): device code runs on the host.
bool emulate_device_from_environment() {
  const char* v = std::getenv("DACE_CUDA_EMULATE");
  return v && *v && std::string(v) != "0";
}

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// DACE_LOG=info: one line per compile; debug: one per phase (docs/jit.md "Logs").
void log_compile(const ir::SDFG& g, const PhaseTimes& t, int opt_level) {
  if (!log::enabled(log::Level::Info)) return;
  const std::string sdfg = "sdfg \"" + g.name + "\"";
  if (t.cache_hit) {
    log::info("compile", sdfg + ": from the cache, callable after " + log::ms(t.total_ms));
    return;
  }
  if (t.transform_ms > 0) log::debug("compile", sdfg + ": SDFG optimizer " + log::ms(t.transform_ms));
  log::debug("compile", sdfg + ": validate " + log::ms(t.validate_ms));
  log::debug("compile", sdfg + ": lower " + log::ms(t.lower_ms) + " (" + std::to_string(t.lowered_instructions) +
                            " LLVM instructions)");
  log::debug("compile", sdfg + ": LLVM optimize O" + std::to_string(t.tiered ? 0 : opt_level) + " " +
                            log::ms(t.optimize_ms) + " (" + std::to_string(t.ir_instructions) + " instructions after)");
  log::debug("compile", sdfg + ": machine code " + log::ms(t.codegen_ms) + " (" + std::to_string(t.object_bytes) +
                            " bytes), link " + log::ms(t.link_ms));
  log::info("compile", sdfg + ": callable after " + log::ms(t.total_ms) +
                           (t.tiered ? " (first tier; O" + std::to_string(opt_level) + " tier compiling in the background)"
                                     : ""));
}

// Hands the vendor libraries the registry has loaded to the session's library tier, right
// before a program links against them (adding one twice is a no-op). Optional libraries are
// loaded on first use (plugin/registry.h, `deferred`): by the lowering that needs one, or all
// of them when a cache key is made (jit::plugins_fingerprint), so the context does not add
// them when it starts.
Status add_loaded_vendor_libraries(jit::JitSession& session, const plugin::Registry& registry) {
  for (const auto& lib : registry.known_vendor_libraries())
    if (lib.available) DACE_TRY(session.add_library(lib.name));
  return Status::success();
}

// The program from the object cache, made callable with what lowering would have reported
// (jit/program_abi.h); null on a miss or when the cached object turns out unusable, and the
// caller compiles instead.
std::unique_ptr<jit::Program> load_cached(jit::JitSession& session, const ir::SDFG& g, const std::string& key,
                                          PhaseTimes& times) {
  auto module = session.load_cached(key);
  if (!module) return nullptr;
  const jit::CompileStats js = (*module)->stats();
  jit::ProgramAbi abi = jit::program_abi(g);
  auto prog = jit::Program::create(std::move(*module), abi.entry, std::move(abi.arguments), std::move(abi.init_arguments));
  if (!prog) return nullptr;
  times.cache_hit = true;
  times.jit_ms = js.total_ms;
  times.object_bytes = js.object_bytes;
  return std::move(*prog);
}

}  // namespace

codegen::LowerOptions lower_options(const CompileRequest& request, const Backend& backend) {
  codegen::LowerOptions lo;
  lo.fast_math = request.fast_math;
  lo.bounds_check = request.bounds_check;
  lo.default_num_threads = std::max(0, request.num_threads);
  lo.registry = backend.registry.get();
  if (backend.deferred) lo.declared_library_classes = backend.deferred->declared_library_classes();
  lo.device_code_dir = request.dump_dir;  // PTX of GPU programs lands beside the host IR
  lo.emulate_device = request.emulate_device || emulate_device_from_environment();
  lo.max_concurrent_streams = request.max_concurrent_streams;
  return lo;
}

Result<Compiled> compile(const CompileRequest& request, const Backend& backend) {
  const auto t_start = Clock::now();
  Compiled out;
  if (!request.optimize.empty()) {
    auto o = run_optimizer(*request.sdfg, request.optimize);
    if (!o) return o.take_error();
    out.optimized = std::move(*o);
  }
  // Library nodes whose implementation rewrites the SDFG (Gemm's PBLAS), as DaCe expands them
  // when it generates code; before the cache lookup, since the program's arguments come from
  // the SDFG compiled (the expansion adds Px and Py).
  std::vector<std::string> products;
  DACE_TRY(expand_for_compile(*request.sdfg, out.optimized, &products));
  if (out.optimized) out.times.transform_ms = ms_since(t_start);
  const ir::SDFG& g = out.compiled_sdfg(request);
  jit::JitSession& session = *backend.session;
  // One walk of the SDFG serves both users of its needs: the deferred plugins to load and the
  // cache key's library classes. Without either, none.
  std::optional<plugin::PluginNeeds> needs;
  if (session.has_cache() || has_pending_plugins(backend)) needs = plugin_needs(g);
  // Before the lookup: a cached object links against the runtime symbols of the plugins the
  // program needs, and the lowering looks up their schedules and storages.
  Status loaded = needs ? load_needed_plugins(*needs, backend) : Status::success();
  codegen::LowerOptions lo = lower_options(request, backend);
  DACE_TRY(check_distributed_products_runnable(products, loaded, lo));  // the products, not their expansion, named

  std::string key;
  if (session.has_cache()) {
    jit::ProgramKeyInputs in;
    in.sdfg_hash = request.content_hash;  // of the input: the optimizer is deterministic
    in.sdfg_optimizer = optimizer_fingerprint(request.optimize);
    in.sdfg_name = g.name;
    in.target_id = session.target().id();
    in.libdace_version = LIBDACE_VERSION_STRING;  // defined for the library target (CMakeLists.txt)
    in.libdace_build_id = plugin::build_id();
    in.libdace_binary_id = jit::libdace_binary_id();
    in.plugins = backend.plugins_fingerprint;
    std::set<std::string> classes;  // the program's library classes, nested SDFGs included
    for (const auto& [classpath, implementation] : needs->library_nodes) classes.insert(classpath);
    in.lowering = codegen::options_fingerprint_for(lo, &classes);
    in.opt_level = request.opt_level;
    in.fast_math = lo.fast_math;
    in.vector_math_library = session.has_vector_math_library();
    key = jit::program_cache_key(in);
    // A hit skips validation and lowering: the key covers the SDFG's content, and only a
    // valid SDFG ever got compiled under it. A dump needs the IR, so it always compiles.
    if (request.dump_dir.empty()) {
      DACE_TRY(add_loaded_vendor_libraries(session, *backend.registry));
      if (auto cached = load_cached(session, g, key, out.times)) {
        out.program = std::move(cached);
        out.callable_at = Clock::now();
        out.times.total_ms = ms_since(t_start);
        log_compile(g, out.times, request.opt_level);
        return out;
      }
    }
  }

  const auto t_validate = Clock::now();
  DACE_TRY(analysis::validate(g));
  out.times.validate_ms = ms_since(t_validate);
  lo.validate = false;
  const auto t_lower = Clock::now();
  auto llvm_context = std::make_unique<llvm::LLVMContext>();
  auto lowered = codegen::lower(g, *llvm_context, lo);
  if (!lowered) return lowered.take_error();
  out.times.lower_ms = ms_since(t_lower);
  DACE_TRY(add_loaded_vendor_libraries(session, *backend.registry));
  jit::CompileOptions co;
  co.opt.level = request.opt_level;
  co.opt.fast_math = lo.fast_math;
  co.dump_dir = request.dump_dir;
  co.cache_key = key;
  co.cache_read = false;  // looked up above
  const bool tiered = request.tiered && request.opt_level > 0 && request.dump_dir.empty();
  std::string bitcode;
  jit::CompileOptions first = co;
  if (tiered) {
    bitcode = jit::write_bitcode(*lowered->module);  // before the first tier consumes the module
    first.opt.level = 0;
    first.cache_key.clear();  // the cache holds the optimized tier only
  }
  auto module = session.compile(std::move(lowered->module), std::move(llvm_context), tiered ? first : co);
  if (!module) return module.take_error();
  const jit::CompileStats& js = (*module)->stats();
  out.times.cache_hit = js.cache_hit;
  out.times.tiered = tiered;
  out.times.optimize_ms = js.optimize_ms;
  out.times.jit_ms = js.total_ms - js.optimize_ms;
  out.times.codegen_ms = js.codegen_ms;
  out.times.link_ms = js.link_ms;
  out.times.lowered_instructions = js.lowered_instructions;
  out.times.ir_instructions = js.ir_instructions;
  out.times.object_bytes = js.object_bytes;
  out.times.pieces = js.cache_hit ? 0 : js.pieces;
  out.times.threads = js.cache_hit ? 0 : js.threads;
  auto prog = jit::Program::create(std::move(*module),
                                   {lowered->init_function, lowered->program_function, lowered->exit_function},
                                   lowered->arguments, lowered->init_arguments);
  if (!prog) return prog.take_error();
  out.program = std::move(*prog);
  if (tiered) {
    std::shared_ptr<jit::JitSession> shared = backend.session;
    out.program->start_optimized_tier(
        [shared, co, bitcode = std::move(bitcode), name = g.name,
         hold = request.before_optimized_install]() -> Result<std::unique_ptr<jit::JitModule>> {
          const auto t_tier = Clock::now();
          auto context = std::make_unique<llvm::LLVMContext>();
          auto module = jit::read_bitcode(bitcode, *context);
          if (!module) return module.take_error();
          auto compiled = shared->compile(std::move(*module), std::move(context), co);
          log::info("compile", "sdfg \"" + name + "\": O" + std::to_string(co.opt.level) + " tier " +
                                   (compiled ? "compiled in " : "failed after ") + log::ms(ms_since(t_tier)) +
                                   (compiled ? " (swapped in before the next call)" : ": " + compiled.error().message));
          if (compiled && hold) hold();
          return compiled;
        });
  }
  out.callable_at = Clock::now();
  out.times.total_ms = ms_since(t_start);
  log_compile(g, out.times, request.opt_level);
  if (tiered && request.wait_optimized) DACE_TRY(out.program->wait_optimized_tier());
  return out;
}

}  // namespace dace::pipeline
