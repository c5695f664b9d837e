// Shared by `dace run` and `dace compile`: RAII handles over the C API, option parsing for
// the compile flags both commands accept, and the one place that turns a failed C API call
// into a stderr message.
#pragma once
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "libdace.h"

namespace dace::cli {

struct SdfgDeleter {
  void operator()(dace_sdfg_t* s) const { dace_sdfg_release(s); }
};
struct ProgramDeleter {
  void operator()(dace_program_t* p) const { dace_program_release(p); }
};
struct ContextDeleter {
  void operator()(dace_context_t* c) const { dace_context_release(c); }
};
using SdfgPtr = std::unique_ptr<dace_sdfg_t, SdfgDeleter>;
using ProgramPtr = std::unique_ptr<dace_program_t, ProgramDeleter>;
using ContextPtr = std::unique_ptr<dace_context_t, ContextDeleter>;

// Prints `dace: <what>: <status>: <last error message>` to stderr.
void report_capi_error(const std::string& what, dace_status_t status);

// Compile flags shared by `run` and `compile`.
struct CompileFlags {
  int opt_level = 3;
  bool fast_math = false;
  int threads = 0;
  std::string cache_dir;
  std::string optimize;  // --optimize NAME: a registered pass run on a copy before compiling
  bool tiered = true;           // --no-tiers: one compile at -O N before the program is callable
  bool wait_optimized = false;  // --wait-optimized: return once the optimized tier is in
  bool emulate_device = false;  // --emulate-device: GPU kernels run on the host (docs/cuda.md)
  bool bounds_check = false;    // --bounds-check: memlet accesses checked at run time
  int max_streams = 0;          // --max-streams N: CUDA streams per state (0: the plugin's default)
};

// Consumes args[i] (and its value) when it is a compile flag: returns 1 if consumed, 0 if
// not a compile flag, -1 on a malformed value (message printed).
int parse_compile_flag(const std::vector<std::string>& args, size_t& i, CompileFlags& flags);

// Loads; on failure prints the message and returns null. Validation is left to the compile,
// which reports the first violation with its element path (validating twice costs time).
SdfgPtr load_sdfg(const std::string& path);

// The C API's options for `flags` (pointers into flags and dump_dir: keep them alive).
dace_compile_options_t compile_options(const CompileFlags& flags, const std::string& dump_dir);

// Compiles `sdfg` in `context`; `dump_dir` empty = no dump. Null on failure (message printed).
ProgramPtr compile_program(dace_context_t* context, const dace_sdfg_t* sdfg, const std::string& path,
                           const CompileFlags& flags, const std::string& dump_dir);

// Strict number parsing: the whole string must be the number.
bool parse_int64(const std::string& text, int64_t& out);
bool parse_double(const std::string& text, double& out);

inline double ms_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace dace::cli
