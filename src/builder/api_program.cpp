// dace_program_t: compile an SDFG through the compile pipeline (pipeline/compile.h: cache
// lookup, validate, lower, JIT) with the context's plugins and session, and call it with
// checked arguments.
#include <algorithm>
#include <chrono>
#include <complex>
#include <ctime>
#include <limits>

#include "analysis/arguments.h"
#include "builder/api_instrument.h"
#include "builder/api_internal.h"
#include "builder/api_options.h"
#include "codegen/registry_query.h"
#include "ir/equality.h"
#include "ir/log.h"
#include "jit/program.h"
#include "jit/program_key.h"
#include "jit/session.h"
#include "pipeline/aot.h"
#include "pipeline/compile.h"
#include "plugin/deferred.h"
#include "plugin/loader.h"
#include "plugin/registry.h"

using namespace dace::capi;
using dace::Code;
using dace::Status;
using dace::analysis::Argument;
using dace::ir::ScalarType;
namespace sym = dace::sym;

// How a call's arguments are checked, prepared once at compile time, plus the scratch a call
// fills in. Calls on one program are serialized by `call_mutex`, so the scratch is reused and
// the common path allocates nothing.
struct CallPlan {
  // An extent or stride: a constant, a bare symbol (its slot), or an expression evaluated
  // over env. The first two, by far the most common, need no evaluation.
  struct Value {
    sym::Expr expr = nullptr;
    int32_t slot = -1;
    bool constant = false;
    int64_t value = 0;
  };
  struct Dim {
    Value shape, stride;
    std::vector<int32_t> needs;  // slots of every symbol in shape and stride
  };
  // Per argument: array dimensions, or the slot of a symbol argument.
  std::vector<std::vector<Dim>> dims;
  std::vector<int32_t> symbol_slot;
  size_t symbol_arguments = 0;
  // Every symbol name a call may bind, each inserted once; slot i's value lives in env.
  std::map<std::string, int64_t> env;
  std::vector<int64_t*> slot_value;
  std::vector<const std::string*> slot_name;

  // Scratch.
  std::vector<uint8_t> known;
  std::vector<const dace_arg_t*> given;
  std::vector<dace::jit::ArgValue> values;
};

struct dace_program {
  std::unique_ptr<dace::jit::Program> program;
  // Per argument (arrays only): the descriptor's shape and strides, to check calls against.
  std::vector<std::vector<sym::Expr>> shapes, strides;
  dace_compile_stats_t stats{};  // at compile time; the optimized tier's fields are read live
  std::chrono::steady_clock::time_point compile_started;
  CallPlan plan;
  std::mutex call_mutex;
  // The host's MPI communicator (compile option mpi_comm) and the MPI plugin's runtime hook
  // that hands it to the program's next state initialisation; null without the plugin.
  const void* mpi_comm = nullptr;
  void (*set_mpi_comm)(const void*) = nullptr;
  // Reports of the calls when the program has timers (api_instrument.h); null otherwise.
  std::unique_ptr<dace::capi::ProgramReports> reports;
};

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// CPU time of the calling thread in ms: on a shared host the wall time of a start-up phase is
// mostly waiting for a core, its CPU time is what the phase costs.
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

// Directories searched for plugins: the context option "plugin_path" (colon-separated) when
// set, which replaces DACE_PLUGIN_PATH and the folder next to libdace; otherwise those two.
std::vector<std::string> search_dirs(dace_context_t* ctx, bool& from_option) {
  std::string value;
  {
    std::lock_guard<std::mutex> lock(ctx->mutex);
    auto it = ctx->options.find("plugin_path");
    from_option = it != ctx->options.end();
    if (from_option) value = it->second;
  }
  if (!from_option) return dace::plugin::plugin_search_dirs();
  return dace::plugin::split_path_list(value);
}

