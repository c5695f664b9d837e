#include "codegen_test_support.h"
#include "codegen_test_unoptimized.h"

#include <gtest/gtest.h>

#include "cpu_test_registry.h"
#include "lowering/multicore.h"
#include "lowering/vendor_lowering.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <dlfcn.h>

#include <atomic>
#include <complex>
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

// Stand-ins for the runtime's vendor-thread bracket (dace_cpu_vendor_threads_begin/end):
// they count the regions that are open, so a test sees each begin matched by its end.
std::atomic<int64_t> g_vendor_regions{0};
extern "C" int32_t test_vendor_threads_begin(int64_t, int32_t) {
  ++g_vendor_regions;
  return 1;
}
extern "C" void test_vendor_threads_end(int32_t token) {
  if (token != 0) --g_vendor_regions;
}

}  // namespace

int64_t parallel_calls() { return g_parallel_calls.load(); }
int64_t open_vendor_thread_regions() { return g_vendor_regions.load(); }

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
    (void)(*r)->define_runtime_symbol("dace_cpu_vendor_threads_begin", reinterpret_cast<void*>(&test_vendor_threads_begin));
    (void)(*r)->define_runtime_symbol("dace_cpu_vendor_threads_end", reinterpret_cast<void*>(&test_vendor_threads_end));
    return std::move(*r);
  }();
  return *s;
}

const plugin::Registry& cpu_schedule_registry() {
  static std::unique_ptr<plugin::Registry> registry = [] {
    auto r = std::make_unique<plugin::Registry>("cpu");
    // The C++ tasklets of DaCe's expansions too: their CBLAS calls are refused without
    // OpenBLAS (which this registry does not offer), the loop-nest ones still lower.
    Status s = cpu::register_schedules(*r);
    if (s.ok()) s = cpu::register_cpp_tasklets(*r);
    if (!s.ok()) {
      fprintf(stderr, "CPU schedules: %s\n", s.error().message.c_str());
      std::abort();
    }
    return r;
  }();
  return *registry;
}

LowerOptions parallel_test_options() {
  LowerOptions options;
  options.registry = &cpu_schedule_registry();
  options.inline_small_parallel_maps = false;
  return options;
}

namespace {

Result<CompiledProgram> compile_with(const ir::SDFG& sdfg, const LowerOptions& given, const jit::CompileOptions& jit_options) {
  LowerOptions options = given;
  if (!options.registry) options.registry = &cpu_schedule_registry();
  auto ctx = std::make_unique<llvm::LLVMContext>();
  Result<LoweredModule> lowered = lower(sdfg, *ctx, options);
  if (!lowered) return lowered.take_error();
  CompiledProgram p;
  p.ir = module_text(*lowered->module);
  p.arguments = lowered->arguments;
  p.init_arguments = lowered->init_arguments;
  Result<std::unique_ptr<jit::JitModule>> m = session().compile(std::move(lowered->module), std::move(ctx), jit_options);
  if (!m) return m.take_error();
  auto program = jit::Program::create(std::move(*m),
                                      {lowered->init_function, lowered->program_function, lowered->exit_function},
                                      lowered->arguments, lowered->init_arguments);
  if (!program) return program.take_error();
  p.program = std::move(*program);
  return p;
}

}  // namespace

Result<CompiledProgram> compile(const ir::SDFG& sdfg, const LowerOptions& options) {
  return compile_with(sdfg, options, {});
}

Result<CompiledProgram> compile_unoptimized(const ir::SDFG& sdfg) {
  jit::CompileOptions jit_options;
  jit_options.opt.level = 0;
  return compile_with(sdfg, parallel_test_options(), jit_options);
}

Status run(const CompiledProgram& p, const std::map<std::string, ArgValue>& values) { return run_calls(p, values, 1); }

Status run_calls(const CompiledProgram& p, const std::map<std::string, ArgValue>& values, int calls) {
  std::vector<ArgValue> ordered;
  for (const auto& a : p.arguments) {
    auto it = values.find(a.name);
    if (it == values.end()) return make_error(Code::InvalidArgument, "no value for argument " + a.name);
    ordered.push_back(it->second);
  }
  for (int c = 0; c < calls; ++c) DACE_TRY(p.program->call(ordered));
  // One init/exit pair per run: the next run starts from a fresh state.
  return p.program->reset();
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
    // std::complex has NumPy's {re, im} layout (ArgValue::scalar refuses raw arrays).
    case ScalarType::Complex64: return ArgValue::scalar(std::complex<float>(static_cast<float>(x), 0.0f));
    case ScalarType::Complex128: return ArgValue::scalar(std::complex<double>(x, 0.0));
    default: break;
  }
  return ArgValue::scalar<int64_t>(static_cast<int64_t>(x));
}

std::string lower_with_cpu_schedules(const ir::SDFG& g) {
  llvm::LLVMContext ctx;
  LowerOptions options;
  options.registry = &cpu_schedule_registry();
  Result<LoweredModule> m = lower(g, ctx, options);
  EXPECT_TRUE(m.ok()) << m.error().message;
  return m.ok() ? module_text(*m->module) : std::string();
}

}  // namespace dace::codegen::testing
