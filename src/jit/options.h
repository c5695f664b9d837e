// Options and measurements of the JIT layer. Plain structs, no LLVM types.
#pragma once
#include <cstdint>
#include <string>

namespace dace::jit {

struct OptimizationOptions {
  // New-pass-manager pipeline level, 0-3 (clamped). Also picks the code generator's level.
  int level = 3;
  // Full fast-math on top of the safe defaults: no NaNs/infinities, approximate functions,
  // unrestricted FMA contraction. The safe defaults (always on) are: math library calls do
  // not set errno, FP operations do not trap, signed zeros may be ignored by the backend.
  bool fast_math = false;
  // Map scalar math calls (sin, exp, ...) in vectorized loops to glibc's libmvec. Ignored
  // when the session could not load libmvec.so.1 (JitSession::has_vector_math_library()).
  bool vector_math_library = true;
};

struct CompileOptions {
  OptimizationOptions opt;
  // Non-empty: consult and fill the session's object cache under this key (see
  // ObjectCache; the caller derives it with cache_key()). Ignored without a cache dir.
  std::string cache_key;
  // false: do not look the key up, only store the result under it (for a caller that
  // already tried load_cached(), or that wants dumps, which a hit would skip).
  bool cache_read = true;
  // Non-empty: write `<dump_dir>/<dump_name>.ll` (optimized IR) and `.s` (assembly).
  // dump_name defaults to the module identifier. Skipped on a cache hit.
  std::string dump_dir;
  std::string dump_name;
  // Keep the optimized IR text / object bytes in the JitModule (for inspection and tests).
  bool keep_ir = false;
  bool keep_object = false;
  // Parallel code generation (jit/split.h): a module of at least two pieces' worth of
  // lowered instructions is cut into pieces optimized and compiled on `threads` threads
  // (0: every CPU the process may use, or DACE_JIT_THREADS). The pieces depend only on the
  // module and piece_instructions (0: kDefaultPieceInstructions), never on `threads`, so the
  // object is the same bytes for every thread count. No split with a dump_dir.
  int threads = 0;
  uint64_t piece_instructions = 0;
};

// Wall-clock milliseconds of each phase of one compile, plus sizes.
struct CompileStats {
  double verify_ms = 0;
  double optimize_ms = 0;   // attribute stamping + new-PM pipeline
  double codegen_ms = 0;    // machine code to an in-memory object file
  double link_ms = 0;       // JITLink: allocation, relocation, symbol resolution
  double cache_ms = 0;      // cache lookup (read + verify) and, on a miss, the store
  double total_ms = 0;
  bool cache_hit = false;
  uint64_t lowered_instructions = 0;  // of the module as given, before optimization; 0 on a cache hit
  uint64_t ir_instructions = 0;  // after optimization; 0 on a cache hit
  uint64_t object_bytes = 0;
  int pieces = 1;       // modules compiled separately (parallel code generation)
  int threads = 1;      // threads that compiled them
  double split_ms = 0;  // cutting the module into pieces (part of optimize_ms)
};

struct SessionOptions {
  // Directory of the on-disk object cache; empty disables caching.
  std::string cache_dir;
  // Load glibc's libmvec.so.1 permanently so vectorized math calls resolve.
  bool load_vector_math_library = true;
};

}  // namespace dace::jit
