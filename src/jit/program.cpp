// Program: libffi call descriptions prepared once, a cached init state, exit on release.
#include "jit/program.h"

#include <ffi.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <new>
#include <string>
#include <system_error>
#include <utility>

#include "codegen/ptx_symbol.h"
#include "codegen/run_status.h"

namespace dace::jit {

namespace {

using tasklet::ScalarType;

ffi_type* ffi_of(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
    case ScalarType::UInt8: return &ffi_type_uint8;
    case ScalarType::Int8: return &ffi_type_sint8;
    case ScalarType::Int16: return &ffi_type_sint16;
    case ScalarType::UInt16:
    case ScalarType::Float16: return &ffi_type_uint16;  // half travels as its 16 bits
    case ScalarType::Int32: return &ffi_type_sint32;
    case ScalarType::UInt32: return &ffi_type_uint32;
    case ScalarType::UInt64: return &ffi_type_uint64;
    case ScalarType::Float32: return &ffi_type_float;
    case ScalarType::Float64: return &ffi_type_double;
    case ScalarType::Complex64: return &ffi_type_complex_float;
    case ScalarType::Complex128: return &ffi_type_complex_double;
    default: break;
  }
  return &ffi_type_sint64;  // Int64 and symbols without a declared type
}

ffi_type* ffi_of(const analysis::Argument& a) {
  if (a.kind == analysis::Argument::Kind::Array) return &ffi_type_pointer;
  return ffi_of(a.dtype.scalar);
}

}  // namespace

struct Program::Impl {
  std::unique_ptr<JitModule> module;
  std::vector<analysis::Argument> arguments, init_arguments;
  void* init = nullptr;
  void* program = nullptr;
  void* exit = nullptr;

  // Prepared once; the value arrays point into `slots`/`init_slots`, which calls overwrite.
  ffi_cif init_cif{}, program_cif{};
  std::vector<ffi_type*> init_types, program_types;
  std::vector<ArgValue> slots, init_slots;
  std::vector<void*> init_values, program_values;
  std::vector<size_t> init_index;  // position of each init symbol among the arguments

  // The module's run-time status record; null for modules without one (nothing can fail).
  codegen::StatusRecord* status = nullptr;
  // The module's timer events and element table; null / empty without instrumentation.
  codegen::InstrumentRecord* instrument = nullptr;
  std::string instrument_elements;
  std::string ptx;
  std::vector<codegen::InstrumentEvent> events;  // of the last program call
  int64_t dropped = 0;

  std::mutex mutex;  // taken by calls, reset, release and the tier swap
  void* state = nullptr;
  bool released = false;
  int code_tier = 2;  // the tier of init/program/exit (under `mutex`)
  // Read without the call lock by optimized_tier(); written under it.
  std::atomic<uint64_t> first_tier_calls{0}, optimized_tier_calls{0};

  // The optimized tier: its job's thread, and what it reported (under tier_mutex).
  ProgramEntryPoints entry;
  std::thread worker;
  mutable std::mutex tier_mutex;
  std::condition_variable tier_done;
  TierState tier;