Status ensure_jit(dace_context_t* ctx, const std::string& cache_dir) {
  std::lock_guard<std::mutex> lock(ctx->jit_mutex);
  if (ctx->session) return Status::success();
  auto registry = std::make_shared<dace::plugin::Registry>();
  bool from_option = false;
  std::vector<std::string> dirs = search_dirs(ctx, from_option);
  const auto t_plugins = Clock::now();
  const double cpu_plugins = thread_cpu_ms();
  // Plugins with a manifest (MPI, CUDA) stay unloaded until a program needs them
  // (pipeline/plugin_needs.h); the CPU plugin has none and is loaded now.
  auto deferred = std::make_shared<dace::plugin::DeferredPlugins>();
  dace::plugin::DiscoveryReport report = dace::plugin::discover_plugins_lazily(*registry, dirs, *deferred);
  if (dace::log::enabled(dace::log::Level::Debug))
    dace::log::debug("plugins", std::to_string(report.loaded.size()) + " loaded in " + dace::log::ms(ms_since(t_plugins)) +
                                    " (thread CPU " + dace::log::ms(thread_cpu_ms() - cpu_plugins) + "), " +
                                    std::to_string(deferred->pending().size()) + " deferred until a program needs them");
  // The same question codegen asks for each parallel map: the CPU_Multicore schedule's
  // runtime entry, which must also be among the runtime symbols the JIT resolves.
  dace::codegen::LowerOptions probe;
  probe.registry = registry.get();
  dace::Result<std::string> entry = dace::codegen::parallel_for_entry(probe, "compile");
  if (!entry || !registry->find_runtime_symbol(*entry)) {
    std::string msg = "compile: no plugin provides the CPU runtime (the CPU_Multicore schedule" +
                      (entry ? " and its entry " + *entry : std::string()) + "); searched";
    if (dirs.empty())
      msg += from_option ? " nothing (the context option \"plugin_path\" is empty)" : " nothing (set DACE_PLUGIN_PATH)";
    for (const auto& d : dirs) msg += " " + d;
    if (from_option) msg += " (context option \"plugin_path\")";
    for (const auto& e : report.failed) msg += "; " + e.message;
    return dace::make_error(Code::PluginUnavailable, msg);
  }
  dace::jit::SessionOptions so;
  so.cache_dir = cache_dir;
  const auto t_session = Clock::now();
  const double cpu_session = thread_cpu_ms();
  auto session = dace::jit::JitSession::create(so);
  if (!session) return session.take_error();
  if (dace::log::enabled(dace::log::Level::Debug))
    dace::log::debug("compile", "JIT session (LLJIT, host target, libmvec) created in " +
                                    dace::log::ms(ms_since(t_session)) + " (thread CPU " +
                                    dace::log::ms(thread_cpu_ms() - cpu_session) + ")");
  for (const auto& s : registry->runtime_symbols()) DACE_TRY((*session)->define_runtime_symbol(s.name, s.address));
  // Optional vendor libraries (OpenBLAS, LAPACKE) are loaded when a lowering first asks for
  // them, and pipeline::compile hands them to the session before it links: a start-up without
  // them is tens of ms shorter. A cache key names them all (their availability decides the
  // code), so with a cache the fingerprint loads them all here.
  if (!cache_dir.empty())
    ctx->plugins_fingerprint = dace::jit::plugins_fingerprint(*registry) + deferred->fingerprint();
  ctx->deferred_plugins = std::move(deferred);
  ctx->session = std::shared_ptr<dace::jit::JitSession>(std::move(*session));
  ctx->registry = std::move(registry);
  return Status::success();
}

std::string arg_label(const Argument& a) {
  return std::string(a.kind == Argument::Kind::Symbol ? "symbol " : "argument ") + dace::ir::quoted(a.name);
}

ScalarType scalar_of(const Argument& a) {
  return a.dtype.scalar == ScalarType::Unknown ? ScalarType::Int64 : a.dtype.scalar;
}

bool is_int(ScalarType t) {
  return t == ScalarType::Bool || t == ScalarType::Int8 || t == ScalarType::Int16 || t == ScalarType::Int32 ||
         t == ScalarType::Int64 || t == ScalarType::UInt8 || t == ScalarType::UInt16 || t == ScalarType::UInt32 ||
         t == ScalarType::UInt64;
}

template <class T>
bool put_int(dace::jit::ArgValue& v, int64_t x) {
  if constexpr (std::is_same_v<T, bool>) {
    if (x != 0 && x != 1) return false;
    v = dace::jit::ArgValue::scalar<uint8_t>(static_cast<uint8_t>(x));
    return true;
  } else {
    if (x < 0 && !std::is_signed_v<T>) return false;
    if (x > 0 && static_cast<uint64_t>(x) > static_cast<uint64_t>(std::numeric_limits<T>::max())) return false;
    if (std::is_signed_v<T> && x < static_cast<int64_t>(std::numeric_limits<T>::min())) return false;
    v = dace::jit::ArgValue::scalar<T>(static_cast<T>(x));
    return true;
  }
}

