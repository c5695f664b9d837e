// dace_program_t: compile an SDFG through the CPU backend and call it with checked arguments.
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <limits>

#include "analysis/arguments.h"
#include "builder/api_internal.h"
#include "codegen/lower.h"
#include "ir/equality.h"
#include "jit/object_cache.h"
#include "jit/program.h"
#include "jit/session.h"
#include "plugin/loader.h"
#include "plugin/registry.h"

using namespace dace::capi;
using dace::Code;
using dace::Status;
using dace::analysis::Argument;
using dace::ir::ScalarType;
namespace sym = dace::sym;

struct dace_program {
  std::unique_ptr<dace::jit::Program> program;
  // Per argument (arrays only): the descriptor's shape and strides, to check calls against.
  std::vector<std::vector<sym::Expr>> shapes, strides;
};

namespace {

Status ensure_jit(dace_context_t* ctx, const std::string& cache_dir, const std::string& parallel_for) {
  std::lock_guard<std::mutex> lock(ctx->jit_mutex);
  if (ctx->session) return Status::success();
  auto registry = std::make_shared<dace::plugin::Registry>();
  std::vector<std::string> dirs = dace::plugin::plugin_search_dirs();
  dace::plugin::DiscoveryReport report = dace::plugin::discover_plugins(*registry, dirs);
  if (!registry->find_runtime_symbol(parallel_for)) {
    std::string msg = "compile: no plugin provides the CPU runtime (" + parallel_for + "); searched";
    if (dirs.empty()) msg += " nothing (set DACE_PLUGIN_PATH)";
    for (const auto& d : dirs) msg += " " + d;
    for (const auto& e : report.failed) msg += "; " + e.message;
    return dace::make_error(Code::PluginUnavailable, msg);
  }
  dace::jit::SessionOptions so;
  so.cache_dir = cache_dir;
  auto session = dace::jit::JitSession::create(so);
  if (!session) return session.take_error();
  for (const auto& s : registry->runtime_symbols()) DACE_TRY((*session)->define_runtime_symbol(s.name, s.address));
  for (const auto& lib : registry->vendor_libraries())
    if (lib.available) DACE_TRY((*session)->add_library(lib.name));
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
      float c[2] = {static_cast<float>(arg.value.c[0]), static_cast<float>(arg.value.c[1])};
      v = dace::jit::ArgValue::scalar(c);
    } else if (t == ScalarType::Complex128) {
      double c[2] = {arg.value.c[0], arg.value.c[1]};
      v = dace::jit::ArgValue::scalar(c);
    } else {
      return false;
    }
    return true;
  }
  return false;
}

