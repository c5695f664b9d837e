#include "jit/session.h"

#include <llvm/ExecutionEngine/JITLink/EHFrameSupport.h>
#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ObjectFileInterface.h>
#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Triple.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <new>
#include <optional>
#include <vector>

#include "jit/emit.h"
#include "jit/llvm_error.h"
#include "jit/object_bundle.h"
#include "jit/pipeline.h"
#include "jit/split.h"
#include "jit/bitcode.h"

namespace dace::jit {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// ORC reports link failures (e.g. an unresolved symbol) to the session's error reporter and
// only "failed to materialize" to the lookup that triggered them. Linking runs on the
// calling thread (LLJIT's in-place dispatcher), so a thread-local sink routes the reason to
// the compile that caused it.
thread_local std::string* t_link_errors = nullptr;

void report_session_error(llvm::Error err) {
  std::string text = llvm::toString(std::move(err));
  if (!t_link_errors) return;  // not inside one of our links: nobody to tell
  if (!t_link_errors->empty()) *t_link_errors += "; ";
  *t_link_errors += text;
}

// Tier 3 of symbol resolution: the libraries named through add_library(), searched in the
// order they were added (one generator, so the order is ours rather than ORC's).
class OrderedLibraryGenerator : public llvm::orc::DefinitionGenerator {
 public:
  explicit OrderedLibraryGenerator(char global_prefix) : prefix_(global_prefix) {}

  // False when `name` was added before.
  bool add(const std::string& name, llvm::sys::DynamicLibrary library) {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& entry : libraries_)
      if (entry.first == name) return false;
    libraries_.emplace_back(name, library);
    return true;
  }

  llvm::Error tryToGenerate(llvm::orc::LookupState&, llvm::orc::LookupKind, llvm::orc::JITDylib& jd,
                            llvm::orc::JITDylibLookupFlags,
                            const llvm::orc::SymbolLookupSet& symbols) override {
    llvm::orc::SymbolMap found;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (const auto& [symbol, flags] : symbols) {
        llvm::StringRef name = *symbol;
        if (prefix_ != '\0') {
          if (!name.starts_with(llvm::StringRef(&prefix_, 1))) continue;
          name = name.drop_front(1);
        }
        std::string c_name = name.str();
        for (auto& entry : libraries_) {
          if (void* address = entry.second.getAddressOfSymbol(c_name.c_str())) {
            found[symbol] = {llvm::orc::ExecutorAddr::fromPtr(address),
                             llvm::JITSymbolFlags::Exported};
            break;
          }
        }
      }
    }
    if (found.empty()) return llvm::Error::success();
    return jd.define(llvm::orc::absoluteSymbols(std::move(found)));
  }

 private:
  std::mutex mu_;
  char prefix_;
  std::vector<std::pair<std::string, llvm::sys::DynamicLibrary>> libraries_;
};

std::string sanitized(std::string_view name) {
  std::string out;
  for (char c : name)
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') ? c : '_';
  if (out.empty() || out[0] == '.') out.insert(0, "module");
  return out;
}

Status write_text(const std::string& path, const std::string& text) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return make_error(Code::IoError, "cannot open \"" + path + "\" for writing");
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) return make_error(Code::IoError, "cannot write \"" + path + "\"");
  return Status::success();
}

// Vendors differ between producers (x86_64-pc-linux-gnu, x86_64-unknown-linux-gnu) without
// changing the code; everything else must match.
bool same_platform(const std::string& a, const std::string& b) {
  llvm::Triple x(a), y(b);
  return x.getArch() == y.getArch() && x.getSubArch() == y.getSubArch() && x.getOS() == y.getOS() &&
         x.getEnvironment() == y.getEnvironment() && x.getObjectFormat() == y.getObjectFormat();
}

llvm::CodeGenOptLevel codegen_level(int level) {
  switch (std::clamp(level, 0, 3)) {
    case 0: return llvm::CodeGenOptLevel::None;
    case 1: return llvm::CodeGenOptLevel::Less;
    case 2: return llvm::CodeGenOptLevel::Default;
    default: return llvm::CodeGenOptLevel::Aggressive;
  }
}

