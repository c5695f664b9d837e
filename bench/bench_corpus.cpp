// Per-kernel timings of one SDFG through the C API: cold compile (fresh context, no cache),
// cached load (fresh context whose cache dir a previous compile filled) and run time.
// Prints one JSON object per line; bench/run_corpus_bench.py drives it over the corpus.
//
// Usage: bench_corpus --sdfg FILE [--inputs DIR] [--sym NAME=VALUE]... [--reps K]
//          [--compile-reps C] [--budget-ms B] [--cache-dir DIR] [--restore A,B|none]
//          [--save A,B] [--out-dir DIR] [--threads T] [--no-run] [--no-tiers]
//   --inputs   folder of NAME.npy files, one per argument (0-d files give scalars and
//              symbols, as in the corpus's in/ folders)
//   --sym      symbol values (also used to size outputs such as __return)
//   --restore  arrays copied back from their .npy before every run (in-place kernels);
//              default: every array read from --inputs
//   --save     arrays written to --out-dir/NAME.npy after the first run (for checks)
//   --budget-ms  stop repeating a phase once it has used this much time (at least 1 rep)
//   --no-tiers one compile at the optimization level (tiered = 0), to compare the run time
//              of tiered compilation's optimized code with the single-tier compile's
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ir/npy.h"
#include "libdace.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

[[noreturn]] void fail(const std::string& stage, const std::string& message) {
  std::printf("{\"event\":\"error\",\"stage\":\"%s\",\"message\":\"%s\"}\n", stage.c_str(),
              json_escape(message).c_str());
  std::fflush(stdout);
  std::exit(1);
}

void check(dace_status_t st, const std::string& stage) {
  if (st != DACE_OK) fail(stage, std::string(dace_status_string(st)) + ": " + dace_last_error_message());
}

struct Options {
  std::string sdfg, inputs, cache_dir, out_dir;
  std::map<std::string, std::string> syms;
  std::set<std::string> save;
  std::set<std::string> restore;
  bool restore_given = false;
  int reps = 10, compile_reps = 5, threads = 0;
  double budget_ms = 2000;
  bool run = true;
  bool tiered = true;
};

std::set<std::string> split_names(const std::string& s) {
  std::set<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(',', start);
    if (end == std::string::npos) end = s.size();
    if (end > start) out.insert(s.substr(start, end - start));
    start = end + 1;
  }
  out.erase("none");
  return out;
}

Options parse_args(int argc, char** argv) {
  Options o;
  auto value = [&](int& i) -> std::string {
    if (i + 1 >= argc) fail("args", std::string("missing value after ") + argv[i]);
    return argv[++i];
  };
  auto number = [&](int& i) {
    std::string v = value(i);
    char* end = nullptr;
    double d = std::strtod(v.c_str(), &end);
    if (end == v.c_str() || *end) fail("args", "not a number: " + v);
    return d;
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--sdfg") o.sdfg = value(i);
    else if (a == "--inputs") o.inputs = value(i);
    else if (a == "--cache-dir") o.cache_dir = value(i);
    else if (a == "--out-dir") o.out_dir = value(i);
    else if (a == "--save") o.save = split_names(value(i));
    else if (a == "--restore") o.restore = split_names(value(i)), o.restore_given = true;
    else if (a == "--reps") o.reps = std::max(1, static_cast<int>(number(i)));
    else if (a == "--compile-reps") o.compile_reps = std::max(1, static_cast<int>(number(i)));
    else if (a == "--threads") o.threads = static_cast<int>(number(i));
    else if (a == "--budget-ms") o.budget_ms = number(i);
    else if (a == "--no-run") o.run = false;
    else if (a == "--no-tiers") o.tiered = false;
    else if (a == "--sym") {
      std::string kv = value(i);
      size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) fail("args", "--sym wants NAME=VALUE, got " + kv);
      o.syms[kv.substr(0, eq)] = kv.substr(eq + 1);
    } else {
      fail("args", "unknown option " + a);
    }
  }
  if (o.sdfg.empty()) fail("args", "--sdfg FILE is required");
  return o;
}