  // Replaces the code between two calls and publishes tier 2 (its stats and swap time) in
  // the same critical section, so optimized_tier() never reports tier 1 once a call may run
  // tier 2 code. The old module is unloaded here, after the swap: no call runs it.
  Status install(std::unique_ptr<JitModule> next, const CompileStats& stats,
                 std::chrono::steady_clock::time_point started) {
    Result<void*> init_fn = next->lookup(entry.init);
    if (!init_fn) return init_fn.take_error();
    Result<void*> program_fn = next->lookup(entry.program);
    if (!program_fn) return program_fn.take_error();
    Result<void*> exit_fn = next->lookup(entry.exit);
    if (!exit_fn) return exit_fn.take_error();
    std::unique_ptr<JitModule> old;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (released) return make_error(Code::InvalidArgument, "program " + module->name() + ": released");
      init = *init_fn;
      program = *program_fn;
      exit = *exit_fn;
      code_tier = 2;
      Result<void*> st = next->lookup(codegen::kStatusSymbol);
      status = st ? static_cast<codegen::StatusRecord*>(*st) : nullptr;
      Result<void*> ir = next->lookup(codegen::kInstrumentSymbol);
      instrument = ir ? static_cast<codegen::InstrumentRecord*>(*ir) : nullptr;
      old = std::exchange(module, std::move(next));
      // Lock order: the call lock, then tier_mutex (nothing takes them the other way).
      std::lock_guard<std::mutex> tier_lock(tier_mutex);
      const auto now = std::chrono::steady_clock::now();
      tier.tier = 2;
      tier.swapped_at = now;
      tier.swap_ms = std::chrono::duration<double, std::milli>(now - started).count();
      tier.optimized = stats;
    }
    return old->release();
  }

  void join_worker() {
    if (worker.joinable() && worker.get_id() != std::this_thread::get_id()) worker.join();
  }

  // The failure the generated code recorded during the last init or program call, if any.
  Status take_status() {
    if (!status || status->code == 0) return Status::success();
    const std::string what = status->what ? status->what : "program " + module->name();
    const int64_t value = status->value;
    switch (static_cast<codegen::RunStatus>(status->code)) {
      case codegen::RunStatus::OutOfMemory:
        return make_error(Code::OutOfMemory, what + " " + std::to_string(value) + " bytes");
      case codegen::RunStatus::SizeOverflow: return make_error(Code::OutOfMemory, what);
      case codegen::RunStatus::NegativeExtent:
        return make_error(Code::InvalidArgument, what + " " + std::to_string(value));
      case codegen::RunStatus::LibraryFailure: return make_error(Code::RuntimeError, what);
      case codegen::RunStatus::OutOfBounds:
        return make_error(Code::RuntimeError, what + " is " + std::to_string(value) + ", outside 0.." +
                                                  std::to_string(status->bound - 1) + " (bounds check)");
      default: break;
    }
    return make_error(Code::RuntimeError, what + ": run-time failure " + std::to_string(status->code));
  }

  Status exit_state() {
    if (!state) return Status::success();
    void* s = state;
    state = nullptr;
    if (reinterpret_cast<int (*)(void*)>(exit)(s) != 0)
      return make_error(Code::RuntimeError, "program " + module->name() + ": exit failed");
    return Status::success();
  }
};