// Verifies `mod` and checks that it is for the host (an empty triple or data layout is
// taken as the host's), then sets the host's triple and data layout.
Status check_for_host(llvm::Module& mod, const TargetInfo& target) {
  const std::string what = "module \"" + mod.getModuleIdentifier() + "\"";
  std::string verifier_text;
  llvm::raw_string_ostream verifier_os(verifier_text);
  if (llvm::verifyModule(mod, &verifier_os)) {
    verifier_os.flush();
    return make_error(Code::CompileError, what + " is invalid LLVM IR: " + verifier_text);
  }
  if (!mod.getTargetTriple().empty() && !same_platform(mod.getTargetTriple(), target.triple))
    return make_error(Code::CompileError, what + " targets " + mod.getTargetTriple() +
                                              ", the JIT's host is " + target.triple);
  const std::string layout = mod.getDataLayoutStr();
  if (!layout.empty() && mod.getDataLayout() != llvm::DataLayout(target.data_layout))
    return make_error(Code::CompileError, what + " has data layout \"" + layout +
                                              "\", the host's is \"" + target.data_layout + "\"");
  mod.setTargetTriple(target.triple);
  mod.setDataLayout(target.data_layout);
  return Status::success();
}

}  // namespace

struct SessionState {
  TargetInfo target;
  std::optional<llvm::orc::JITTargetMachineBuilder> jtmb;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  llvm::orc::JITDylib* runtime = nullptr;
  llvm::orc::JITDylib* libraries = nullptr;
  llvm::orc::JITDylib* process = nullptr;
  OrderedLibraryGenerator* library_generator = nullptr;  // owned by `libraries`
  std::unique_ptr<ObjectCache> cache;
  bool libmvec = false;
  std::atomic<uint64_t> next_module{0};
  std::atomic<size_t> live{0};

  // TargetMachines are not thread-safe; each compile gets its own (about 0.1 ms).
  Result<std::unique_ptr<llvm::TargetMachine>> target_machine(const OptimizationOptions& opt) {
    llvm::orc::JITTargetMachineBuilder builder = *jtmb;
    builder.setCodeGenOptLevel(codegen_level(opt.level));
    builder.getOptions().AllowFPOpFusion =
        opt.fast_math ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Standard;
    auto tm = builder.createTargetMachine();
    if (!tm) return to_error(tm.takeError(), Code::CompileError, "cannot create the host TargetMachine");
    return std::move(*tm);
  }

  Status remove(llvm::orc::JITDylib& jd) {
    llvm::Error err = jit->getExecutionSession().removeJITDylib(jd);
    live--;
    if (err) return to_error(std::move(err), Code::Internal, "cannot unload JIT module");
    return Status::success();
  }

  // Loads `object` into a fresh JITDylib and links it right away, so unresolved symbols are
  // reported here and the timing is honest, not deferred to the first lookup.
  Result<llvm::orc::JITDylib*> link(const std::string& object, std::string_view hint,
                                    CompileStats& stats) {
    auto t0 = Clock::now();
    llvm::orc::ExecutionSession& es = jit->getExecutionSession();
    std::string name = "dace.module." + std::to_string(next_module++) + "." + sanitized(hint);
    auto created = es.createJITDylib(name);
    if (!created) return to_error(created.takeError(), Code::Internal, "cannot create JITDylib");
    llvm::orc::JITDylib& jd = *created;
    live++;
    const auto exported = llvm::orc::JITDylibLookupFlags::MatchExportedSymbolsOnly;
    jd.setLinkOrder({{runtime, exported}, {libraries, exported}, {process, exported}});
    auto fail = [&](Error error) -> Error {
      Status removed = remove(jd);
      (void)removed;  // the link error is the one worth reporting
      return error;
    };

    // A module compiled in pieces brings one object per piece; they reach each other's
    // hidden symbols inside this JITDylib.
    auto parts = unbundle_objects(object);
    if (!parts.ok()) return fail(make_error(Code::CompileError, parts.error().message + " for " + name));
    llvm::orc::SymbolLookupSet symbols;
    for (std::string_view part : *parts) {
      auto buffer = llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(part.data(), part.size()), name);
      auto interface = llvm::orc::getObjectFileInterface(es, buffer->getMemBufferRef());
      if (!interface)
        return fail(to_error(interface.takeError(), Code::CompileError, "malformed object for " + name));
      for (const auto& entry : interface->SymbolFlags) symbols.add(entry.first);
      if (llvm::Error err = jit->addObjectFile(jd, std::move(buffer)))
        return fail(to_error(std::move(err), Code::CompileError, "cannot add object " + name));
    }

