// Test helpers for the codegen tests: JIT-compile a lowered SDFG and call it through libffi
// with DaCe's ABI (init(symbols) -> state, program(state, args...), exit(state)).
#pragma once
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "codegen/lower.h"
#include "ir/result.h"
#include "ir/sdfg.h"
#include "jit/program.h"
#include "jit/session.h"

namespace dace::codegen::testing {

// One argument value: `ptr` for arrays, raw little-endian bytes for scalars and symbols.
using ArgValue = jit::ArgValue;

struct CompiledProgram {
  std::unique_ptr<jit::Program> program;
  std::vector<analysis::Argument> arguments, init_arguments;
  std::string ir;  // unoptimized IR text
};

// A process-wide session with a stand-in `dace_cpu_parallel_for` (static split over up to 3
// std::threads) registered as runtime symbol.
jit::JitSession& session();
// How many times the stand-in parallel_for ran a body on a worker thread (tests check that
// parallel maps really went through it).
int64_t parallel_calls();
// Vendor-thread regions (dace_cpu_vendor_threads_begin) begun and not yet ended, by the
// session's stand-ins.
int64_t open_vendor_thread_regions();

// Lowering options of the codegen tests: small parallel maps still go through the stand-in
// runtime (LowerOptions::inline_small_parallel_maps off), so small test sizes exercise the
// threaded path, atomics included.
LowerOptions parallel_test_options();

Result<CompiledProgram> compile(const ir::SDFG& sdfg, const LowerOptions& options = parallel_test_options());

// Calls init with the symbols named in `values`, the program with every argument, then exit.
Status run(const CompiledProgram& p, const std::map<std::string, ArgValue>& values);
// The same with `calls` program calls between one init and one exit.
Status run_calls(const CompiledProgram& p, const std::map<std::string, ArgValue>& values, int calls);

// `g` lowered with the CPU plugin's schedules (parallel maps outlined, as in a real run), as IR
// text; a failed lowering is a test failure and gives "".
std::string lower_with_cpu_schedules(const ir::SDFG& g);

// Converts `x` to the bytes of a scalar of type t (ints, floats, bool; complex: real part).
ArgValue scalar_of(tasklet::ScalarType t, double x);

}  // namespace dace::codegen::testing
