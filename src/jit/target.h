// The host machine as the JIT sees it. Detected once per session; strings only, so callers
// can put them into cache keys and messages without LLVM headers.
#pragma once
#include <string>

#include "ir/result.h"

namespace dace::jit {

struct TargetInfo {
  std::string triple;        // e.g. x86_64-pc-linux-gnu
  std::string cpu;           // sys::getHostCPUName(), e.g. znver4
  std::string features;      // "+avx2,+avx512f,-sse4a,...", sorted by name
  std::string data_layout;   // of the host TargetMachine; modules must match or leave it empty
  std::string llvm_version;  // e.g. 19.1.7

  // One string naming the machine code this target produces; part of every cache entry.
  std::string id() const { return triple + "|" + cpu + "|" + features + "|llvm " + llvm_version; }
};

// Registers the native target, asm printer and parser with LLVM (once per process).
Status initialize_native_target();

Result<TargetInfo> detect_host_target();

}  // namespace dace::jit