    if (!symbols.empty()) {
      std::string link_errors;
      t_link_errors = &link_errors;
      auto linked = es.lookup(llvm::orc::makeJITDylibSearchOrder(
                                  &jd, llvm::orc::JITDylibLookupFlags::MatchAllSymbols),
                              std::move(symbols));
      t_link_errors = nullptr;
      if (!linked) {
        bool out_of_memory = false;
        std::string what = take_message(linked.takeError(), out_of_memory);
        if (!link_errors.empty()) what = link_errors;
        // Errors reported through the session arrive as text only (link_errors).
        if (out_of_memory || says_out_of_memory(what))
          return fail(make_error(Code::OutOfMemory, "out of memory linking " + name + ": " + what));
        return fail(make_error(Code::CompileError, "linking " + name + ": " + what));
      }
    }
    stats.link_ms = ms_since(t0);
    stats.object_bytes = object.size();
    return &jd;
  }
};

namespace {

// One piece of a module compiled in pieces (jit/split.h), on a worker thread: read into a
// context of its own, optimized, turned into an object.
struct PieceResult {
  std::string object;
  std::string ir;  // with keep_ir
  uint64_t ir_instructions = 0;
  double optimize_ms = 0, codegen_ms = 0;
  std::optional<Error> error;
};

void compile_piece(SessionState& state, const std::string& bitcode, const CompileOptions& options,
                   PieceResult& out) {
  try {
    auto ctx = std::make_unique<llvm::LLVMContext>();
    auto* diagnostics = new DiagnosticCollector;
    ctx->setDiagnosticHandler(std::unique_ptr<llvm::DiagnosticHandler>(diagnostics));
    auto module = read_bitcode(bitcode, *ctx);
    if (!module.ok()) {
      out.error = module.take_error();
      return;
    }
    llvm::Module& mod = **module;
    const std::string what = "module \"" + mod.getModuleIdentifier() + "\"";
    auto t0 = Clock::now();
    auto tm = state.target_machine(options.opt);
    if (!tm.ok()) {
      out.error = tm.take_error();
      return;
    }
    if (Status s = optimize_module(mod, **tm, options.opt, state.libmvec); !s.ok()) {
      out.error = s.error();
      return;
    }
    out.optimize_ms = ms_since(t0);
    for (const llvm::Function& f : mod) out.ir_instructions += f.getInstructionCount();
    if (options.keep_ir) out.ir = print_module(mod);
    t0 = Clock::now();
    auto object = emit_object(mod, **tm);
    if (!object.ok()) {
      out.error = object.take_error();
      return;
    }
    out.codegen_ms = ms_since(t0);
    if (std::string errors = diagnostics->errors(); !errors.empty()) {
      out.error = make_error(Code::CompileError, what + ": " + errors);
      return;
    }
    out.object = std::move(*object);
  } catch (const std::bad_alloc&) {
    out.error = make_error(Code::OutOfMemory, "out of memory compiling a module piece");
  }
}

}  // namespace

// ---- JitModule ---------------------------------------------------------------------------

struct JitModule::Impl {
  std::shared_ptr<SessionState> state;
  llvm::orc::JITDylib* jd = nullptr;
  std::string name;
  CompileStats stats;
  std::string ir;
  std::string object;
  std::atomic<bool> released{false};
};