// Min and median of repeated measurements.
struct Samples {
  std::vector<double> v;
  double min() const { return v.empty() ? 0 : *std::min_element(v.begin(), v.end()); }
  double median() const {
    if (v.empty()) return 0;
    std::vector<double> s = v;
    std::sort(s.begin(), s.end());
    size_t n = s.size();
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  }
  std::string json(const char* prefix) const {
    char buf[160];
    std::snprintf(buf, sizeof buf, "\"%s_min_ms\":%.4f,\"%s_median_ms\":%.4f,\"%s_n\":%zu", prefix, min(), prefix,
                  median(), prefix, v.size());
    return buf;
  }
};

// Repeats `once` up to `reps` times, stopping early once `budget_ms` is spent.
template <class F>
Samples repeat(int reps, double budget_ms, F&& once) {
  Samples s;
  double spent = 0;
  for (int r = 0; r < reps && (r == 0 || spent < budget_ms); ++r) {
    double t = once();
    s.v.push_back(t);
    spent += t;
  }
  return s;
}

struct Compiled {
  dace_context_t* ctx = nullptr;
  dace_program_t* prog = nullptr;
  dace_compile_stats_t stats{};
  double ms = 0;
  void release() {
    dace_program_release(prog);
    dace_context_release(ctx);
    prog = nullptr;
    ctx = nullptr;
  }
};

// One compile in a brand-new context (nothing shared with earlier compiles but the process).
Compiled compile_fresh(const dace_sdfg_t* sdfg, const Options& o, const char* cache_dir) {
  Compiled c;
  check(dace_context_create(&c.ctx), "context");
  dace_compile_options_t opts = DACE_COMPILE_OPTIONS_INIT;
  opts.cache_dir = cache_dir;
  opts.num_threads = o.threads;
  opts.wait_optimized = 1;  // the run phase times the optimized code, not a tier swap
  opts.tiered = o.tiered ? 1 : 0;
  Clock::time_point t0 = Clock::now();
  dace_status_t st = dace_program_compile(&c.prog, c.ctx, sdfg, &opts);
  c.ms = ms_since(t0);
  check(st, "compile");
  c.stats.version = DACE_COMPILE_STATS_VERSION;
  check(dace_program_compile_stats(&c.stats, c.prog), "compile_stats");
  return c;
}

std::string stats_json(const dace_compile_stats_t& s) {
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "\"cache_hit\":%d,\"validate_ms\":%.4f,\"lower_ms\":%.4f,\"optimize_ms\":%.4f,\"jit_ms\":%.4f,"
                "\"total_ms\":%.4f,\"optimized_ms\":%.4f,\"ir_instructions\":%llu,\"object_bytes\":%llu",
                s.cache_hit, s.validate_ms, s.lower_ms, s.optimize_ms, s.jit_ms, s.total_ms, s.optimized_ms,
                static_cast<unsigned long long>(s.ir_instructions), static_cast<unsigned long long>(s.object_bytes));
  return buf;
}

dace_dtype_t dtype_of(dace::tasklet::ScalarType t) {
  using S = dace::tasklet::ScalarType;
  switch (t) {
    case S::Bool: return DACE_BOOL;
    case S::Int8: return DACE_INT8;
    case S::Int16: return DACE_INT16;
    case S::Int32: return DACE_INT32;
    case S::Int64: return DACE_INT64;
    case S::UInt8: return DACE_UINT8;
    case S::UInt16: return DACE_UINT16;
    case S::UInt32: return DACE_UINT32;
    case S::UInt64: return DACE_UINT64;
    case S::Float16: return DACE_FLOAT16;
    case S::Float32: return DACE_FLOAT32;
    case S::Float64: return DACE_FLOAT64;
    case S::Complex64: return DACE_COMPLEX64;
    case S::Complex128: return DACE_COMPLEX128;
    default: return DACE_DTYPE_UNKNOWN;
  }
}

