// JIT session and compiled modules: LLVM modules in, callable host code out.
//
// One JitSession per libdace context. It owns an ORC LLJIT (JITLink object linking layer)
// for the host, the runtime-symbol table, the libraries the plugins named, and optionally
// an on-disk object cache. Every compiled module lives in its own JITDylib, unloaded when
// its JitModule is released or destroyed.
//
// Symbol resolution for JIT'd code, first match wins:
//   1. the module itself;
//   2. runtime symbols registered with define_runtime_symbol() (closed world: the plugins'
//      runtime tables; a name here shadows any library or process symbol);
//   3. the shared libraries added with add_library(), in the order they were added
//      (libmvec.so.1 first: the session loads it at creation; it defines only _ZGV* names);
//   4. the process: the executable and every library it has loaded (dlsym(RTLD_DEFAULT)).
//
// Thread safety: all member functions may be called concurrently from several threads,
// including compile() (each module brings its own LLVMContext). JitModules may outlive their
// JitSession: they keep the session's internals alive until they are gone.
//
// LLVM types appear only as forward declarations; callers that build modules include LLVM.
#pragma once
#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "ir/result.h"
#include "jit/object_cache.h"
#include "jit/options.h"
#include "jit/target.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace dace::jit {

struct SessionState;

class JitModule {
 public:
  ~JitModule();  // releases; an error there is ignored (call release() to see it)
  JitModule(const JitModule&) = delete;
  JitModule& operator=(const JitModule&) = delete;

  // Address of a symbol defined by this module (by its IR name). NotFound when the module
  // does not define it or has been released.
  Result<void*> lookup(std::string_view name) const;

  template <class Fn>
  Result<Fn*> lookup_function(std::string_view name) const {
    Result<void*> p = lookup(name);
    if (!p.ok()) return p.take_error();
    return reinterpret_cast<Fn*>(*p);
  }

  // Unloads the code: removes the JITDylib and frees its memory. Idempotent.
  Status release();
  bool released() const;

  const std::string& name() const;  // of the JITDylib, unique within the session
  const CompileStats& stats() const;
  const std::string& optimized_ir() const;  // with CompileOptions::keep_ir, not on cache hits
  const std::string& object_file() const;   // with CompileOptions::keep_object

 private:
  friend class JitSession;
  struct Impl;
  explicit JitModule(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class JitSession {
 public:
  static Result<std::unique_ptr<JitSession>> create(const SessionOptions& options = {});
  ~JitSession();
  JitSession(const JitSession&) = delete;
  JitSession& operator=(const JitSession&) = delete;

  // Adds `name` → `address` to the runtime table (tier 2). AlreadyExists if defined.
  Status define_runtime_symbol(std::string_view name, void* address);

  // Loads a shared library permanently (dlopen semantics for `name_or_path`) and adds it to
  // tier 3. NotFound with the loader's message when it cannot be loaded. Adding the same
  // name twice is a no-op. Affects modules compiled afterwards.
  Status add_library(std::string_view name_or_path);

  // Verifies, optimizes, generates code for and links `module`, which must belong to
  // `context` (both are consumed). The module's triple and data layout must be empty or the
  // host's (target().triple up to the vendor; a data layout equal to target().data_layout).
  // With options.cache_key and a cache dir, a valid cached object skips optimization and
  // code generation. Errors: InvalidArgument, CompileError (verifier text, LLVM diagnostics,
  // unresolved symbols by name), IoError (dumps).
  Result<std::unique_ptr<JitModule>> compile(std::unique_ptr<llvm::Module> module,
                                             std::unique_ptr<llvm::LLVMContext> context,
                                             const CompileOptions& options = {});

  // The ELF object of `module` for this host, as compile() makes it for a module it does not
  // split, without linking or caching it (ahead-of-time compilation writes it to a file):
  // position-independent, small code model, host CPU and features. Deterministic: the same
  // module and options give the same bytes. Errors as compile().
  Result<std::string> compile_object(std::unique_ptr<llvm::Module> module,
                                     std::unique_ptr<llvm::LLVMContext> context,
                                     const OptimizationOptions& options);

  // The cached object for `key` loaded into a fresh JITDylib, without an LLVM module.
  // NotFound on a miss (or without a cache dir); a damaged entry is a miss.
  Result<std::unique_ptr<JitModule>> load_cached(std::string_view key);

  // Links an ELF object produced for this target (e.g. JitModule::object_file()) into a
  // fresh JITDylib; the JitModule keeps the bytes (object_file()).
  Result<std::unique_ptr<JitModule>> load_object(std::string object, std::string_view name = {});

  const TargetInfo& target() const;
  bool has_vector_math_library() const;  // libmvec.so.1 was loaded
  bool has_cache() const;
  CacheStats cache_stats() const;  // zeros without a cache
  // JITDylibs of modules currently loaded (compiled or cached, not yet released).
  size_t live_modules() const;

 private:
  explicit JitSession(std::shared_ptr<SessionState> state);
  // Stores `object` in the cache (with a key), links it and wraps it as a JitModule.
  Result<std::unique_ptr<JitModule>> finish_compile(std::string object, std::string ir, const std::string& id,
                                                    const CompileOptions& options, CompileStats stats,
                                                    std::chrono::steady_clock::time_point t_start);
  std::shared_ptr<SessionState> state_;
};

}  // namespace dace::jit
