// `dace run FILE [-s N=V ...] [-i A=a.npy ...] [--case CASE.json] [-o DIR] [--repeat K]
//  [--threads T] [-O N] [--fast-math] [--cache-dir DIR] [--optimize PASS] [--json]
//  [--instrument all|program|states|maps|nodes[,...]] [--instrument-dir DIR]`
// Compiles through the C API, calls once on the given/generated inputs (that call's results
// are compared and written), then, with --repeat K, times K more calls on fresh copies of the
// inputs so the written outputs never depend on K.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "array_values.h"
#include "capi_util.h"
#include "case_file.h"
#include "commands.h"
#include "compare.h"
#include "median.h"
#include "progress.h"
#include "run_inputs.h"

namespace dace::cli {
namespace {

using ordered_json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

constexpr const char* kUsage =
    "usage: dace run FILE [-s NAME=VALUE ...] [-i NAME=FILE.npy ...] [--case CASE.json] [-o DIR]\n"
    "                [--repeat K] [--threads T] [-O N] [--fast-math] [--cache-dir DIR] [--optimize PASS]\n"
    "                [--no-tiers] [--wait-optimized] [--emulate-device] [--bounds-check] [--max-streams N]\n"
    "                [--instrument all|program|states|maps|nodes[,...]|none] [--instrument-dir DIR] [--json]\n"
    "                [--quiet|--progress]\n"
    "  --progress           show progress on stderr even when it is not a terminal (default: on a\n"
    "                       terminal only; --quiet: never); stdout is the same either way\n"
    "  --instrument SEL     time the selected elements (DaCe's Timer); one report per call in DaCe's\n"
    "                       format, in --instrument-dir, else $DACE_INSTRUMENT_DIR, else\n"
    "                       .dacecache/<name>/perf; summarize with `dace report FILE`\n";

struct RunOptions {
  std::string file;
  std::string case_path;
  std::string out_dir;
  std::map<std::string, std::string> values;  // -s
  std::map<std::string, std::string> inputs;  // -i
  int64_t repeat = 0;
  bool json = false;
  std::string instrument, instrument_dir;
  CompileFlags compile;
};

int usage_error(const std::string& message) {
  std::fprintf(stderr, "dace run: %s\n%s", message.c_str(), kUsage);
  return kExitError;
}

bool split_pair(const std::string& text, std::string& name, std::string& value) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  name = text.substr(0, eq);
  value = text.substr(eq + 1);
  return true;
}

// Returns -1 on success, else the exit code.
int parse_options(const std::vector<std::string>& args, RunOptions& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    int c = parse_compile_flag(args, i, o.compile);
    if (c < 0) return usage_error("bad option value");
    if (c > 0) continue;
    auto value = [&](std::string& out) {
      if (i + 1 >= args.size()) return false;
      out = args[++i];
      return true;
    };
    std::string v, name, rest;
    if (a == "--json") {
      o.json = true;
    } else if (a == "-s" || a == "-i") {
      if (!value(v) || !split_pair(v, name, rest)) return usage_error("option " + a + " needs NAME=VALUE");
      (a == "-s" ? o.values : o.inputs)[name] = rest;
    } else if (a == "-o" || a == "--case") {
      if (!value(v) || v.empty()) return usage_error("option " + a + " needs a path");
      (a == "-o" ? o.out_dir : o.case_path) = v;
    } else if (a == "--instrument" || a == "--instrument-dir") {
      if (!value(v) || v.empty()) return usage_error("option " + a + " needs a value");
      (a == "--instrument" ? o.instrument : o.instrument_dir) = v;
    } else if (a == "--repeat") {
      if (!value(v) || !parse_int64(v, o.repeat) || o.repeat < 1 || o.repeat > 1000000)
        return usage_error("--repeat needs a count >= 1");
    } else if (a.starts_with("-") && a != "-") {
      return usage_error("unknown option '" + a + "'");
    } else if (o.file.empty()) {
      o.file = a;
    } else {
      return usage_error("more than one SDFG file");
    }
  }
  if (o.file.empty()) return usage_error("no SDFG file");
  return -1;
}

bool read_npy(const std::string& what, const std::string& path, npy::Array& out) {
  auto a = npy::read(path);
  if (!a.ok()) {
    std::fprintf(stderr, "dace: %s: %s: %s\n", what.c_str(), path.c_str(), a.error().message.c_str());
    return false;
  }
  out = std::move(*a);
  return true;
}