bool int_to_slot(ScalarType t, int64_t x, dace::jit::ArgValue& v) {
  switch (t) {
    case ScalarType::Bool: return put_int<bool>(v, x);
    case ScalarType::Int8: return put_int<int8_t>(v, x);
    case ScalarType::Int16: return put_int<int16_t>(v, x);
    case ScalarType::Int32: return put_int<int32_t>(v, x);
    case ScalarType::Int64: return put_int<int64_t>(v, x);
    case ScalarType::UInt8: return put_int<uint8_t>(v, x);
    case ScalarType::UInt16: return put_int<uint16_t>(v, x);
    case ScalarType::UInt32: return put_int<uint32_t>(v, x);
    case ScalarType::UInt64: return put_int<uint64_t>(v, x);
    default: return false;
  }
}

// A scalar argument's slot from the caller's value; false when kind and dtype do not fit.
bool scalar_to_slot(ScalarType t, const dace_arg_t& arg, dace::jit::ArgValue& v) {
  int kind = enum_bits(arg.kind);
  if (kind == DACE_ARG_INT) {
    if (is_int(t)) return int_to_slot(t, arg.value.i, v);
    if (t == ScalarType::Float32) v = dace::jit::ArgValue::scalar(static_cast<float>(arg.value.i));
    else if (t == ScalarType::Float64) v = dace::jit::ArgValue::scalar(static_cast<double>(arg.value.i));
    else return false;
    return true;
  }
  if (kind == DACE_ARG_FLOAT) {
    if (t == ScalarType::Float32) v = dace::jit::ArgValue::scalar(static_cast<float>(arg.value.f));
    else if (t == ScalarType::Float64) v = dace::jit::ArgValue::scalar(arg.value.f);
    else return false;
    return true;
  }
  if (kind == DACE_ARG_COMPLEX) {
    if (t == ScalarType::Complex64) {
      v = dace::jit::ArgValue::scalar(
          std::complex<float>(static_cast<float>(arg.value.c[0]), static_cast<float>(arg.value.c[1])));
    } else if (t == ScalarType::Complex128) {
      v = dace::jit::ArgValue::scalar(std::complex<double>(arg.value.c[0], arg.value.c[1]));
    } else {
      return false;
    }
    return true;
  }
  return false;
}

int32_t slot_of(CallPlan& plan, const std::string& name) {
  auto [it, inserted] = plan.env.emplace(name, 0);
  if (inserted) {
    plan.slot_value.push_back(&it->second);
    plan.slot_name.push_back(&it->first);
  }
  for (size_t i = 0; i < plan.slot_name.size(); ++i)
    if (plan.slot_name[i] == &it->first) return static_cast<int32_t>(i);
  return -1;  // unreachable: the name was just found or inserted
}

CallPlan::Value value_plan(CallPlan& plan, sym::Expr e) {
  CallPlan::Value v;
  v.expr = e;
  if (auto c = sym::as_integer(e)) {
    v.constant = true;
    v.value = *c;
  } else if (e->op == sym::Op::Symbol) {
    v.slot = slot_of(plan, e->name);
  }
  return v;
}

// The value of a planned extent or stride; every symbol it needs is bound.
dace::Result<int64_t> value_of(const CallPlan& plan, const CallPlan::Value& v) {
  if (v.constant) return v.value;
  if (v.slot >= 0) return *plan.slot_value[static_cast<size_t>(v.slot)];
  return sym::evaluate(v.expr, plan.env);
}

void make_plan(dace_program& p) {
  CallPlan& plan = p.plan;
  const auto& params = p.program->arguments();
  const size_t n = params.size();
  plan.dims.resize(n);
  plan.symbol_slot.assign(n, -1);
  for (size_t i = 0; i < n; ++i) {
    if (params[i].kind == Argument::Kind::Symbol) {
      plan.symbol_slot[i] = slot_of(plan, params[i].name);
      ++plan.symbol_arguments;
    }
    for (size_t k = 0; k < p.shapes[i].size(); ++k) {
      CallPlan::Dim d;
      d.shape = value_plan(plan, p.shapes[i][k]);
      d.stride = value_plan(plan, p.strides[i][k]);
      for (sym::Expr e : {d.shape.expr, d.stride.expr})
        for (const auto& name : sym::free_symbols(e)) d.needs.push_back(slot_of(plan, name));
      plan.dims[i].push_back(std::move(d));
    }
  }
  plan.known.assign(plan.slot_name.size(), 0);
  plan.given.assign(n, nullptr);
  plan.values.assign(n, dace::jit::ArgValue{});
}