dace::tasklet::ScalarType scalar_of(dace_dtype_t t) {
  using S = dace::tasklet::ScalarType;
  switch (t) {
    case DACE_BOOL: return S::Bool;
    case DACE_INT8: return S::Int8;
    case DACE_INT16: return S::Int16;
    case DACE_INT32: return S::Int32;
    case DACE_INT64: return S::Int64;
    case DACE_UINT8: return S::UInt8;
    case DACE_UINT16: return S::UInt16;
    case DACE_UINT32: return S::UInt32;
    case DACE_UINT64: return S::UInt64;
    case DACE_FLOAT16: return S::Float16;
    case DACE_FLOAT32: return S::Float32;
    case DACE_COMPLEX64: return S::Complex64;
    case DACE_COMPLEX128: return S::Complex128;
    default: return S::Float64;
  }
}

bool is_float(dace_dtype_t t) { return t == DACE_FLOAT16 || t == DACE_FLOAT32 || t == DACE_FLOAT64; }
bool is_complex(dace_dtype_t t) { return t == DACE_COMPLEX64 || t == DACE_COMPLEX128; }

// The argument list of one call: buffers live here, `args` point into them.
struct CallSet {
  struct ArrayArg {
    std::string name;
    std::vector<int64_t> shape;
    dace::npy::Array pristine;  // the input as read (empty for outputs)
    std::vector<uint8_t> work;  // what the program reads and writes
    dace_dtype_t dtype = DACE_FLOAT64;
    bool restore = false;
  };
  std::vector<std::unique_ptr<ArrayArg>> arrays;
  std::vector<std::string> names;
  std::vector<const char*> name_ptrs;
  std::vector<dace_arg_t> args;

  void restore_inputs() {
    for (auto& a : arrays)
      if (a->restore) std::memcpy(a->work.data(), a->pristine.data.data(), a->work.size());
  }
};

int64_t parse_int(const std::string& s, const std::string& what) {
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (end == s.c_str() || *end) fail("args", what + ": not an integer: " + s);
  return v;
}

