#include "capi_util.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "progress.h"

namespace dace::cli {

void report_capi_error(const std::string& what, dace_status_t status) {
  clear_progress_line();
  std::fprintf(stderr, "dace: %s: %s: %s\n", what.c_str(), dace_status_string(status), dace_last_error_message());
}

bool parse_int64(const std::string& text, int64_t& out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  out = v;
  return true;
}

bool parse_double(const std::string& text, double& out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (errno == ERANGE || *end != '\0') return false;
  out = v;
  return true;
}

int parse_compile_flag(const std::vector<std::string>& args, size_t& i, CompileFlags& flags) {
  const std::string& a = args[i];
  if (a == "--fast-math") {
    flags.fast_math = true;
    return 1;
  }
  if (a == "--no-tiers") {
    flags.tiered = false;
    return 1;
  }
  if (a == "--wait-optimized") {
    flags.wait_optimized = true;
    return 1;
  }
  if (a == "--emulate-device") {
    flags.emulate_device = true;
    return 1;
  }
  if (a == "--bounds-check") {
    flags.bounds_check = true;
    return 1;
  }
  // Both "-O2" and "-O 2".
  bool is_opt = a == "-O" || (a.size() == 3 && a.starts_with("-O"));
  if (!is_opt && a != "--threads" && a != "--max-streams" && a != "--cache-dir" && a != "--optimize") return 0;
  std::string value;
  if (a.size() == 3 && a.starts_with("-O")) {
    value = a.substr(2);
  } else {
    if (i + 1 >= args.size()) {
      std::fprintf(stderr, "dace: option '%s' needs a value\n", a.c_str());
      return -1;
    }
    value = args[++i];
  }
  if (a == "--cache-dir" || a == "--optimize") {
    if (value.empty()) {
      std::fprintf(stderr, "dace: %s: empty value\n", a.c_str());
      return -1;
    }
    (a == "--cache-dir" ? flags.cache_dir : flags.optimize) = value;
    return 1;
  }
  int64_t n = 0;
  if (!parse_int64(value, n) || n < 0 || (is_opt && n > 3) || n > 4096) {
    std::fprintf(stderr, "dace: option '%s': bad value '%s'\n", a.c_str(), value.c_str());
    return -1;
  }
  if (is_opt) flags.opt_level = static_cast<int>(n);
  else if (a == "--max-streams") flags.max_streams = static_cast<int>(n);
  else flags.threads = static_cast<int>(n);
  return 1;
}

SdfgPtr load_sdfg(const std::string& path) {
  dace_sdfg_t* raw = nullptr;
  dace_status_t st = dace_sdfg_load_file(&raw, path.c_str());
  if (st != DACE_OK) {
    report_capi_error(path, st);
    return nullptr;
  }
  return SdfgPtr(raw);
}

dace_compile_options_t compile_options(const CompileFlags& flags, const std::string& dump_dir) {
  dace_compile_options_t options = DACE_COMPILE_OPTIONS_INIT;
  options.opt_level = flags.opt_level;
  options.fast_math = flags.fast_math ? 1 : 0;
  options.num_threads = flags.threads;
  options.cache_dir = flags.cache_dir.empty() ? nullptr : flags.cache_dir.c_str();
  options.dump_dir = dump_dir.empty() ? nullptr : dump_dir.c_str();
  options.optimize = flags.optimize.empty() ? nullptr : flags.optimize.c_str();
  options.tiered = flags.tiered ? 1 : 0;
  options.wait_optimized = flags.wait_optimized ? 1 : 0;
  options.emulate_device = flags.emulate_device ? 1 : 0;
  options.bounds_check = flags.bounds_check ? 1 : 0;
  options.max_concurrent_streams = flags.max_streams;
  return options;
}

ProgramPtr compile_program(dace_context_t* context, const dace_sdfg_t* sdfg, const std::string& path,
                           const CompileFlags& flags, const std::string& dump_dir) {
  const dace_compile_options_t options = compile_options(flags, dump_dir);
  dace_program_t* raw = nullptr;
  dace_status_t st = dace_program_compile(&raw, context, sdfg, &options);
  if (st != DACE_OK) {
    report_capi_error(path, st);
    return nullptr;
  }
  return ProgramPtr(raw);
}

}  // namespace dace::cli