// Checks the caller's arguments against the plan and fills plan.values. Caller holds
// p.call_mutex. Allocates only to report an error.
Status prepare_call(dace_program& p, const char* const* names, const dace_arg_t* args, int32_t count) {
  CallPlan& plan = p.plan;
  const auto& params = p.program->arguments();
  const size_t n = params.size();
  if (count < 0) return invalid("program call: negative count");
  if (count > 0) DACE_TRY(require(args, "args"));
  // given[i]: the caller's value for argument i, or null.
  std::fill(plan.given.begin(), plan.given.end(), nullptr);
  std::fill(plan.known.begin(), plan.known.end(), uint8_t{0});
  if (names) {
    for (int32_t k = 0; k < count; ++k) {
      if (!names[k]) return invalid("program call: names[" + std::to_string(k) + "] is NULL");
      size_t i = 0;
      while (i < n && params[i].name != names[k]) ++i;
      if (i == n) return not_found("program call: no argument named " + dace::ir::quoted(names[k]));
      if (plan.given[i]) return invalid("program call: " + arg_label(params[i]) + " given twice");
      plan.given[i] = &args[k];
    }
  } else {
    const bool all = static_cast<size_t>(count) == n;
    if (!all && static_cast<size_t>(count) != n - plan.symbol_arguments)
      return invalid("program call: " + std::to_string(count) + " positional arguments; expected " +
                     std::to_string(n) + " (all) or " + std::to_string(n - plan.symbol_arguments) +
                     " (without symbols)");
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
      if (all || params[i].kind != Argument::Kind::Symbol) plan.given[i] = &args[k++];
  }

  // Symbols: given ones first, then those equal to a shape dimension of an array.
  auto bind = [&](int32_t slot, int64_t v) {
    *plan.slot_value[static_cast<size_t>(slot)] = v;
    plan.known[static_cast<size_t>(slot)] = 1;
  };
  for (size_t i = 0; i < n; ++i) {
    if (params[i].kind != Argument::Kind::Symbol || !plan.given[i]) continue;
    int kind = enum_bits(plan.given[i]->kind);
    if (kind != DACE_ARG_SYMBOL && kind != DACE_ARG_INT)
      return invalid("program call: " + arg_label(params[i]) + ": expected an integer value (DACE_ARG_SYMBOL)");
    bind(plan.symbol_slot[i], plan.given[i]->value.i);
  }
  for (size_t i = 0; i < n; ++i) {
    const Argument& a = params[i];
    if (!plan.given[i]) {
      if (a.kind == Argument::Kind::Symbol) continue;
      return invalid("program call: " + arg_label(a) + " missing");
    }
    if (a.kind != Argument::Kind::Array) continue;
    if (enum_bits(plan.given[i]->kind) != DACE_ARG_ARRAY)
      return invalid("program call: " + arg_label(a) + ": expected an array (DACE_ARG_ARRAY)");
    const dace_array_desc_t& d = plan.given[i]->value.array;
    if (!d.data) return invalid("program call: " + arg_label(a) + ": data is NULL");
    if (enum_bits(d.dtype) != static_cast<int>(a.dtype.scalar))
      return invalid("program call: " + arg_label(a) + ": dtype " + dtype_label(d.dtype) +
                     " does not match the descriptor's " + dace::ir::scalar_type_name(a.dtype.scalar));
    const auto& dims = plan.dims[i];
    if (d.ndim != static_cast<int32_t>(dims.size()))
      return invalid("program call: " + arg_label(a) + ": rank " + std::to_string(d.ndim) + ", expected " +
                     std::to_string(dims.size()));
    if (d.ndim > 0 && !d.shape) return invalid("program call: " + arg_label(a) + ": shape is NULL");
    for (int32_t k = 0; k < d.ndim; ++k) {
      const int32_t slot = dims[static_cast<size_t>(k)].shape.slot;
      if (slot < 0) continue;
      const size_t us = static_cast<size_t>(slot);
      if (!plan.known[us]) {
        bind(slot, d.shape[k]);
      } else if (*plan.slot_value[us] != d.shape[k]) {
        return invalid("program call: " + arg_label(a) + ": dimension " + std::to_string(k) + " is " +
                       std::to_string(d.shape[k]) + " but symbol " + *plan.slot_name[us] + " is " +
                       std::to_string(*plan.slot_value[us]));
      }
    }
  }

  for (size_t i = 0; i < n; ++i) {
    const Argument& a = params[i];
    dace::jit::ArgValue& value = plan.values[i];
    if (a.kind == Argument::Kind::Symbol) {
      const size_t slot = static_cast<size_t>(plan.symbol_slot[i]);
      if (!plan.known[slot])
        return invalid("program call: " + arg_label(a) + " missing (not given and not a dimension of an array)");
      if (!int_to_slot(scalar_of(a), *plan.slot_value[slot], value))
        return invalid("program call: " + arg_label(a) + ": value " + std::to_string(*plan.slot_value[slot]) +
                       " does not fit " + dace::ir::scalar_type_name(scalar_of(a)));
    } else if (a.kind == Argument::Kind::Scalar) {
      if (!scalar_to_slot(scalar_of(a), *plan.given[i], value))
        return invalid("program call: " + arg_label(a) + ": value kind does not fit dtype " +
                       dace::ir::scalar_type_name(scalar_of(a)));
    } else {
      const dace_array_desc_t& d = plan.given[i]->value.array;
      for (int32_t k = 0; k < d.ndim; ++k) {
        const CallPlan::Dim& dim = plan.dims[i][static_cast<size_t>(k)];
        for (int32_t slot : dim.needs)
          if (!plan.known[static_cast<size_t>(slot)])
            return invalid("program call: " + arg_label(a) + ": dimension " + std::to_string(k) + " needs symbol " +
                           *plan.slot_name[static_cast<size_t>(slot)] +
                           ", which is neither given nor a dimension of an array");
        auto extent = value_of(plan, dim.shape);
        if (!extent) return invalid("program call: " + arg_label(a) + ": shape: " + extent.error().message);
        if (*extent != d.shape[k])
          return invalid("program call: " + arg_label(a) + ": dimension " + std::to_string(k) + " is " +
                         std::to_string(d.shape[k]) + ", expected " + std::to_string(*extent));
        auto stride = value_of(plan, dim.stride);
        if (!stride) return invalid("program call: " + arg_label(a) + ": strides: " + stride.error().message);
        // Without explicit strides the caller's array is C-ordered.
        int64_t c_stride = 1;
        for (int32_t j = k + 1; j < d.ndim; ++j) c_stride *= d.shape[j];
        int64_t have = d.strides ? d.strides[k] : c_stride;
        if (d.shape[k] > 1 && have != *stride)
          return invalid("program call: " + arg_label(a) + ": stride of dimension " + std::to_string(k) + " is " +
                         std::to_string(have) + ", expected " + std::to_string(*stride));
      }
      value = dace::jit::ArgValue::pointer(d.data);
    }
  }
  return Status::success();
}

