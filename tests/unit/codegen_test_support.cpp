#include "codegen_test_support.h"

#include <ffi.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <thread>

namespace dace::codegen::testing {

namespace {

std::atomic<int64_t> g_parallel_calls{0};

using Body = void (*)(void*, int64_t, int64_t);

// Test stand-in for the CPU plugin's runtime: a static split over a few threads.
extern "C" void test_parallel_for(Body fn, void* closure, int64_t begin, int64_t end, int64_t chunk, int32_t schedule,
                                  int32_t num_threads) {
  int64_t n = end - begin;
  if (n <= 0) return;
  int64_t threads = num_threads > 0 ? num_threads : 3;
  threads = std::min<int64_t>(threads, n);
  std::vector<std::thread> pool;
  for (int64_t t = 1; t < threads; ++t) {
    int64_t b = begin + n * t / threads, e = begin + n * (t + 1) / threads;
    pool.emplace_back([=]() {
      ++g_parallel_calls;
      fn(closure, b, e);
    });
  }
  fn(closure, begin, begin + n / threads);
  for (auto& th : pool) th.join();
}

ffi_type* ffi_of(tasklet::ScalarType t) {
  using tasklet::ScalarType;
  switch (t) {
    case ScalarType::Bool:
    case ScalarType::UInt8: return &ffi_type_uint8;
    case ScalarType::Int8: return &ffi_type_sint8;
    case ScalarType::Int16: return &ffi_type_sint16;
    case ScalarType::UInt16:
    case ScalarType::Float16: return &ffi_type_uint16;
    case ScalarType::Int32: return &ffi_type_sint32;
    case ScalarType::UInt32: return &ffi_type_uint32;
    case ScalarType::UInt64: return &ffi_type_uint64;
    case ScalarType::Float32: return &ffi_type_float;
    case ScalarType::Float64: return &ffi_type_double;
    case ScalarType::Complex64: return &ffi_type_complex_float;
    case ScalarType::Complex128: return &ffi_type_complex_double;
    default: break;
  }
  return &ffi_type_sint64;
}

tasklet::ScalarType type_of(const analysis::Argument& a) {
  return a.dtype.scalar == tasklet::ScalarType::Unknown ? tasklet::ScalarType::Int64 : a.dtype.scalar;
}

}  // namespace

int64_t parallel_calls() { return g_parallel_calls.load(); }

jit::JitSession& session() {
  static std::unique_ptr<jit::JitSession> s = [] {
    auto r = jit::JitSession::create();
    if (!r) {
      fprintf(stderr, "JIT session: %s\n", r.error().message.c_str());
      std::abort();
    }
    // DACE_TEST_REAL_RUNTIME=1 uses the CPU plugin's runtime when the process has it linked.
    void* real = std::getenv("DACE_TEST_REAL_RUNTIME") ? dlsym(RTLD_DEFAULT, "dace_cpu_parallel_for") : nullptr;
    (void)(*r)->define_runtime_symbol("dace_cpu_parallel_for", real ? real : reinterpret_cast<void*>(&test_parallel_for));
    return std::move(*r);
  }();
  return *s;
}

Result<CompiledProgram> compile(const ir::SDFG& sdfg, const LowerOptions& options) {
  auto ctx = std::make_unique<llvm::LLVMContext>();
  Result<LoweredModule> lowered = lower(sdfg, *ctx, options);
  if (!lowered) return lowered.take_error();
  CompiledProgram p;
  p.ir = module_text(*lowered->module);
  p.arguments = lowered->arguments;
  p.init_arguments = lowered->init_arguments;
  Result<std::unique_ptr<jit::JitModule>> m = session().compile(std::move(lowered->module), std::move(ctx));
  if (!m) return m.take_error();
  p.module = std::move(*m);
  Result<void*> init = p.module->lookup(lowered->init_function);
  if (!init) return init.take_error();
  Result<void*> prog = p.module->lookup(lowered->program_function);
  if (!prog) return prog.take_error();
  Result<void*> ex = p.module->lookup(lowered->exit_function);
  if (!ex) return ex.take_error();
  p.init = *init;
  p.program = *prog;
  p.exit = *ex;
  return p;
}

Status run(const CompiledProgram& p, const std::map<std::string, ArgValue>& values) { return run_calls(p, values, 1); }

Status run_calls(const CompiledProgram& p, const std::map<std::string, ArgValue>& values, int calls) {
  auto find = [&](const std::string& name) -> const ArgValue* {
    auto it = values.find(name);
    return it == values.end() ? nullptr : &it->second;
  };
  // init(symbols...)
  std::vector<ffi_type*> types;
  std::vector<void*> slots;
  for (const auto& a : p.init_arguments) {
    const ArgValue* v = find(a.name);
    if (!v) return make_error(Code::InvalidArgument, "no value for symbol " + a.name);
    types.push_back(ffi_of(type_of(a)));
    slots.push_back(const_cast<uint8_t*>(v->bytes));
  }
  ffi_cif cif;
  if (ffi_prep_cif(&cif, FFI_DEFAULT_ABI, static_cast<unsigned>(types.size()), &ffi_type_pointer, types.data()) != FFI_OK)
    return make_error(Code::Internal, "ffi_prep_cif(init) failed");
  void* state = nullptr;
  ffi_call(&cif, FFI_FN(p.init), &state, slots.data());
  if (!state) return make_error(Code::RuntimeError, "init returned null");

  std::vector<ffi_type*> ptypes{&ffi_type_pointer};
  std::vector<void*> pslots{&state};
  std::vector<void*> pointers(p.arguments.size());
  for (size_t i = 0; i < p.arguments.size(); ++i) {
    const auto& a = p.arguments[i];
    const ArgValue* v = find(a.name);
    if (!v) return make_error(Code::InvalidArgument, "no value for argument " + a.name);
    if (a.kind == analysis::Argument::Kind::Array) {
      pointers[i] = v->ptr;
      ptypes.push_back(&ffi_type_pointer);
      pslots.push_back(&pointers[i]);
    } else {
      ptypes.push_back(ffi_of(type_of(a)));
      pslots.push_back(const_cast<uint8_t*>(v->bytes));
    }
  }
  ffi_cif pcif;
  if (ffi_prep_cif(&pcif, FFI_DEFAULT_ABI, static_cast<unsigned>(ptypes.size()), &ffi_type_void, ptypes.data()) != FFI_OK)
    return make_error(Code::Internal, "ffi_prep_cif(program) failed");
  for (int c = 0; c < calls; ++c) ffi_call(&pcif, FFI_FN(p.program), nullptr, pslots.data());

  auto exit_fn = reinterpret_cast<int (*)(void*)>(p.exit);
  if (exit_fn(state) != 0) return make_error(Code::RuntimeError, "exit returned non-zero");
  return Status::success();
}

ArgValue scalar_of(tasklet::ScalarType t, double x) {
  using tasklet::ScalarType;
  switch (t) {
    case ScalarType::Bool: return ArgValue::scalar<uint8_t>(x != 0.0);
    case ScalarType::Int8: return ArgValue::scalar<int8_t>(static_cast<int8_t>(x));
    case ScalarType::UInt8: return ArgValue::scalar<uint8_t>(static_cast<uint8_t>(x));
    case ScalarType::Int16: return ArgValue::scalar<int16_t>(static_cast<int16_t>(x));
    case ScalarType::UInt16: return ArgValue::scalar<uint16_t>(static_cast<uint16_t>(x));
    case ScalarType::Int32: return ArgValue::scalar<int32_t>(static_cast<int32_t>(x));
    case ScalarType::UInt32: return ArgValue::scalar<uint32_t>(static_cast<uint32_t>(x));
    case ScalarType::UInt64: return ArgValue::scalar<uint64_t>(static_cast<uint64_t>(x));
    case ScalarType::Float32: return ArgValue::scalar<float>(static_cast<float>(x));
    case ScalarType::Float64: return ArgValue::scalar<double>(x);
    case ScalarType::Complex64: {
      float c[2] = {static_cast<float>(x), 0.0f};
      return ArgValue::scalar(c);
    }
    case ScalarType::Complex128: {
      double c[2] = {x, 0.0};
      return ArgValue::scalar(c);
    }
    default: break;
  }
  return ArgValue::scalar<int64_t>(static_cast<int64_t>(x));
}

}  // namespace dace::codegen::testing