Program::Program(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Program::~Program() { (void)release(); }

Result<std::unique_ptr<Program>> Program::create(std::unique_ptr<JitModule> module, const ProgramEntryPoints& entry,
                                                 std::vector<analysis::Argument> arguments,
                                                 std::vector<analysis::Argument> init_arguments) {
  if (!module) return make_error(Code::InvalidArgument, "Program::create: no module");
  auto impl = std::make_unique<Impl>();
  Result<void*> init = module->lookup(entry.init);
  if (!init) return init.take_error();
  Result<void*> prog = module->lookup(entry.program);
  if (!prog) return prog.take_error();
  Result<void*> ex = module->lookup(entry.exit);
  if (!ex) return ex.take_error();
  if (Result<void*> st = module->lookup(codegen::kStatusSymbol)) impl->status = static_cast<codegen::StatusRecord*>(*st);
  if (Result<void*> ir = module->lookup(codegen::kInstrumentSymbol)) {
    impl->instrument = static_cast<codegen::InstrumentRecord*>(*ir);
    if (Result<void*> el = module->lookup(codegen::kInstrumentElementsSymbol))
      impl->instrument_elements = static_cast<const char*>(*el);
  }
  if (Result<void*> ptx = module->lookup(codegen::kPtxSymbol)) impl->ptx = *static_cast<const char* const*>(*ptx);
  impl->module = std::move(module);
  impl->entry = entry;
  impl->init = *init;
  impl->program = *prog;
  impl->exit = *ex;
  impl->arguments = std::move(arguments);
  impl->init_arguments = std::move(init_arguments);

  for (const auto& s : impl->init_arguments) {
    size_t i = 0;
    while (i < impl->arguments.size() && impl->arguments[i].name != s.name) ++i;
    if (i == impl->arguments.size())
      return make_error(Code::Internal, "Program::create: init symbol " + s.name + " is not a program argument");
    impl->init_index.push_back(i);
  }

  const size_t n = impl->arguments.size(), m = impl->init_arguments.size();
  impl->slots.resize(n);
  impl->init_slots.resize(m);
  for (size_t i = 0; i < m; ++i) {
    impl->init_types.push_back(ffi_of(impl->init_arguments[i]));
    impl->init_values.push_back(impl->init_slots[i].bytes);
  }
  impl->program_types.push_back(&ffi_type_pointer);
  impl->program_values.push_back(&impl->state);
  for (size_t i = 0; i < n; ++i) {
    impl->program_types.push_back(ffi_of(impl->arguments[i]));
    impl->program_values.push_back(impl->slots[i].bytes);
  }
  if (ffi_prep_cif(&impl->init_cif, FFI_DEFAULT_ABI, static_cast<unsigned>(m), &ffi_type_pointer,
                   impl->init_types.data()) != FFI_OK ||
      ffi_prep_cif(&impl->program_cif, FFI_DEFAULT_ABI, static_cast<unsigned>(n + 1), &ffi_type_void,
                   impl->program_types.data()) != FFI_OK)
    return make_error(Code::Internal, "Program::create: libffi cannot describe the entry points of " + entry.program);
  return std::unique_ptr<Program>(new Program(std::move(impl)));
}

const std::string& Program::instrument_elements() const { return impl_->instrument_elements; }

const std::string& Program::ptx() const { return impl_->ptx; }

std::vector<codegen::InstrumentEvent> Program::last_instrument_events(int64_t* dropped) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (dropped) *dropped = impl_->dropped;
  return impl_->events;
}

const std::vector<analysis::Argument>& Program::arguments() const { return impl_->arguments; }
const std::vector<analysis::Argument>& Program::init_arguments() const { return impl_->init_arguments; }

Status Program::call(const std::vector<ArgValue>& values) {
  Impl& p = *impl_;
  std::lock_guard<std::mutex> lock(p.mutex);
  if (p.released) return make_error(Code::InvalidArgument, "program " + p.module->name() + ": released");
  if (values.size() != p.arguments.size())
    return make_error(Code::InvalidArgument, "program call: " + std::to_string(values.size()) + " values for " +
                                                 std::to_string(p.arguments.size()) + " arguments");
  // A new state only when the symbols differ from those the live state was made for.
  bool same = p.state != nullptr;
  for (size_t i = 0; same && i < p.init_index.size(); ++i)
    same = std::memcmp(p.init_slots[i].bytes, values[p.init_index[i]].bytes, sizeof(ArgValue)) == 0;
  if (!same) {
    DACE_TRY(p.exit_state());
    for (size_t i = 0; i < p.init_index.size(); ++i) p.init_slots[i] = values[p.init_index[i]];
    void* state = nullptr;
    if (p.status) p.status->code = 0;
    ffi_call(&p.init_cif, FFI_FN(p.init), &state, p.init_values.data());
    if (!state) {
      // The next call starts from init again (p.state stays null).
      Status failed = p.take_status();
      if (!failed.ok()) return failed;
      return make_error(Code::RuntimeError, "program " + p.module->name() + ": init failed");
    }
    p.state = state;
  }
  for (size_t i = 0; i < values.size(); ++i) p.slots[i] = values[i];
  (p.code_tier == 1 ? p.first_tier_calls : p.optimized_tier_calls).fetch_add(1, std::memory_order_relaxed);
  if (p.status) p.status->code = 0;
  if (p.instrument) p.instrument->count = 0;
  ffi_call(&p.program_cif, FFI_FN(p.program), nullptr, p.program_values.data());
  if (p.instrument) {
    const int64_t n = std::min(p.instrument->count, codegen::kInstrumentCapacity);
    p.events.assign(p.instrument->events, p.instrument->events + n);
    p.dropped = p.instrument->count - n;
  }
  return p.take_status();
}