// One line per array for runs without a case or -o: enough to eyeball or diff results.
void print_summary(const BoundArgument& a) {
  int64_t n = 1;
  for (int64_t e : a.shape) n *= e;
  std::complex<double> sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += element(a.dtype, a.bytes.data(), i);
  std::string shape;
  for (size_t i = 0; i < a.shape.size(); ++i) shape += (i ? ", " : "") + std::to_string(a.shape[i]);
  if (dtype_is_complex(a.dtype))
    std::printf("%s: %s[%s] sum %.9g%+.9gj\n", a.name.c_str(), dtype_name(a.dtype), shape.c_str(), sum.real(), sum.imag());
  else
    std::printf("%s: %s[%s] sum %.9g\n", a.name.c_str(), dtype_name(a.dtype), shape.c_str(), sum.real());
}

}  // namespace

int cmd_run(const std::vector<std::string>& arguments) {
  std::vector<std::string> args = arguments;
  Progress progress(take_progress_flags(args));
  RunOptions o;
  if (int rc = parse_options(args, o); rc >= 0) return rc;

  // Read every file first: a missing input should fail in milliseconds, not after a compile.
  RunInputs in;
  CaseFile cs;
  std::map<std::string, npy::Array> expected;
  if (!o.case_path.empty()) {
    std::string error;
    auto c = read_case_file(o.case_path, error, mpi_rank());
    if (!c) {
      std::fprintf(stderr, "dace: %s: %s\n", o.case_path.c_str(), error.c_str());
      return kExitError;
    }
    // A distributed case runs as one process per rank: `mpirun -np R dace run ...`.
    if (c->ranks > 0 && c->ranks != mpi_world_size()) {
      std::fprintf(stderr, "dace: %s: the case needs %d MPI ranks, this process is one of %d (run it under mpirun -np %d)\n",
                   o.case_path.c_str(), c->ranks, mpi_world_size(), c->ranks);
      return kExitError;
    }
    cs = std::move(*c);
    in.case_symbols = cs.symbols;
    for (const auto& [name, path] : cs.inputs)
      if (!o.inputs.count(name) && !read_npy("input " + name, path, in.files[name])) return kExitError;
    for (const auto& [name, path] : cs.expected_outputs)
      if (!read_npy("expected output " + name, path, expected[name])) return kExitError;
  }
  for (const auto& [name, path] : o.inputs)
    if (!read_npy("input " + name, path, in.files[name])) return kExitError;
  in.cli_values = o.values;

  SdfgPtr sdfg = load_sdfg(o.file);
  if (!sdfg) return kExitError;
  const char* name_ptr = nullptr;
  std::string sdfg_name = dace_sdfg_get_name(&name_ptr, sdfg.get()) == DACE_OK ? name_ptr : "";

  dace_context_t* ctx_raw = nullptr;
  if (dace_status_t st = dace_context_create(&ctx_raw); st != DACE_OK) {
    report_capi_error("context", st);
    return kExitError;
  }
  ContextPtr ctx(ctx_raw);
  if (!o.instrument.empty()) {
    int32_t timers = 0;
    if (dace_status_t ist = dace_sdfg_instrument(&timers, sdfg.get(), o.instrument.c_str()); ist != DACE_OK) {
      report_capi_error("--instrument", ist);
      return kExitError;
    }
  }
  if (!o.instrument_dir.empty()) {
    if (dace_status_t ist = dace_context_set_option(ctx.get(), "instrument_dir", o.instrument_dir.c_str()); ist != DACE_OK) {
      report_capi_error("--instrument-dir", ist);
      return kExitError;
    }
  }
  // Timed repetitions measure the optimized code: wait for it rather than time a tier swap.
  if (o.repeat > 0) o.compile.wait_optimized = true;
  progress.note("compiling " + sdfg_name + " ...");
  auto t0 = Clock::now();
  ProgramPtr program = compile_program(ctx.get(), sdfg.get(), o.file, o.compile, "");
  progress.clear();
  if (!program) return kExitError;
  const double compile_ms = ms_between(t0, Clock::now());

  std::vector<BoundArgument> bound;
  std::string error;
  if (!bind_arguments(program.get(), sdfg.get(), in, bound, error)) {
    std::fprintf(stderr, "dace: %s: %s\n", o.file.c_str(), error.c_str());
    return kExitError;
  }
  for (const auto& [name, exp] : expected) {
    auto it = std::find_if(bound.begin(), bound.end(), [&](const BoundArgument& a) { return a.name == name; });
    if (it == bound.end() || it->kind != DACE_ARGUMENT_ARRAY) {
      std::fprintf(stderr, "dace: %s: expected output '%s' is not an array argument of the program\n",
                   o.case_path.c_str(), name.c_str());
      return kExitError;
    }
  }
  const std::vector<BoundArgument> initial = o.repeat > 0 ? bound : std::vector<BoundArgument>{};

  std::vector<const char*> names;
  std::vector<dace_arg_t> call_args;
  make_call_args(bound, names, call_args);
  progress.note("running " + sdfg_name + " ...");
  t0 = Clock::now();
  dace_status_t st = dace_program_call(program.get(), names.data(), call_args.data(), static_cast<int32_t>(names.size()));
  const double first_ms = ms_between(t0, Clock::now());
  progress.clear();
  if (st != DACE_OK) {
    report_capi_error(o.file, st);
    return kExitError;
  }
  collect_arrays(bound);

  std::vector<double> times;
  if (o.repeat > 0) {
    std::vector<BoundArgument> scratch = initial;
    make_call_args(scratch, names, call_args);
    for (int64_t k = 0; k < o.repeat; ++k) {
      // Copy in place: call_args point into the scratch buffers.
      for (size_t i = 0; i < scratch.size(); ++i)
        std::copy(initial[i].bytes.begin(), initial[i].bytes.end(), scratch[i].bytes.begin());
      stage_arrays(scratch);
      auto t = Clock::now();
      st = dace_program_call(program.get(), names.data(), call_args.data(), static_cast<int32_t>(names.size()));
      times.push_back(ms_between(t, Clock::now()));
      if (st != DACE_OK) {
        progress.clear();
        report_capi_error(o.file, st);
        return kExitError;
      }
      // Outside the timed call: the report never measures its own printing.
      if (progress.active()) {
        char last[64];
        std::snprintf(last, sizeof last, "%.3f ms", times.back());
        progress.tick(static_cast<size_t>(k + 1), static_cast<size_t>(o.repeat), sdfg_name + ": timed run, last " + last);
      }
    }
  }
  progress.clear();

  ordered_json j;
  j["file"] = o.file;
  j["name"] = sdfg_name;
  j["compile_ms"] = compile_ms;
  j["first_run_ms"] = first_ms;
  bool all_ok = true;
  if (!o.case_path.empty()) {
    ordered_json outs = ordered_json::object();
    for (const auto& [name, exp] : expected) {
      auto it = std::find_if(bound.begin(), bound.end(), [&](const BoundArgument& a) { return a.name == name; });
      Comparison c = compare_output(*it, exp, cs.rtol, cs.atol);
      all_ok = all_ok && c.ok;
      ordered_json x;
      x["max_abs_error"] = c.max_abs_error;
      x["max_rel_error"] = c.max_rel_error;
      x["ok"] = c.ok;
      if (!c.problem.empty()) x["problem"] = c.problem;
      outs[name] = x;
      if (!o.json) {
        if (!c.problem.empty()) std::printf("%s: %s: MISMATCH\n", name.c_str(), c.problem.c_str());
        else
          std::printf("%s: max abs error %.3e, max rel error %.3e: %s\n", name.c_str(), c.max_abs_error,
                      c.max_rel_error, c.ok ? "ok" : "MISMATCH");
      }
    }
    j["outputs"] = outs;
    j["ok"] = all_ok;
  }
  if (!o.out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.out_dir, ec);
    ordered_json written = ordered_json::array();
    for (const auto& a : bound) {
      if (a.kind != DACE_ARGUMENT_ARRAY) continue;
      std::string path = (std::filesystem::path(o.out_dir) / (a.name + ".npy")).string();
      Status ws = npy::write(path, to_npy(a));
      if (!ws.ok()) {
        std::fprintf(stderr, "dace: %s: %s\n", path.c_str(), ws.error().message.c_str());
        return kExitError;
      }
      written.push_back(path);
    }
    j["written"] = written;
  } else if (o.case_path.empty() && !o.json) {
    for (const auto& a : bound)
      if (a.kind == DACE_ARGUMENT_ARRAY) print_summary(a);
  }
  if (!times.empty()) {
    j["runs"] = times.size();
    j["min_ms"] = *std::min_element(times.begin(), times.end());
    j["median_ms"] = median(times);
  }
  const char* report_json = nullptr;
  const char* report_path = nullptr;
  if (dace_program_last_report(&report_json, &report_path, program.get()) == DACE_OK && report_path && *report_path)
    j["instrumentation_report"] = report_path;
  if (o.json) {
    std::printf("%s\n", j.dump(1).c_str());
  } else {
    std::printf("compile: %.3f ms\n", compile_ms);
    if (times.empty()) std::printf("run: %.3f ms\n", first_ms);
    else
      std::printf("run: min %.3f ms, median %.3f ms (%zu runs)\n", j["min_ms"].get<double>(),
                  j["median_ms"].get<double>(), times.size());
    if (j.contains("instrumentation_report"))
      std::printf("instrumentation report (last call): %s\n", j["instrumentation_report"].get<std::string>().c_str());
  }
  std::fflush(stdout);
  return all_ok ? kExitOk : kExitFailed;
}

}  // namespace dace::cli