std::unique_ptr<dace_program> make_program(std::unique_ptr<dace::jit::Program> program, const dace::ir::SDFG& g) {
  auto result = std::make_unique<dace_program>();
  result->program = std::move(program);
  for (const auto& a : result->program->arguments()) {
    std::vector<sym::Expr> shape, strides;
    auto it = g.arrays.find(a.name);
    if (a.kind == Argument::Kind::Array && it != g.arrays.end()) {
      shape = it->second.shape;
      strides = it->second.strides.size() == shape.size() ? it->second.strides : dace::ir::default_strides(shape);
    }
    result->shapes.push_back(std::move(shape));
    result->strides.push_back(std::move(strides));
  }
  make_plan(*result);
  return result;
}

// The extents ("shape") or element strides ("strides") of array argument `index` for the
// given symbol values: dace_program_argument_shape/_strides.
Status evaluate_layout(int64_t* out, size_t capacity, size_t* out_ndim, const dace_program_t* program, int32_t index,
                       const char* const* symbol_names, const int64_t* symbol_values, int32_t symbol_count,
                       const std::string& what) {
  DACE_TRY(require(out_ndim, "out_ndim"));
  DACE_TRY(require(program, "program"));
  if (capacity > 0) DACE_TRY(require(out, ("out_" + what).c_str()));
  const std::string where = "program argument " + what;
  if (symbol_count < 0) return invalid(where + ": negative symbol_count");
  if (symbol_count > 0) {
    DACE_TRY(require(symbol_names, "symbol_names"));
    DACE_TRY(require(symbol_values, "symbol_values"));
  }
  const auto& args = program->program->arguments();
  if (index < 0 || static_cast<size_t>(index) >= args.size())
    return not_found("program argument " + std::to_string(index) + ": out of range (" + std::to_string(args.size()) +
                     " arguments)");
  const size_t i = static_cast<size_t>(index);
  if (args[i].kind != Argument::Kind::Array) return invalid(where + ": " + arg_label(args[i]) + " is not an array");
  std::map<std::string, int64_t> symbols;
  for (int32_t k = 0; k < symbol_count; ++k) {
    if (!symbol_names[k]) return invalid(where + ": symbol_names[" + std::to_string(k) + "] is NULL");
    symbols[symbol_names[k]] = symbol_values[k];
  }
  const auto& exprs = what == "shape" ? program->shapes[i] : program->strides[i];
  std::vector<int64_t> values;
  for (const auto& e : exprs) {
    for (const auto& name : sym::free_symbols(e))
      if (!symbols.count(name))
        return not_found(where + ": " + arg_label(args[i]) + " needs symbol " + dace::ir::quoted(name));
    auto v = sym::evaluate(e, symbols);
    if (!v) return invalid(where + ": " + arg_label(args[i]) + ": " + v.error().message);
    values.push_back(*v);
  }
  for (size_t k = 0; k < values.size() && k < capacity; ++k) out[k] = values[k];
  *out_ndim = values.size();
  return Status::success();
}

}  // namespace