Status Program::reset() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->exit_state();
}

Status Program::release() {
  if (!impl_) return Status::success();
  Impl& p = *impl_;
  p.join_worker();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (p.released) return Status::success();
  p.released = true;
  Status exited = p.exit_state();
  Status unloaded = p.module->release();
  if (!exited.ok()) return exited;
  return unloaded;
}

void Program::start_optimized_tier(std::function<Result<std::unique_ptr<JitModule>>()> job) {
  Impl& p = *impl_;
  // Made first, while the caller can still take an allocation failure and before the tier is
  // marked pending (a bad_alloc after that would leave wait_optimized_tier waiting for a
  // thread that never runs): under an address-space limit the handlers below must not
  // allocate (a bad_alloc thrown in the thread ends the process).
  Status out_of_memory = make_error(Code::OutOfMemory, "out of memory compiling the optimized tier");
  Status not_started = make_error(Code::OutOfMemory, "cannot start the optimized tier's compile thread");
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    p.code_tier = 1;
  }
  {
    std::lock_guard<std::mutex> lock(p.tier_mutex);
    p.tier.tier = 1;
    p.tier.pending = true;
  }
  auto body = [&p, job = std::move(job), out_of_memory = std::move(out_of_memory)]() mutable {
    Status status;
    // Nothing may escape a thread's function (std::terminate): failures become the status.
    try {
      Result<std::unique_ptr<JitModule>> module = job();
      if (!module) {
        status = module.take_error();
      } else {
        const CompileStats stats = (*module)->stats();
        status = p.install(std::move(*module), stats, std::chrono::steady_clock::now());
      }
    } catch (const std::bad_alloc&) {
      status = std::move(out_of_memory);
    } catch (const std::exception& e) {
      try {
        status = make_error(Code::Internal, std::string("optimized tier: ") + e.what());
      } catch (const std::bad_alloc&) {
        status = std::move(out_of_memory);
      }
    }
    // Tier 2, when it came in, was published by install() together with the swap.
    std::lock_guard<std::mutex> lock(p.tier_mutex);
    p.tier.pending = false;
    p.tier.status = std::move(status);  // a move: no allocation
    p.tier_done.notify_all();
  };
  // No thread (no memory for its stack: system_error; for its state: bad_alloc): tier 1
  // stays, the failure is the tier's status, and nothing is pending.
  auto not_pending = [&p](Status status) {
    std::lock_guard<std::mutex> lock(p.tier_mutex);
    p.tier.pending = false;
    p.tier.status = std::move(status);  // a move: no allocation
    p.tier_done.notify_all();
  };
  try {
    p.worker = std::thread(std::move(body));
  } catch (const std::system_error& e) {
    try {
      not_started = make_error(Code::OutOfMemory, std::string("cannot start the optimized tier's compile thread: ") + e.what());
    } catch (const std::bad_alloc&) {
      // keep the message made above
    }
    not_pending(std::move(not_started));
  } catch (const std::bad_alloc&) {
    not_pending(std::move(not_started));
  }
}

Status Program::wait_optimized_tier() {
  Impl& p = *impl_;
  std::unique_lock<std::mutex> lock(p.tier_mutex);
  p.tier_done.wait(lock, [&] { return !p.tier.pending; });
  return p.tier.status;
}

TierState Program::optimized_tier() const {
  TierState out;
  {
    std::lock_guard<std::mutex> lock(impl_->tier_mutex);
    out = impl_->tier;
  }
  out.first_tier_calls = impl_->first_tier_calls.load(std::memory_order_relaxed);
  out.optimized_tier_calls = impl_->optimized_tier_calls.load(std::memory_order_relaxed);
  return out;
}

}  // namespace dace::jit