JitModule::JitModule(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

JitModule::~JitModule() {
  Status s = release();
  (void)s;
}

Result<void*> JitModule::lookup(std::string_view name) const {
  if (impl_->released) return make_error(Code::NotFound, "module " + impl_->name + " has been released");
  llvm::orc::LLJIT& jit = *impl_->state->jit;
  auto symbol = jit.getExecutionSession().lookup(
      llvm::ArrayRef<llvm::orc::JITDylib*>(impl_->jd),
      jit.mangleAndIntern(llvm::StringRef(name.data(), name.size())));
  if (!symbol)
    return to_error(symbol.takeError(), Code::NotFound,
                    "symbol \"" + std::string(name) + "\" in " + impl_->name);
  return symbol->getAddress().toPtr<void*>();
}

Status JitModule::release() {
  if (impl_->released.exchange(true)) return Status::success();
  return impl_->state->remove(*impl_->jd);
}

bool JitModule::released() const { return impl_->released; }
const std::string& JitModule::name() const { return impl_->name; }
const CompileStats& JitModule::stats() const { return impl_->stats; }
const std::string& JitModule::optimized_ir() const { return impl_->ir; }
const std::string& JitModule::object_file() const { return impl_->object; }

// ---- JitSession --------------------------------------------------------------------------

JitSession::JitSession(std::shared_ptr<SessionState> state) : state_(std::move(state)) {}
JitSession::~JitSession() = default;

Result<std::unique_ptr<JitSession>> JitSession::create(const SessionOptions& options) {
  install_bad_alloc_handler();
  try {
    auto target = detect_host_target();
    if (!target.ok()) return target.take_error();
    auto state = std::make_shared<SessionState>();
    state->target = std::move(*target);

    llvm::orc::JITTargetMachineBuilder jtmb{llvm::Triple(state->target.triple)};
    jtmb.setCPU(state->target.cpu);
    jtmb.setFeatures(state->target.features);
    // Small code model + PIC: JITLink places code anywhere and builds GOT/PLT stubs for
    // references that end up out of 32-bit range (libm, libomp, the runtime table).
    jtmb.setCodeModel(llvm::CodeModel::Small);
    jtmb.setRelocationModel(llvm::Reloc::PIC_);
    state->jtmb = jtmb;

    llvm::orc::LLJITBuilder builder;
    builder.setJITTargetMachineBuilder(jtmb)
        .setLinkProcessSymbolsByDefault(false)
        .setPlatformSetUp(llvm::orc::setUpInactivePlatform)
        .setObjectLinkingLayerCreator([](llvm::orc::ExecutionSession& es, const llvm::Triple&)
                                          -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
          auto layer = std::make_unique<llvm::orc::ObjectLinkingLayer>(es);
          // Unwind info, so debuggers, profilers and exceptions can walk JIT'd frames.
          layer->addPlugin(std::make_unique<llvm::orc::EHFrameRegistrationPlugin>(
              es, std::make_unique<llvm::jitlink::InProcessEHFrameRegistrar>()));
          return layer;
        });
    auto jit = builder.create();
    if (!jit) return to_error(jit.takeError(), Code::Internal, "cannot start the LLVM JIT");
    state->jit = std::move(*jit);
    llvm::orc::ExecutionSession& es = state->jit->getExecutionSession();
    es.setErrorReporter(report_session_error);

    char prefix = state->jit->getDataLayout().getGlobalPrefix();
    auto make_dylib = [&](const char* name) -> Result<llvm::orc::JITDylib*> {
      auto jd = es.createJITDylib(name);
      if (!jd) return to_error(jd.takeError(), Code::Internal, "cannot create JITDylib");
      return &*jd;
    };
    auto runtime = make_dylib("dace.runtime");
    if (!runtime.ok()) return runtime.take_error();
    auto libraries = make_dylib("dace.libraries");
    if (!libraries.ok()) return libraries.take_error();
    auto process = make_dylib("dace.process");
    if (!process.ok()) return process.take_error();
    state->runtime = *runtime;
    state->libraries = *libraries;
    state->process = *process;

    auto generator = std::make_unique<OrderedLibraryGenerator>(prefix);
    state->library_generator = generator.get();
    state->libraries->addGenerator(std::move(generator));
    auto process_generator = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
    if (!process_generator)
      return to_error(process_generator.takeError(), Code::Internal, "cannot search the process");
    state->process->addGenerator(std::move(*process_generator));

    if (options.load_vector_math_library) {
      std::string err;
      auto mvec = llvm::sys::DynamicLibrary::getPermanentLibrary("libmvec.so.1", &err);
      if (mvec.isValid()) state->libmvec = state->library_generator->add("libmvec.so.1", mvec);
    }
    if (!options.cache_dir.empty())
      state->cache = std::make_unique<ObjectCache>(options.cache_dir, state->target.id());
    return std::unique_ptr<JitSession>(new JitSession(std::move(state)));
  } catch (const std::bad_alloc&) {
    return make_error(Code::OutOfMemory, "out of memory starting the JIT");
  }
}

