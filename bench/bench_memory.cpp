// Memory footprint of libdace in a host process, through the C API:
//  (a) peak RSS of a process that loads, compiles (no object cache) and runs every
//      *.simp.sdfg and *.raw.sdfg of the corpus on its case.json inputs;
//  (b) VmRSS after 0, 10, 100, 500, 1000 compile + call + release cycles of one program: it
//      must stay flat (a leak per compile would show as steady growth).
//
//   bench_memory [--cycles N] [--max-growth-mb M] [--program FILE] [CORPUS_DIR]
//
// --program defaults to <corpus>/gemm/gemm.simp.sdfg; FILE's folder must hold its case.json.
// Exit 0 = fine; 1 = RSS grew by more than M MiB (default 20) between cycle 100 (or cycle 0
// when N <= 100) and cycle N, or a corpus SDFG failed to compile or run; 2 = usage error,
// missing corpus or program.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ir/npy.h"
#include "libdace.h"

#ifndef LIBDACE_CORPUS_DIR
#define LIBDACE_CORPUS_DIR "../shared/sdfg-corpus"
#endif

namespace {

namespace fs = std::filesystem;
using dace::tasklet::ScalarType;

// A field of /proc/self/status ("VmRSS", "VmHWM") in MiB; -1 when unavailable.
double proc_status_mib(const char* field) {
  std::ifstream f("/proc/self/status");
  std::string line;
  size_t len = std::strlen(field);
  while (std::getline(f, line))
    if (line.compare(0, len, field) == 0 && line.size() > len && line[len] == ':')
      return std::atof(line.c_str() + len + 1) / 1024.0;  // the kernel reports kB
  return -1.0;
}

double maxrss_mib() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;  // kB on Linux
}

// One corpus case: its inputs and the symbol values shapes are evaluated with.
struct Case {
  std::map<std::string, dace::npy::Array> inputs;
  std::map<std::string, int64_t> symbols;
};

bool load_case(const fs::path& dir, Case& out, std::string& why) {
  std::ifstream in(dir / "case.json");
  nlohmann::json cs = nlohmann::json::parse(in, nullptr, false);
  if (cs.is_discarded() || !cs.is_object()) {
    why = "unreadable case.json";
    return false;
  }
  const nlohmann::json inputs = cs.value("inputs", nlohmann::json::object());
  const nlohmann::json symbols = cs.value("symbols", nlohmann::json::object());
  for (auto& [name, file] : inputs.items()) {
    auto a = dace::npy::read((dir / file.get<std::string>()).string());
    if (!a.ok()) {
      why = a.error().message;
      return false;
    }
    out.inputs[name] = std::move(*a);
  }
  for (auto& [name, v] : symbols.items()) out.symbols[name] = v.get<int64_t>();
  // 0-d integer inputs double as symbol values (a scalar loop bound used in a shape).
  for (auto& [name, a] : out.inputs)
    if (a.shape.empty() && (dace::tasklet::is_integer(a.dtype) || dace::tasklet::is_bool(a.dtype)))
      out.symbols.emplace(name, static_cast<int64_t>(a.at(0)));
  return true;
}

// Arguments of one call, built from the program's argument list and the case.
struct CallArgs {
  std::vector<std::string> names;
  std::vector<dace_arg_t> args;
  std::vector<std::vector<int64_t>> shapes;   // owned storage the descriptors point to
  std::vector<std::vector<uint64_t>> buffers;         // 8-byte aligned array storage
};