namespace dace::capi {
const jit::Program& jit_program_of(const dace_program_t& program) { return *program.program; }
}  // namespace dace::capi

extern "C" {

dace_status_t dace_compile_options_init(dace_compile_options_t* options, uint32_t version) {
  return guard([&]() -> Status { return init_options(options, version); });
}

dace_status_t dace_program_compile(dace_program_t** out_program, dace_context_t* context, const dace_sdfg_t* sdfg,
                                   const dace_compile_options_t* options) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_program, "out_program"));
    DACE_TRY(require(context, "context"));
    auto sd = sdfg_of(sdfg);
    if (!sd) return sd.take_error();
    const dace::ir::SDFG& g = **sd;
    auto read = read_options(options);
    if (!read) return read.take_error();
    const dace_compile_options_t opts = *read;
    // The total includes the context's first plugin discovery and LLVM set-up, as it always did.
    const auto t_start = Clock::now();
    DACE_TRY(ensure_jit(context, str_or_empty(opts.cache_dir)));
    dace::pipeline::Backend backend;
    std::function<void()> hold_swap;
    {
      std::lock_guard<std::mutex> lock(context->jit_mutex);
      backend = {context->session, context->registry, context->plugins_fingerprint, context->deferred_plugins};
      hold_swap = context->before_optimized_install;
    }
    dace::pipeline::CompileRequest request;
    request.sdfg = &g;
    if (backend.session->has_cache()) request.content_hash = content_hash_of(sdfg);
    request.opt_level = opts.opt_level;
    request.fast_math = opts.fast_math != 0;
    // Per program: baked into its parallel_for calls, so programs of one process differ.
    request.num_threads = opts.num_threads;
    request.dump_dir = str_or_empty(opts.dump_dir);
    request.optimize = str_or_empty(opts.optimize);
    request.tiered = opts.tiered != 0;
    request.wait_optimized = opts.wait_optimized != 0;
    request.before_optimized_install = std::move(hold_swap);
    request.emulate_device = opts.emulate_device != 0;
    request.bounds_check = opts.bounds_check != 0;
    if (opts.max_concurrent_streams < 0)
      return invalid("dace_compile_options_t: max_concurrent_streams " + std::to_string(opts.max_concurrent_streams) +
                     " is negative");
    request.max_concurrent_streams = opts.max_concurrent_streams;
    auto compiled = dace::pipeline::compile(request, backend);
    if (!compiled) return compiled.take_error();
    const auto t_plan = Clock::now();
    auto result = make_program(std::move(compiled->program), compiled->compiled_sdfg(request));
    const double plan_ms = ms_since(t_plan);
    const dace::pipeline::PhaseTimes& t = compiled->times;
    dace_compile_stats_t& stats = result->stats;
    stats.version = DACE_COMPILE_STATS_VERSION;
    stats.cache_hit = t.cache_hit ? 1 : 0;
    stats.validate_ms = t.validate_ms;
    stats.lower_ms = t.lower_ms;
    stats.optimize_ms = t.optimize_ms;
    stats.jit_ms = t.jit_ms;
    stats.ir_instructions = t.ir_instructions;
    stats.object_bytes = t.object_bytes;
    stats.transform_ms = t.transform_ms;
    stats.codegen_ms = t.codegen_ms;
    stats.link_ms = t.link_ms;
    stats.lowered_instructions = t.lowered_instructions;
    stats.tiered = t.tiered ? 1 : 0;
    stats.pieces = t.pieces;
    stats.threads = t.threads;
    // Until callable: a wait for the optimized tier (wait_optimized) is not part of it.
    stats.total_ms = std::chrono::duration<double, std::milli>(compiled->callable_at - t_start).count() + plan_ms;
    result->compile_started = t_start;
    result->mpi_comm = opts.mpi_comm;
    if (void* hook = backend.registry->find_runtime_symbol("dace_mpi_set_host_comm"))
      result->set_mpi_comm = reinterpret_cast<void (*)(const void*)>(hook);
    if (!result->program->instrument_elements().empty()) {
      auto reports = make_program_reports(*result->program, context, g.name, content_hash_of(sdfg));
      if (!reports) return reports.take_error();
      result->reports = std::move(*reports);
    }
    *out_program = result.release();
    return Status::success();
  });
}