Status prepare_call(const dace_program& p, const char* const* names, const dace_arg_t* args, int32_t count,
                    std::vector<dace::jit::ArgValue>& values) {
  const auto& params = p.program->arguments();
  const size_t n = params.size();
  if (count < 0) return invalid("program call: negative count");
  if (count > 0) DACE_TRY(require(args, "args"));
  // given[i]: the caller's value for argument i, or null.
  std::vector<const dace_arg_t*> given(n, nullptr);
  if (names) {
    for (int32_t k = 0; k < count; ++k) {
      if (!names[k]) return invalid("program call: names[" + std::to_string(k) + "] is NULL");
      size_t i = 0;
      while (i < n && params[i].name != names[k]) ++i;
      if (i == n) return not_found("program call: no argument named " + dace::ir::quoted(names[k]));
      if (given[i]) return invalid("program call: " + arg_label(params[i]) + " given twice");
      given[i] = &args[k];
    }
  } else {
    size_t symbols = 0;
    for (const auto& a : params) symbols += a.kind == Argument::Kind::Symbol;
    const bool all = static_cast<size_t>(count) == n;
    if (!all && static_cast<size_t>(count) != n - symbols)
      return invalid("program call: " + std::to_string(count) + " positional arguments; expected " +
                     std::to_string(n) + " (all) or " + std::to_string(n - symbols) + " (without symbols)");
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
      if (all || params[i].kind != Argument::Kind::Symbol) given[i] = &args[k++];
  }

  // Symbols: given ones first, then those equal to a shape dimension of an array.
  std::map<std::string, int64_t> symbols;
  for (size_t i = 0; i < n; ++i) {
    if (params[i].kind != Argument::Kind::Symbol || !given[i]) continue;
    int kind = enum_bits(given[i]->kind);
    if (kind != DACE_ARG_SYMBOL && kind != DACE_ARG_INT)
      return invalid("program call: " + arg_label(params[i]) + ": expected an integer value (DACE_ARG_SYMBOL)");
    symbols[params[i].name] = given[i]->value.i;
  }
  for (size_t i = 0; i < n; ++i) {
    const Argument& a = params[i];
    if (!given[i]) {
      if (a.kind == Argument::Kind::Symbol) continue;
      return invalid("program call: " + arg_label(a) + " missing");
    }
    if (a.kind == Argument::Kind::Array) {
      if (enum_bits(given[i]->kind) != DACE_ARG_ARRAY)
        return invalid("program call: " + arg_label(a) + ": expected an array (DACE_ARG_ARRAY)");
      const dace_array_desc_t& d = given[i]->value.array;
      if (!d.data) return invalid("program call: " + arg_label(a) + ": data is NULL");
      if (enum_bits(d.dtype) != static_cast<int>(a.dtype.scalar))
        return invalid("program call: " + arg_label(a) + ": dtype " + std::to_string(enum_bits(d.dtype)) +
                       " does not match the descriptor's " + dace::ir::scalar_type_name(a.dtype.scalar));
      if (d.ndim != static_cast<int32_t>(p.shapes[i].size()))
        return invalid("program call: " + arg_label(a) + ": rank " + std::to_string(d.ndim) + ", expected " +
                       std::to_string(p.shapes[i].size()));
      if (d.ndim > 0) DACE_TRY(require(d.shape, ("shape of " + a.name).c_str()));
      for (int32_t k = 0; k < d.ndim; ++k) {
        sym::Expr e = p.shapes[i][static_cast<size_t>(k)];
        if (e->op != sym::Op::Symbol) continue;
        auto [it, inserted] = symbols.emplace(e->name, d.shape[k]);
        if (!inserted && it->second != d.shape[k])
          return invalid("program call: " + arg_label(a) + ": dimension " + std::to_string(k) + " is " +
                         std::to_string(d.shape[k]) + " but symbol " + e->name + " is " + std::to_string(it->second));
      }
    }
  }

  values.assign(n, dace::jit::ArgValue{});
  for (size_t i = 0; i < n; ++i) {
    const Argument& a = params[i];
    if (a.kind == Argument::Kind::Symbol) {
      auto it = symbols.find(a.name);
      if (it == symbols.end())
        return invalid("program call: " + arg_label(a) + " missing (not given and not a dimension of an array)");
      if (!int_to_slot(scalar_of(a), it->second, values[i]))
        return invalid("program call: " + arg_label(a) + ": value " + std::to_string(it->second) + " does not fit " +
                       dace::ir::scalar_type_name(scalar_of(a)));
    } else if (a.kind == Argument::Kind::Scalar) {
      if (!scalar_to_slot(scalar_of(a), *given[i], values[i]))
        return invalid("program call: " + arg_label(a) + ": value kind does not fit dtype " +
                       dace::ir::scalar_type_name(scalar_of(a)));
    } else {
      const dace_array_desc_t& d = given[i]->value.array;
      for (int32_t k = 0; k < d.ndim; ++k) {
        size_t uk = static_cast<size_t>(k);
        auto extent = sym::evaluate(p.shapes[i][uk], symbols);
        if (!extent) return invalid("program call: " + arg_label(a) + ": shape: " + extent.error().message);
        if (*extent != d.shape[k])
          return invalid("program call: " + arg_label(a) + ": dimension " + std::to_string(k) + " is " +
                         std::to_string(d.shape[k]) + ", expected " + std::to_string(*extent));
        auto stride = sym::evaluate(p.strides[i][uk], symbols);
        if (!stride) return invalid("program call: " + arg_label(a) + ": strides: " + stride.error().message);
        // Without explicit strides the caller's array is C-ordered.
        int64_t c_stride = 1;
        for (int32_t j = k + 1; j < d.ndim; ++j) c_stride *= d.shape[j];
        int64_t have = d.strides ? d.strides[k] : c_stride;
        if (d.shape[k] > 1 && have != *stride)
          return invalid("program call: " + arg_label(a) + ": stride of dimension " + std::to_string(k) + " is " +
                         std::to_string(have) + ", expected " + std::to_string(*stride));
      }
      values[i] = dace::jit::ArgValue::pointer(d.data);
    }
  }
  return Status::success();
}

}  // namespace