bool build_args(const dace_program_t* program, const Case& cs, CallArgs& out,
                std::string& why) {
  int32_t count = 0;
  if (dace_program_argument_count(&count, program) != DACE_OK) {
    why = dace_last_error_message();
    return false;
  }
  out.shapes.reserve(static_cast<size_t>(count));
  out.buffers.reserve(static_cast<size_t>(count));
  for (int32_t i = 0; i < count; ++i) {
    const char* cname = nullptr;
    int32_t kind = 0;
    dace_dtype_t dtype = DACE_DTYPE_UNKNOWN;
    if (dace_program_argument_info(&cname, &kind, &dtype, program, i) != DACE_OK) {
      why = dace_last_error_message();
      return false;
    }
    std::string name = cname;
    auto input = cs.inputs.find(name);
    dace_arg_t arg{};
    if (kind == DACE_ARGUMENT_ARRAY) {
      // The program evaluates the descriptor's shape for the case's symbols; arrays are
      // passed in C order (strides NULL), as every corpus argument is.
      std::vector<const char*> sym_names;
      std::vector<int64_t> sym_values;
      for (const auto& [sname, value] : cs.symbols) {
        sym_names.push_back(sname.c_str());
        sym_values.push_back(value);
      }
      std::vector<int64_t> shape(8);
      size_t ndim = 0;
      if (dace_program_argument_shape(shape.data(), shape.size(), &ndim, program, i, sym_names.data(),
                                      sym_values.data(), static_cast<int32_t>(sym_names.size())) != DACE_OK ||
          ndim > shape.size()) {
        why = name + ": " + (ndim > shape.size() ? std::string("rank above 8") : std::string(dace_last_error_message()));
        return false;
      }
      shape.resize(ndim);
      int64_t elements = 1;
      for (int64_t extent : shape) elements *= std::max<int64_t>(extent, 1);
      size_t bytes = static_cast<size_t>(elements) * 16;  // complex128 bound
      out.buffers.emplace_back((bytes + 7) / 8 + 8, 0);
      if (input != cs.inputs.end())
        std::memcpy(out.buffers.back().data(), input->second.data.data(),
                    std::min(input->second.data.size(), out.buffers.back().size() * 8));
      out.shapes.push_back(std::move(shape));
      arg.kind = DACE_ARG_ARRAY;
      arg.value.array = dace_array_desc_t{out.buffers.back().data(), dtype, static_cast<int32_t>(out.shapes.back().size()),
                                          out.shapes.back().data(), nullptr};
    } else if (kind == DACE_ARGUMENT_SCALAR) {
      if (input == cs.inputs.end()) {
        why = "no input for scalar " + name;
        return false;
      }
      const dace::npy::Array& a = input->second;
      if (dace::tasklet::is_complex(a.dtype)) {
        arg.kind = DACE_ARG_COMPLEX;
        arg.value.c[0] = a.dtype == ScalarType::Complex128 ? a.as<double>()[0] : a.as<float>()[0];
        arg.value.c[1] = a.dtype == ScalarType::Complex128 ? a.as<double>()[1] : a.as<float>()[1];
      } else if (dace::tasklet::is_float(a.dtype)) {
        arg.kind = DACE_ARG_FLOAT;
        arg.value.f = a.at(0);
      } else {
        arg.kind = DACE_ARG_INT;
        arg.value.i = a.element_size() == 8 ? a.as<int64_t>()[0] : static_cast<int64_t>(a.at(0));
      }
    } else {
      auto s = cs.symbols.find(name);
      if (s == cs.symbols.end()) continue;  // left to inference from the array shapes
      arg.kind = DACE_ARG_SYMBOL;
      arg.value.i = s->second;
    }
    out.names.push_back(name);
    out.args.push_back(arg);
  }
  return true;
}

// Compiles `sdfg` and runs it once on the case; the program is released before returning.
bool compile_and_run(dace_context_t* ctx, const dace_sdfg_t* sdfg, const Case& cs, std::string& why) {
  dace_program_t* program = nullptr;
  if (dace_program_compile(&program, ctx, sdfg, nullptr) != DACE_OK) {
    why = std::string("compile: ") + dace_last_error_message();
    return false;
  }
  CallArgs call;
  bool ok = build_args(program, cs, call, why);
  if (ok) {
    std::vector<const char*> names;
    for (const std::string& n : call.names) names.push_back(n.c_str());
    if (dace_program_call(program, names.data(), call.args.data(), static_cast<int32_t>(call.args.size())) != DACE_OK) {
      why = std::string("call: ") + dace_last_error_message();
      ok = false;
    }
  }
  dace_program_release(program);
  return ok;
}

