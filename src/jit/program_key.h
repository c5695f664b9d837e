// The object-cache key of a compiled SDFG. Everything that can change the machine code or
// the way it links is part of it, so a stale or foreign object is never loaded:
//   - the SDFG (content hash, which ignores guids; and its name, which names the entry points),
//   - the SDFG optimizer run before lowering (its fingerprint; empty when none),
//   - the target (triple, CPU name and features, LLVM version: TargetInfo::id()),
//   - this libdace (version and build id: lowering and the internal ABI may change; and the
//     linker's build id of its binary, which changes with any change of its code: binary_id.h),
//   - the plugins (name, version, build id, binary build id, ABI of each; the runtime symbols
//     and the vendor libraries they offer, since the lowering calls them),
//   - the options (codegen::options_fingerprint of the lowering; JIT optimization level,
//     fast-math, vector math library).
// Computed from the SDFG without lowering it, so a cache hit skips lowering entirely.
#pragma once
#include <string>

namespace dace::plugin {
class Registry;
}

namespace dace::jit {

struct ProgramKeyInputs {
  std::string sdfg_hash;
  std::string sdfg_optimizer;  // pipeline::optimizer_fingerprint: the SDFG passes run before lowering
  std::string sdfg_name;
  std::string target_id;
  std::string libdace_version;
  std::string libdace_build_id;
  std::string libdace_binary_id;  // jit::libdace_binary_id()
  std::string plugins;   // plugins_fingerprint()
  std::string lowering;  // codegen::options_fingerprint()
  int opt_level = 3;     // clamped to 0-3 like the pipeline does
  bool fast_math = false;
  bool vector_math_library = false;
};

// Deterministic text of what the registry's plugins contribute to code generation and
// linking (sorted; addresses excluded, they change from run to run). It loads the optional
// vendor libraries not tried yet, as whether each one loads is part of the text.
std::string plugins_fingerprint(const plugin::Registry& registry);

// 64 lowercase hex digits (a valid ObjectCache key).
std::string program_cache_key(const ProgramKeyInputs& inputs);

}  // namespace dace::jit