extern "C" {

dace_status_t dace_compile_options_init(dace_compile_options_t* options) {
  return guard([&]() -> Status {
    DACE_TRY(require(options, "options"));
    *options = DACE_COMPILE_OPTIONS_INIT;
    return Status::success();
  });
}

dace_status_t dace_program_compile(dace_program_t** out_program, dace_context_t* context, const dace_sdfg_t* sdfg,
                                   const dace_compile_options_t* options) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_program, "out_program"));
    DACE_TRY(require(context, "context"));
    auto sd = sdfg_of(sdfg);
    if (!sd) return sd.take_error();
    dace_compile_options_t opts = DACE_COMPILE_OPTIONS_INIT;
    if (options) {
      DACE_TRY(check_version(options->version, DACE_COMPILE_OPTIONS_VERSION, "compile options"));
      opts = *options;
    }
    dace::codegen::LowerOptions lo;
    lo.fast_math = opts.fast_math != 0;
    DACE_TRY(ensure_jit(context, str_or_empty(opts.cache_dir), lo.parallel_for_symbol));
    std::shared_ptr<dace::jit::JitSession> session;
    std::shared_ptr<dace::plugin::Registry> registry;
    {
      std::lock_guard<std::mutex> lock(context->jit_mutex);
      session = context->session;
      registry = context->registry;
    }
    if (opts.num_threads > 0) {
      // Process-wide: the CPU runtime has one thread pool.
      if (void* f = registry->find_runtime_symbol("dace_cpu_set_num_threads"))
        reinterpret_cast<void (*)(int32_t)>(f)(opts.num_threads);
    }

    auto llvm_context = std::make_unique<llvm::LLVMContext>();
    auto lowered = dace::codegen::lower(**sd, *llvm_context, lo);
    if (!lowered) return lowered.take_error();
    dace::jit::CompileOptions co;
    co.opt.level = opts.opt_level;
    co.opt.fast_math = lo.fast_math;
    co.dump_dir = str_or_empty(opts.dump_dir);
    if (session->has_cache())
      co.cache_key = dace::jit::cache_key({dace::ir::content_hash(**sd), "O" + std::to_string(opts.opt_level),
                                           lo.fast_math ? "fast" : "exact"});
    auto module = session->compile(std::move(lowered->module), std::move(llvm_context), co);
    if (!module) return module.take_error();
    auto prog = dace::jit::Program::create(
        std::move(*module), {lowered->init_function, lowered->program_function, lowered->exit_function},
        lowered->arguments, lowered->init_arguments);
    if (!prog) return prog.take_error();

    auto result = std::make_unique<dace_program>();
    result->program = std::move(*prog);
    for (const auto& a : result->program->arguments()) {
      std::vector<sym::Expr> shape, strides;
      auto it = (*sd)->arrays.find(a.name);
      if (a.kind == Argument::Kind::Array && it != (*sd)->arrays.end()) {
        shape = it->second.shape;
        strides = it->second.strides.size() == shape.size() ? it->second.strides : dace::ir::default_strides(shape);
      }
      result->shapes.push_back(std::move(shape));
      result->strides.push_back(std::move(strides));
    }
    *out_program = result.release();
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

dace_status_t dace_program_call(dace_program_t* program, const char* const* names, const dace_arg_t* args,
                                int32_t count) {
  return guard([&]() -> Status {
    DACE_TRY(require(program, "program"));
    std::vector<dace::jit::ArgValue> values;
    DACE_TRY(prepare_call(*program, names, args, count, values));
    return program->program->call(values);
  });
}

}  // extern "C"