int corpus_peak(const fs::path& root) {
  std::vector<fs::path> dirs;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root, ec))
    if (e.is_directory() && fs::exists(e.path() / "case.json")) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());

  double rss0 = proc_status_mib("VmRSS");
  dace_context_t* ctx = nullptr;
  if (dace_context_create(&ctx) != DACE_OK) return 2;
  int compiled = 0, failed = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (const fs::path& dir : dirs) {
    Case cs;
    std::string why;
    bool have_case = load_case(dir, cs, why);
    for (const char* kind : {"simp", "raw"}) {
      fs::path file = dir / (dir.filename().string() + "." + kind + ".sdfg");
      if (!fs::exists(file)) continue;
      dace_sdfg_t* sdfg = nullptr;
      bool ok = have_case;
      if (ok && dace_sdfg_load_file(&sdfg, file.string().c_str()) != DACE_OK) {
        why = std::string("load: ") + dace_last_error_message();
        ok = false;
      }
      if (ok) ok = compile_and_run(ctx, sdfg, cs, why);
      dace_sdfg_release(sdfg);
      if (ok) {
        ++compiled;
      } else {
        ++failed;
        std::printf("  FAILED %s: %s\n", file.filename().string().c_str(), why.c_str());
      }
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  dace_context_release(ctx);
  std::printf("(a) corpus: %d SDFGs compiled and run, %d failed, %.1f s\n", compiled, failed, seconds);
  std::printf("    VmRSS at start %.1f MiB (libdace + LLVM loaded), peak: ru_maxrss %.1f MiB, VmHWM %.1f MiB\n", rss0,
              maxrss_mib(), proc_status_mib("VmHWM"));
  return failed == 0 ? 0 : 1;
}

int cycles_flat(const fs::path& program_file, const fs::path& case_dir, long cycles, double max_growth_mib) {
  Case cs;
  std::string why;
  dace_sdfg_t* sdfg = nullptr;
  dace_context_t* ctx = nullptr;
  if (!load_case(case_dir, cs, why) || dace_sdfg_load_file(&sdfg, program_file.string().c_str()) != DACE_OK ||
      dace_context_create(&ctx) != DACE_OK) {
    std::fprintf(stderr, "bench_memory: %s: %s\n", program_file.string().c_str(),
                 why.empty() ? dace_last_error_message() : why.c_str());
    dace_sdfg_release(sdfg);
    return 2;
  }
  std::vector<long> checkpoints;
  for (long c : {0L, 10L, 100L, 500L, 1000L})
    if (c < cycles) checkpoints.push_back(c);
  checkpoints.push_back(cycles);
  std::map<long, double> rss;
  std::printf("(b) %ld compile + call + release cycles of %s\n", cycles, program_file.filename().string().c_str());
  auto t0 = std::chrono::steady_clock::now();
  int rc = 0;
  for (long c = 0; c <= cycles; ++c) {
    if (std::find(checkpoints.begin(), checkpoints.end(), c) != checkpoints.end()) {
      rss[c] = proc_status_mib("VmRSS");
      std::printf("    after %5ld cycles: VmRSS %7.1f MiB\n", c, rss[c]);
      std::fflush(stdout);
    }
    if (c == cycles) break;
    if (!compile_and_run(ctx, sdfg, cs, why)) {
      std::fprintf(stderr, "bench_memory: cycle %ld: %s\n", c, why.c_str());
      rc = 2;
      break;
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  dace_context_release(ctx);
  dace_sdfg_release(sdfg);
  if (rc != 0) return rc;
  // From cycle 100 on, caches and allocator pools have warmed up; before that RSS may rise.
  long from = cycles > 100 ? 100 : checkpoints.front();
  double growth = rss[cycles] - rss[from];
  std::printf("    %.1f ms per cycle; growth from cycle %ld to %ld: %.2f MiB (limit %.0f MiB)\n",
              seconds * 1e3 / static_cast<double>(std::max(1L, cycles)), from, cycles, growth, max_growth_mib);
  return growth > max_growth_mib ? 1 : 0;
}

bool parse_number(const char* text, double min, double* out) {
  char* end = nullptr;
  double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(v >= min)) return false;
  *out = v;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  double cycles = 1000, max_growth = 20;
  std::string program, corpus = LIBDACE_CORPUS_DIR;
  bool corpus_given = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    bool has_value = i + 1 < argc;
    if (a == "--cycles" && has_value && parse_number(argv[i + 1], 0, &cycles)) ++i;
    else if (a == "--max-growth-mb" && has_value && parse_number(argv[i + 1], 0, &max_growth)) ++i;
    else if (a == "--program" && has_value) program = argv[++i];
    else if (!a.empty() && a[0] != '-' && !corpus_given) corpus = a, corpus_given = true;
    else {
      std::fprintf(stderr, "usage: bench_memory [--cycles N] [--max-growth-mb M] [--program FILE] [CORPUS_DIR]\n");
      return 2;
    }
  }
  if (!fs::is_directory(corpus)) {
    std::fprintf(stderr, "bench_memory: corpus %s not found\n", corpus.c_str());
    return 2;
  }
  std::printf("bench_memory: libdace %s, corpus %s\n", dace_version(), corpus.c_str());
  int rc = corpus_peak(corpus);
  if (rc == 2) return rc;
  fs::path file = program.empty() ? fs::path(corpus) / "gemm" / "gemm.simp.sdfg" : fs::path(program);
  int rc_cycles = cycles_flat(file, file.parent_path(), static_cast<long>(cycles), max_growth);
  return rc_cycles != 0 ? rc_cycles : rc;
}
