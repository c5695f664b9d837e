// Ahead-of-time compilation (DESIGN.md §6 "AOT"): the compile pipeline's lowering and LLVM
// steps, with the object written to files instead of linked into the process:
//   <out_dir>/<name>.o      the ELF object the JIT would link (one module, unsplit, for this
//                           host's CPU; position-independent), byte-deterministic
//   <out_dir>/lib<name>.so  that object as a shared library (SONAME lib<name>.so), DT_NEEDED
//                           on libdace_rt.so (the CPU runtime, no LLVM) and the vendor
//                           libraries it calls (OpenBLAS, LAPACKE, libmvec, libm)
//   <out_dir>/lib<name>.a   that object as a static archive (pipeline/aot_archive.h), for a
//                           host that links the program into its executable
//   <out_dir>/<name>.h      DaCe's ABI of the program in C99 (pipeline/aot_header.h)
// <name> is the SDFG's name, which must be a C identifier. Each file is written under a
// temporary name in out_dir and renamed into place, so a failed compile leaves no partial
// file. The program's status record is renamed to __dace_status_<name>, so several AOT
// programs can live in one process.
// Refused (Unsupported, naming the symbol and its plugin): programs calling a runtime that
// is not the CPU runtime (CUDA, MPI): their plugins' runtimes live inside the plugins.
#pragma once
#include <string>

#include "pipeline/compile.h"

namespace dace::pipeline {

struct AotOutput {
  std::string library, object, header, archive;  // the paths written
  PhaseTimes times;                     // transform, validate, lower, optimize+codegen (jit_ms), total
  uint64_t object_bytes = 0;
};

// request: sdfg, opt_level, fast_math, num_threads, optimize, bounds_check are used (tiers,
// dumps and the cache are JIT matters). Errors: InvalidArgument (a name that is no C
// identifier, an empty out_dir), IoError (out_dir cannot be created or written, naming it),
// Unsupported (see above; argument types C cannot pass), the compile pipeline's errors,
// CompileError (the linker's output), NotFound (libdace_rt.so missing).
Result<AotOutput> compile_aot(const CompileRequest& request, const Backend& backend, const std::string& out_dir);

// Whether `name` is a C identifier ([A-Za-z_][A-Za-z0-9_]*).
bool is_c_identifier(const std::string& name);

}  // namespace dace::pipeline