dace_status_t dace_program_compile_aot(dace_context_t* context, const dace_sdfg_t* sdfg,
                                       const dace_compile_options_t* options, const char* out_dir) {
  return guard([&]() -> Status {
    DACE_TRY(require(context, "context"));
    DACE_TRY(require(out_dir, "out_dir"));
    auto sd = sdfg_of(sdfg);
    if (!sd) return sd.take_error();
    auto read = read_options(options);
    if (!read) return read.take_error();
    const dace_compile_options_t opts = *read;
    // The session gives the host target and the plugins the lowering uses; its cache is not.
    DACE_TRY(ensure_jit(context, str_or_empty(opts.cache_dir)));
    dace::pipeline::Backend backend;
    {
      std::lock_guard<std::mutex> lock(context->jit_mutex);
      backend = {context->session, context->registry, context->plugins_fingerprint, context->deferred_plugins};
    }
    dace::pipeline::CompileRequest request;
    request.sdfg = &**sd;
    request.opt_level = opts.opt_level;
    request.fast_math = opts.fast_math != 0;
    request.num_threads = opts.num_threads;
    request.optimize = str_or_empty(opts.optimize);
    request.bounds_check = opts.bounds_check != 0;
    request.emulate_device = opts.emulate_device != 0;  // GPU programs: kernels built for the host
    if (opts.max_concurrent_streams < 0)
      return invalid("dace_compile_options_t: max_concurrent_streams " + std::to_string(opts.max_concurrent_streams) +
                     " is negative");
    request.max_concurrent_streams = opts.max_concurrent_streams;
    auto written = dace::pipeline::compile_aot(request, backend, out_dir);
    if (!written) return written.take_error();
    return Status::success();
  });
}

void dace_program_release(dace_program_t* program) {
  if (!program) return;
  try {
    (void)program->program->release();
  } catch (...) {
  }
  delete program;
}

dace_status_t dace_program_argument_count(int32_t* out_count, const dace_program_t* program) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_count, "out_count"));
    DACE_TRY(require(program, "program"));
    *out_count = static_cast<int32_t>(program->program->arguments().size());
    return Status::success();
  });
}

dace_status_t dace_program_argument_info(const char** out_name, int32_t* out_kind, dace_dtype_t* out_dtype,
                                         const dace_program_t* program, int32_t index) {
  return guard([&]() -> Status {
    DACE_TRY(require(program, "program"));
    const auto& args = program->program->arguments();
    if (index < 0 || static_cast<size_t>(index) >= args.size())
      return not_found("program argument " + std::to_string(index) + ": out of range (" +
                       std::to_string(args.size()) + " arguments)");
    const Argument& a = args[static_cast<size_t>(index)];
    if (out_name) *out_name = a.name.c_str();
    if (out_kind)
      *out_kind = a.kind == Argument::Kind::Array    ? DACE_ARGUMENT_ARRAY
                  : a.kind == Argument::Kind::Scalar ? DACE_ARGUMENT_SCALAR
                                                     : DACE_ARGUMENT_SYMBOL;
    if (out_dtype) *out_dtype = static_cast<dace_dtype_t>(scalar_of(a));
    return Status::success();
  });
}

dace_status_t dace_program_argument_shape(int64_t* out_shape, size_t capacity, size_t* out_ndim,
                                          const dace_program_t* program, int32_t index,
                                          const char* const* symbol_names, const int64_t* symbol_values,
                                          int32_t symbol_count) {
  return guard([&]() -> Status {
    return evaluate_layout(out_shape, capacity, out_ndim, program, index, symbol_names, symbol_values, symbol_count,
                           "shape");
  });
}