CallSet prepare_call(dace_program_t* prog, const Options& o) {
  // Every .npy of the inputs folder, and integer 0-d ones as symbol values too.
  std::map<std::string, dace::npy::Array> files;
  if (!o.inputs.empty()) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(o.inputs, ec)) {
      if (e.path().extension() != ".npy") continue;
      dace::Result<dace::npy::Array> a = dace::npy::read(e.path().string());
      if (!a.ok()) fail("inputs", a.error().message);
      files[e.path().stem().string()] = std::move(*a);
    }
    if (ec) fail("inputs", o.inputs + ": " + ec.message());
  }
  std::map<std::string, int64_t> symbols;
  for (const auto& [name, a] : files) {
    dace_dtype_t t = dtype_of(a.dtype);
    if (a.size() == 1 && !is_float(t) && !is_complex(t)) symbols[name] = static_cast<int64_t>(a.at(0));
  }
  for (const auto& [name, v] : o.syms)
    if (v.find_first_of(".eE") == std::string::npos) symbols[name] = parse_int(v, name);
  std::vector<std::string> sym_names;
  std::vector<const char*> sym_ptrs;
  std::vector<int64_t> sym_values;
  for (const auto& [name, v] : symbols) sym_names.push_back(name), sym_values.push_back(v);
  for (const auto& n : sym_names) sym_ptrs.push_back(n.c_str());

  CallSet cs;
  int32_t count = 0;
  check(dace_program_argument_count(&count, prog), "arguments");
  for (int32_t i = 0; i < count; ++i) {
    const char* cname = nullptr;
    int32_t kind = 0;
    dace_dtype_t dtype = DACE_DTYPE_UNKNOWN;
    check(dace_program_argument_info(&cname, &kind, &dtype, prog, i), "arguments");
    std::string name = cname;
    auto file = files.find(name);
    dace_arg_t arg{};
    if (kind == DACE_ARGUMENT_ARRAY) {
      auto a = std::make_unique<CallSet::ArrayArg>();
      a->name = name;
      a->dtype = dtype;
      size_t ndim = 0;
      int64_t shape[16];
      dace_status_t st = dace_program_argument_shape(shape, 16, &ndim, prog, i, sym_ptrs.data(), sym_values.data(),
                                                     static_cast<int32_t>(sym_ptrs.size()));
      if (st == DACE_OK && ndim <= 16) a->shape.assign(shape, shape + ndim);
      int64_t elems = 1;
      for (int64_t d : a->shape) elems *= d;
      if (file != files.end()) {
        if (dtype_of(file->second.dtype) != dtype) fail("inputs", name + ".npy: dtype differs from the SDFG's");
        if (file->second.fortran_order) fail("inputs", name + ".npy: Fortran order is not supported here");
        // A 0-d file can feed a one-element array; otherwise trust the SDFG's shape when known.
        if (st != DACE_OK || elems != file->second.size()) {
          a->shape = file->second.shape;
          if (a->shape.empty()) a->shape = {1};
        }
        a->pristine = std::move(file->second);
        a->work = a->pristine.data;
        a->restore = o.restore_given ? o.restore.count(name) > 0 : true;
      } else {
        check(st, "shape of " + name);
        dace::npy::Array tmp;
        tmp.dtype = scalar_of(dtype);
        a->work.assign(static_cast<size_t>(std::max<int64_t>(elems, 1) * tmp.element_size()), 0);
      }
      arg.kind = DACE_ARG_ARRAY;
      arg.value.array.data = a->work.data();
      arg.value.array.dtype = dtype;
      arg.value.array.ndim = static_cast<int32_t>(a->shape.size());
      arg.value.array.shape = a->shape.data();
      arg.value.array.strides = nullptr;
      cs.arrays.push_back(std::move(a));
    } else {
      auto sym = o.syms.find(name);
      if (file != files.end()) {
        const dace::npy::Array& f = file->second;
        dace_dtype_t ft = dtype_of(f.dtype);
        if (kind == DACE_ARGUMENT_SYMBOL) {
          arg.kind = DACE_ARG_SYMBOL;
          arg.value.i = static_cast<int64_t>(f.at(0));
        } else if (is_complex(ft)) {
          arg.kind = DACE_ARG_COMPLEX;
          arg.value.c[0] = ft == DACE_COMPLEX128 ? f.as<double>()[0] : f.as<float>()[0];
          arg.value.c[1] = ft == DACE_COMPLEX128 ? f.as<double>()[1] : f.as<float>()[1];
        } else if (is_float(ft)) {
          arg.kind = DACE_ARG_FLOAT;
          arg.value.f = f.at(0);
        } else {
          arg.kind = DACE_ARG_INT;
          arg.value.i = ft == DACE_INT64 ? f.as<int64_t>()[0] : static_cast<int64_t>(f.at(0));
        }
      } else if (sym != o.syms.end()) {
        bool real = sym->second.find_first_of(".eE") != std::string::npos;
        if (kind == DACE_ARGUMENT_SYMBOL || !real) {
          arg.kind = kind == DACE_ARGUMENT_SYMBOL ? DACE_ARG_SYMBOL : DACE_ARG_INT;
          arg.value.i = parse_int(sym->second, name);
        } else {
          arg.kind = DACE_ARG_FLOAT;
          arg.value.f = std::strtod(sym->second.c_str(), nullptr);
        }
      } else if (kind == DACE_ARGUMENT_SYMBOL) {
        continue;  // left to inference from the arrays' shapes
      } else {
        fail("inputs", "no value for scalar argument " + name);
      }
    }
    cs.names.push_back(name);
    cs.args.push_back(arg);
  }
  for (const auto& n : cs.names) cs.name_ptrs.push_back(n.c_str());
  return cs;
}