Status JitSession::define_runtime_symbol(std::string_view name, void* address) {
  if (name.empty()) return make_error(Code::InvalidArgument, "runtime symbol with an empty name");
  if (!address)
    return make_error(Code::InvalidArgument, "runtime symbol \"" + std::string(name) + "\" has a null address");
  llvm::orc::SymbolMap symbols;
  symbols[state_->jit->mangleAndIntern(llvm::StringRef(name.data(), name.size()))] = {
      llvm::orc::ExecutorAddr::fromPtr(address),
      llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  if (llvm::Error err = state_->runtime->define(llvm::orc::absoluteSymbols(std::move(symbols)))) {
    llvm::consumeError(std::move(err));
    return make_error(Code::AlreadyExists, "runtime symbol \"" + std::string(name) + "\" is already defined");
  }
  return Status::success();
}

Status JitSession::add_library(std::string_view name_or_path) {
  std::string name(name_or_path);
  if (name.empty()) return make_error(Code::InvalidArgument, "empty library name");
  std::string err;
  auto library = llvm::sys::DynamicLibrary::getPermanentLibrary(name.c_str(), &err);
  if (!library.isValid())
    return make_error(Code::NotFound, "cannot load library \"" + name + "\": " + err);
  state_->library_generator->add(name, library);
  return Status::success();
}

Result<std::unique_ptr<JitModule>> JitSession::load_object(std::string object, std::string_view name) {
  try {
    auto impl = std::make_unique<JitModule::Impl>();
    auto jd = state_->link(object, name.empty() ? "object" : name, impl->stats);
    if (!jd.ok()) return jd.take_error();
    impl->state = state_;
    impl->jd = *jd;
    impl->name = (*jd)->getName();
    impl->stats.total_ms = impl->stats.link_ms;
    impl->object = std::move(object);
    return std::unique_ptr<JitModule>(new JitModule(std::move(impl)));
  } catch (const std::bad_alloc&) {
    return make_error(Code::OutOfMemory, "out of memory loading an object");
  }
}

Result<std::unique_ptr<JitModule>> JitSession::load_cached(std::string_view key) {
  if (!state_->cache) return make_error(Code::NotFound, "no object cache configured");
  auto t0 = Clock::now();
  auto object = state_->cache->load(key);
  if (!object.ok()) return object.take_error();
  if (!*object) return make_error(Code::NotFound, "no cached object for key " + std::string(key));
  double cache_ms = ms_since(t0);
  auto module = load_object(std::move(**object), key.substr(0, 16));
  if (!module.ok()) {
    state_->cache->note_unusable();
    return make_error(Code::NotFound, "cached object for key " + std::string(key) +
                                          " is unusable: " + module.error().message);
  }
  auto& impl = *(*module)->impl_;
  impl.object.clear();
  impl.stats.cache_hit = true;
  impl.stats.cache_ms = cache_ms;
  impl.stats.total_ms = ms_since(t0);
  return module;
}

Result<std::unique_ptr<JitModule>> JitSession::compile(std::unique_ptr<llvm::Module> module,
                                                       std::unique_ptr<llvm::LLVMContext> context,
                                                       const CompileOptions& options) {
  // Locals in this order: the module is destroyed before its context on every path.
  std::unique_ptr<llvm::LLVMContext> ctx = std::move(context);
  std::unique_ptr<llvm::Module> mod = std::move(module);
  if (!ctx || !mod) return make_error(Code::InvalidArgument, "compile() needs a module and its context");
  if (&mod->getContext() != ctx.get())
    return make_error(Code::InvalidArgument, "module \"" + mod->getModuleIdentifier() +
                                                 "\" does not belong to the given LLVMContext");
  try {
    auto t_start = Clock::now();
    CompileStats stats;
    const std::string id = mod->getModuleIdentifier();
    const std::string what = "module \"" + id + "\"";
    auto* diagnostics = new DiagnosticCollector;
    ctx->setDiagnosticHandler(std::unique_ptr<llvm::DiagnosticHandler>(diagnostics));
    auto finish = [&](std::string object, std::string ir, CompileStats& s, Clock::time_point t) {
      return finish_compile(std::move(object), std::move(ir), id, options, s, t);
    };

    // Verify before anything else: LLVM's passes assume valid IR and may abort otherwise.
    auto t0 = Clock::now();
    DACE_TRY(check_for_host(*mod, state_->target));
    const TargetInfo& target = state_->target;
    stats.verify_ms = ms_since(t0);

    const bool use_cache = state_->cache && !options.cache_key.empty();
    if (use_cache && options.cache_read) {
      auto t_cache = Clock::now();
      auto cached = state_->cache->load(options.cache_key);
      if (!cached.ok()) return cached.take_error();
      stats.cache_ms = ms_since(t_cache);
      if (*cached) {
        auto loaded = load_object(std::move(**cached), id);
        if (loaded.ok()) {
          auto& impl = *(*loaded)->impl_;
          if (!options.keep_object) impl.object.clear();
          impl.stats.verify_ms = stats.verify_ms;
          impl.stats.cache_ms = stats.cache_ms;
          impl.stats.cache_hit = true;
          impl.stats.total_ms = ms_since(t_start);
          return loaded;
        }
        state_->cache->note_unusable();  // e.g. written by an incompatible build: recompile
      }
    }

    for (const llvm::Function& f : *mod) stats.lowered_instructions += f.getInstructionCount();
    t0 = Clock::now();
    auto tm = state_->target_machine(options.opt);
    if (!tm.ok()) return tm.take_error();
    stamp_function_attributes(*mod, target.cpu, target.features, options.opt);
    mark_math_errno_free(*mod);

    // Parallel code generation: big modules are compiled in pieces on a pool of threads.
    std::vector<std::string> pieces;
    if (options.dump_dir.empty()) {
      int planned = planned_pieces(stats.lowered_instructions, options.piece_instructions);
      if (planned > 1) pieces = split_module(*mod, planned);
      stats.split_ms = ms_since(t0);
    }
    if (!pieces.empty()) {
      mod.reset();
      std::vector<PieceResult> results(pieces.size());
      const int threads = options.threads > 0 ? options.threads : usable_threads();
      stats.pieces = static_cast<int>(pieces.size());
      stats.threads = std::min(threads, stats.pieces);
      auto t_pool = Clock::now();
      run_on_threads(pieces.size(), threads,
                     [&](size_t i) { compile_piece(*state_, pieces[i], options, results[i]); });
      double pool_ms = ms_since(t_pool);
      std::vector<std::string> objects;
      std::string ir;
      double optimize_cpu = 0, codegen_cpu = 0;
      for (PieceResult& r : results) {
        if (r.error) return std::move(*r.error);
        objects.push_back(std::move(r.object));
        ir += r.ir;
        stats.ir_instructions += r.ir_instructions;
        optimize_cpu += r.optimize_ms;
        codegen_cpu += r.codegen_ms;
      }
      // Wall time of the pool, shared out between the phases by their thread time.
      double share = optimize_cpu + codegen_cpu > 0 ? optimize_cpu / (optimize_cpu + codegen_cpu) : 0.5;
      stats.optimize_ms = stats.split_ms + pool_ms * share;
      stats.codegen_ms = pool_ms * (1 - share);
      return finish(bundle_objects(objects), std::move(ir), stats, t_start);
    }

    DACE_TRY(optimize_module(*mod, **tm, options.opt, state_->libmvec));
    stats.optimize_ms = ms_since(t0);
    if (std::string errors = diagnostics->errors(); !errors.empty())
      return make_error(Code::CompileError, what + ": " + errors);
    for (const llvm::Function& f : *mod) stats.ir_instructions += f.getInstructionCount();

    std::string ir;
    if (options.keep_ir || !options.dump_dir.empty()) ir = print_module(*mod);
    if (!options.dump_dir.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(options.dump_dir, ec);
      if (ec)
        return make_error(Code::IoError, "cannot create dump directory \"" + options.dump_dir +
                                             "\": " + ec.message());
      std::string base = options.dump_dir + "/" + sanitized(options.dump_name.empty() ? id : options.dump_name);
      DACE_TRY(write_text(base + ".ll", ir));
      auto assembly = emit_assembly(*mod, **tm);
      if (!assembly.ok()) return assembly.take_error();
      DACE_TRY(write_text(base + ".s", *assembly));
    }
    if (!options.keep_ir) ir.clear();

    t0 = Clock::now();
    auto object = emit_object(*mod, **tm);
    if (!object.ok()) return object.take_error();
    stats.codegen_ms = ms_since(t0);
    if (std::string errors = diagnostics->errors(); !errors.empty())
      return make_error(Code::CompileError, what + ": " + errors);
    mod.reset();  // free the IR before linking
    ctx.reset();
    return finish(std::move(*object), std::move(ir), stats, t_start);
  } catch (const std::bad_alloc&) {
    return make_error(Code::OutOfMemory, "out of memory compiling module \"" +
                                             (mod ? mod->getModuleIdentifier() : std::string()) + "\"");
  }
}

Result<std::string> JitSession::compile_object(std::unique_ptr<llvm::Module> module,
                                               std::unique_ptr<llvm::LLVMContext> context,
                                               const OptimizationOptions& options) {
  std::unique_ptr<llvm::LLVMContext> ctx = std::move(context);
  std::unique_ptr<llvm::Module> mod = std::move(module);
  if (!ctx || !mod) return make_error(Code::InvalidArgument, "compile_object() needs a module and its context");
  if (&mod->getContext() != ctx.get())
    return make_error(Code::InvalidArgument, "module \"" + mod->getModuleIdentifier() +
                                                 "\" does not belong to the given LLVMContext");
  try {
    const std::string what = "module \"" + mod->getModuleIdentifier() + "\"";
    auto* diagnostics = new DiagnosticCollector;
    ctx->setDiagnosticHandler(std::unique_ptr<llvm::DiagnosticHandler>(diagnostics));
    DACE_TRY(check_for_host(*mod, state_->target));
    auto tm = state_->target_machine(options);
    if (!tm.ok()) return tm.take_error();
    // The steps of compile() on an unsplit module, so the object is the one the JIT links.
    stamp_function_attributes(*mod, state_->target.cpu, state_->target.features, options);
    mark_math_errno_free(*mod);
    DACE_TRY(optimize_module(*mod, **tm, options, state_->libmvec));
    auto object = emit_object(*mod, **tm);
    if (!object.ok()) return object.take_error();
    if (std::string errors = diagnostics->errors(); !errors.empty())
      return make_error(Code::CompileError, what + ": " + errors);
    return std::move(*object);
  } catch (const std::bad_alloc&) {
    return make_error(Code::OutOfMemory, "out of memory compiling module \"" +
                                             (mod ? mod->getModuleIdentifier() : std::string()) + "\"");
  }
}

Result<std::unique_ptr<JitModule>> JitSession::finish_compile(std::string object, std::string ir,
                                                              const std::string& id, const CompileOptions& options,
                                                              CompileStats stats,
                                                              std::chrono::steady_clock::time_point t_start) {
  if (state_->cache && !options.cache_key.empty()) {
    auto t_store = Clock::now();
    Status stored = state_->cache->store(options.cache_key, object);
    (void)stored;  // a read-only or full cache directory must not fail the compile
    stats.cache_ms += ms_since(t_store);
  }
  auto impl = std::make_unique<JitModule::Impl>();
  auto jd = state_->link(object, id, stats);
  if (!jd.ok()) return jd.take_error();
  impl->state = state_;
  impl->jd = *jd;
  impl->name = (*jd)->getName();
  impl->ir = std::move(ir);
  if (options.keep_object) impl->object = std::move(object);
  stats.total_ms = ms_since(t_start);
  impl->stats = stats;
  return std::unique_ptr<JitModule>(new JitModule(std::move(impl)));
}

const TargetInfo& JitSession::target() const { return state_->target; }
bool JitSession::has_vector_math_library() const { return state_->libmvec; }
bool JitSession::has_cache() const { return state_->cache != nullptr; }
CacheStats JitSession::cache_stats() const {
  return state_->cache ? state_->cache->stats() : CacheStats{};
}
size_t JitSession::live_modules() const { return state_->live; }

}  // namespace dace::jit