dace_status_t dace_program_argument_strides(int64_t* out_strides, size_t capacity, size_t* out_ndim,
                                            const dace_program_t* program, int32_t index,
                                            const char* const* symbol_names, const int64_t* symbol_values,
                                            int32_t symbol_count) {
  return guard([&]() -> Status {
    return evaluate_layout(out_strides, capacity, out_ndim, program, index, symbol_names, symbol_values,
                           symbol_count, "strides");
  });
}

dace_status_t dace_program_compile_stats(dace_compile_stats_t* out_stats, const dace_program_t* program) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_stats, "out_stats"));
    DACE_TRY(require(program, "program"));
    dace_compile_stats_t stats = program->stats;
    stats.tier = 2;
    stats.optimized_ms = stats.total_ms;
    if (stats.tiered) {
      const dace::jit::TierState tier = program->program->optimized_tier();
      stats.tier = tier.tier;
      stats.optimized_ms =
          tier.swapped_at ? std::chrono::duration<double, std::milli>(*tier.swapped_at - program->compile_started).count()
                          : 0;
      stats.optimized_optimize_ms = tier.optimized.optimize_ms;
      stats.optimized_codegen_ms = tier.optimized.codegen_ms;
      stats.optimized_link_ms = tier.optimized.link_ms;
      stats.optimized_ir_instructions = tier.optimized.ir_instructions;
      stats.swap_ms = tier.swap_ms;
      // Known once the optimized tier is in (0 while it compiles or after it failed); they
      // are published with the swap, like the tier.
      const bool compiled = tier.tier == 2;
      stats.optimized_pieces = compiled ? tier.optimized.pieces : 0;
      stats.optimized_threads = compiled ? tier.optimized.threads : 0;
    } else {
      stats.optimized_ir_instructions = stats.ir_instructions;
      stats.optimized_pieces = stats.pieces;
      stats.optimized_threads = stats.threads;
    }
    return write_versioned(out_stats, stats);
  });
}

dace_status_t dace_program_ptx_count(size_t* out_count, const dace_program_t* program) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_count, "out_count"));
    DACE_TRY(require(program, "program"));
    *out_count = program->program->ptx().empty() ? 0 : 1;
    return Status::success();
  });
}

dace_status_t dace_program_ptx(const char** out_text, size_t* out_size, const dace_program_t* program, size_t index) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_text, "out_text"));
    DACE_TRY(require(program, "program"));
    // The text is fixed at compile time (both tiers embed the same), so no lock is needed.
    const std::string& ptx = program->program->ptx();
    if (ptx.empty())
      return not_found("program: no PTX module (it has no GPU kernels, or they run on the emulated device)");
    if (index != 0)
      return not_found("program: PTX module index " + std::to_string(index) + " out of range (the program holds 1)");
    *out_text = keep(ptx);
    if (out_size) *out_size = ptx.size();
    return Status::success();
  });
}

dace_status_t dace_program_call(dace_program_t* program, const char* const* names, const dace_arg_t* args,
                                int32_t count) {
  return guard([&]() -> Status {
    DACE_TRY(require(program, "program"));
    std::lock_guard<std::mutex> lock(program->call_mutex);
    DACE_TRY(prepare_call(*program, names, args, count));
    // The MPI runtime reads the communicator (thread-local) when the call initialises the
    // program state; it is cleared again so other programs of this thread get their own.
    if (program->set_mpi_comm) program->set_mpi_comm(program->mpi_comm);
    Status s = program->program->call(program->plan.values);
    if (program->set_mpi_comm) program->set_mpi_comm(nullptr);
    if (s.ok() && program->reports) return record_call_report(*program->reports, *program->program);
    return s;
  });
}

dace_status_t dace_program_last_report(const char** out_json, const char** out_path, const dace_program_t* program) {
  return guard([&]() -> Status {
    DACE_TRY(require(program, "program"));
    if (!program->reports) return not_found("program: no element is instrumented (docs/instrumentation.md)");
    std::lock_guard<std::mutex> lock(const_cast<dace_program_t*>(program)->call_mutex);
    if (!program->reports->called) return not_found("program: not called yet, no instrumentation report");
    if (out_json) *out_json = keep(program->reports->last_json);
    if (out_path) *out_path = keep(program->reports->last_path);
    return Status::success();
  });
}

}  // extern "C"