void save_outputs(const CallSet& cs, const Options& o) {
  for (const auto& a : cs.arrays) {
    if (!o.save.count(a->name)) continue;
    dace::npy::Array out;
    out.dtype = scalar_of(a->dtype);
    out.shape = a->shape;
    out.data = a->work;
    dace::Status st = dace::npy::write((fs::path(o.out_dir) / (a->name + ".npy")).string(), out);
    if (!st.ok()) fail("save", st.error().message);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse_args(argc, argv);

  Clock::time_point t0 = Clock::now();
  dace_sdfg_t* sdfg = nullptr;
  check(dace_sdfg_load_file(&sdfg, o.sdfg.c_str()), "load");
  std::printf("{\"event\":\"load\",\"sdfg\":\"%s\",\"ms\":%.4f}\n", json_escape(o.sdfg).c_str(), ms_since(t0));
  std::fflush(stdout);

  // Cold: every compile gets a new context and no cache. The first one also pays for
  // process-wide set-up (plugin load, LLVM target initialization), so it is reported apart.
  Compiled keep;
  dace_compile_stats_t cold_stats{};
  double first_ms = 0;
  Samples cold = repeat(o.compile_reps + 1, o.budget_ms, [&] {
    Compiled c = compile_fresh(sdfg, o, nullptr);
    if (first_ms == 0) first_ms = c.ms;
    cold_stats = c.stats;
    keep.release();
    keep = c;  // the last cold program is the one that runs below
    return c.ms;
  });
  if (cold.v.size() > 1) cold.v.erase(cold.v.begin());  // the process-cold first compile
  std::printf("{\"event\":\"compile_cold\",\"first_ms\":%.4f,%s,%s}\n", first_ms, cold.json("cold").c_str(),
              stats_json(cold_stats).c_str());
  std::fflush(stdout);

  // Cached: fill the cache once, then fresh contexts find the object there.
  std::string cache = o.cache_dir;
  bool own_cache = cache.empty();
  if (own_cache) {
    char tmpl[] = "/tmp/bench_corpus_cache_XXXXXX";
    if (!mkdtemp(tmpl)) fail("cache", "mkdtemp failed");
    cache = tmpl;
  }
  Compiled fill = compile_fresh(sdfg, o, cache.c_str());
  double fill_ms = fill.ms;
  int fill_hit = fill.stats.cache_hit;
  fill.release();
  dace_compile_stats_t cached_stats{};
  int misses = 0;
  Samples cached = repeat(o.compile_reps, o.budget_ms, [&] {
    Compiled c = compile_fresh(sdfg, o, cache.c_str());
    cached_stats = c.stats;
    if (!c.stats.cache_hit) ++misses;
    c.release();
    return c.ms;
  });
  std::printf("{\"event\":\"compile_cached\",\"fill_ms\":%.4f,\"fill_hit\":%d,\"misses\":%d,%s,%s}\n", fill_ms,
              fill_hit, misses, cached.json("cached").c_str(), stats_json(cached_stats).c_str());
  std::fflush(stdout);
  if (own_cache) {
    std::error_code ec;
    fs::remove_all(cache, ec);
  }

  if (o.run) {
    CallSet cs = prepare_call(keep.prog, o);
    bool saved = false;
    Samples run = repeat(o.reps, o.budget_ms, [&] {
      cs.restore_inputs();
      Clock::time_point r0 = Clock::now();
      dace_status_t st = dace_program_call(keep.prog, cs.name_ptrs.data(), cs.args.data(),
                                           static_cast<int32_t>(cs.args.size()));
      double ms = ms_since(r0);
      check(st, "run");
      if (!saved && !o.out_dir.empty()) save_outputs(cs, o);
      saved = true;
      return ms;
    });
    std::printf("{\"event\":\"run\",%s}\n", run.json("run").c_str());
    std::fflush(stdout);
  }
  keep.release();
  dace_sdfg_release(sdfg);
  return 0;
}
