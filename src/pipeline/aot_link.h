// Linking an ahead-of-time compiled object into lib<name>.so (pipeline/aot.h). LLVM in
// Debian has no linker library (lld is a separate package), so the system's C compiler
// driver links: `cc -shared` (DACE_AOT_CC names another driver). The library needs the CPU
// runtime, libdace_rt.so (DT_NEEDED, found through a RUNPATH to the folder it was found in),
// and the vendor libraries the object calls (--as-needed: only those it uses stay).
#pragma once
#include <string>
#include <vector>

#include "ir/result.h"

namespace dace::pipeline {

// The folder of libdace_rt.so: next to the libdace.so this code runs in. NotFound (naming
// where it looked) when it is not there.
Result<std::string> runtime_library_dir();

struct LinkRequest {
  std::string object;         // the .o to link
  std::string output;         // the shared library to write
  std::string soname;         // "lib<name>.so"
  std::string runtime_dir;    // of libdace_rt.so
  std::vector<std::string> runtimes;   // other runtime libraries in runtime_dir, always needed ("dace_cuda_rt")
  std::vector<std::string> libraries;  // sonames of vendor libraries that may be needed
};

// CompileError with the driver's output when it fails; Unsupported when it cannot be started.
Status link_shared_library(const LinkRequest& request);

}  // namespace dace::pipeline
