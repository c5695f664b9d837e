// STREAM-style memory bandwidth: copy, scale and triad as plain C++ + OpenMP loops and as
// SDFGs built through the C API (one parallel map each) and compiled by libdace. Prints the
// best-of-R bandwidth of both and the ratio libdace / plain; checks libdace's results.
//
//   bench_stream [--n ELEMENTS] [--reps R]      (default 2^25 doubles per array, R = 10)
//
// Exit 0 = results correct, 1 = a libdace result is wrong, 2 = API or usage error.
// Bytes per element follow STREAM: copy/scale move 16, triad 24 (write-allocate not counted).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "libdace.h"

namespace {

constexpr double kScalar = 3.0;

struct Kernel {
  const char* name;
  const char* inputs;  // mapped-tasklet inputs
  const char* code;
  int arrays_read;     // for the byte count: each kernel writes one array
};

const Kernel kKernels[] = {
    {"copy", "x: b[i]", "o = x", 1},
    {"scale", "x: b[i]; q: s", "o = q * x", 1},
    {"triad", "x: b[i]; y: c[i]; q: s", "o = x + q * y", 2},
};

// The plain loops the SDFGs are measured against (and checked with).
double plain_value(int kernel, double b, double c) {
  switch (kernel) {
    case 0: return b;
    case 1: return kScalar * b;
    default: return b + kScalar * c;
  }
}

void plain_run(int kernel, double* a, const double* b, const double* c, int64_t n) {
  switch (kernel) {
    case 0:
#pragma omp parallel for schedule(static)
      for (int64_t i = 0; i < n; ++i) a[i] = b[i];
      break;
    case 1:
#pragma omp parallel for schedule(static)
      for (int64_t i = 0; i < n; ++i) a[i] = kScalar * b[i];
      break;
    default:
#pragma omp parallel for schedule(static)
      for (int64_t i = 0; i < n; ++i) a[i] = b[i] + kScalar * c[i];
      break;
  }
}

bool check(dace_status_t st, const char* what) {
  if (st == DACE_OK) return true;
  std::fprintf(stderr, "bench_stream: %s: %s: %s\n", what, dace_status_string(st), dace_last_error_message());
  return false;
}

// a[i] = f(b[i], c[i], s) over i in 0:N as one CPU_MULTICORE map, compiled.
dace_program_t* compile_kernel(dace_context_t* ctx, const Kernel& k) {
  dace_sdfg_t* sdfg = nullptr;
  dace_program_t* program = nullptr;
  dace_id_t state = -1;
  dace_mapped_tasklet_options_t mt = DACE_MAPPED_TASKLET_OPTIONS_INIT;
  mt.schedule = DACE_SCHEDULE_CPU_MULTICORE;
  mt.external_edges = 1;
  bool ok = check(dace_sdfg_create(&sdfg, k.name), "create") &&
            check(dace_sdfg_add_symbol(sdfg, "N", DACE_INT64), "symbol N") &&
            check(dace_sdfg_add_array(sdfg, "a", DACE_FLOAT64, "N", nullptr), "array a") &&
            check(dace_sdfg_add_array(sdfg, "b", DACE_FLOAT64, "N", nullptr), "array b") &&
            (k.arrays_read < 2 || check(dace_sdfg_add_array(sdfg, "c", DACE_FLOAT64, "N", nullptr), "array c")) &&
            (std::strstr(k.inputs, "q: s") == nullptr || check(dace_sdfg_add_scalar(sdfg, "s", DACE_FLOAT64, nullptr), "scalar s")) &&
            check(dace_sdfg_add_state(&state, sdfg, DACE_ROOT_REGION, k.name), "state") &&
            check(dace_state_add_mapped_tasklet(nullptr, nullptr, nullptr, sdfg, state, k.name, "i=0:N", k.inputs, k.code,
                                                "o: a[i]", &mt),
                  "mapped tasklet") &&
            check(dace_sdfg_validate(sdfg), "validate") && check(dace_program_compile(&program, ctx, sdfg, nullptr), "compile");
  dace_sdfg_release(sdfg);
  return ok ? program : nullptr;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Last-level cache size in bytes from sysfs (0 if unknown): STREAM wants arrays well above it.
int64_t llc_bytes() {
  int64_t best = 0;
  for (int idx = 0; idx < 8; ++idx) {
    std::ifstream f("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(idx) + "/size");
    std::string s;
    if (!(f >> s) || s.empty()) continue;
    int64_t v = std::atoll(s.c_str());
    char unit = s.back();
    if (unit == 'K') v <<= 10;
    if (unit == 'M') v <<= 20;
    best = std::max(best, v);
  }
  return best;
}

bool parse_count(const char* text, long long min, long long* out) {
  char* end = nullptr;
  long long v = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || v < min) return false;
  *out = v;
  return true;
}

struct FreeDeleter {
  void operator()(double* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<double[], FreeDeleter>;

Buffer allocate(int64_t n) {
  void* p = nullptr;
  if (posix_memalign(&p, 64, static_cast<size_t>(n) * sizeof(double)) != 0) return Buffer();
  return Buffer(static_cast<double*>(p));
}

}  // namespace

int main(int argc, char** argv) {
  long long n = 1LL << 25, reps = 10;
  for (int i = 1; i < argc; ++i) {
    long long* target = std::strcmp(argv[i], "--n") == 0 ? &n : std::strcmp(argv[i], "--reps") == 0 ? &reps : nullptr;
    if (!target || i + 1 >= argc || !parse_count(argv[i + 1], 1, target)) {
      std::fprintf(stderr, "usage: bench_stream [--n ELEMENTS] [--reps R]\n");
      return 2;
    }
    ++i;
  }

  Buffer a = allocate(n), b = allocate(n), c = allocate(n);
  if (!a || !b || !c) {
    std::fprintf(stderr, "bench_stream: cannot allocate 3 x %lld doubles\n", n);
    return 2;
  }
  // First touch in parallel, as STREAM does, so pages land near the threads that use them.
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    a[i] = 0.0;
    b[i] = 1.0 + static_cast<double>(i % 1000) * 0.5;
    c[i] = 2.0 - static_cast<double>(i % 777) * 0.25;
  }

  int64_t llc = llc_bytes();
  double array_mib = static_cast<double>(n) * 8.0 / (1 << 20);
  std::printf("bench_stream: %lld doubles per array (%.0f MiB), %d OpenMP threads, best of %lld, LLC %.0f MiB%s\n", n,
              array_mib, omp_get_max_threads(), reps, static_cast<double>(llc) / (1 << 20),
              llc > 0 && n * 8 < 4 * llc ? " (arrays < 4x LLC: numbers may include cache hits)" : "");

  dace_context_t* ctx = nullptr;
  if (!check(dace_context_create(&ctx), "context")) return 2;
  dace_program_t* programs[3] = {};
  int rc = 0;
  for (int k = 0; k < 3 && rc == 0; ++k) {
    auto t0 = std::chrono::steady_clock::now();
    programs[k] = compile_kernel(ctx, kKernels[k]);
    if (!programs[k]) rc = 2;
    else std::printf("compiled %-5s in %6.1f ms\n", kKernels[k].name, seconds_since(t0) * 1e3);
  }

  int64_t shape[1] = {n};
  auto array_arg = [&](double* p) {
    dace_arg_t arg{};
    arg.kind = DACE_ARG_ARRAY;
    arg.value.array = dace_array_desc_t{p, DACE_FLOAT64, 1, shape, nullptr};
    return arg;
  };

  std::printf("%-6s %12s %12s %8s\n", "kernel", "plain GB/s", "libdace GB/s", "ratio");
  double triad_ratio = 0.0;
  for (int k = 0; k < 3 && rc == 0; ++k) {
    const Kernel& kernel = kKernels[k];
    std::vector<const char*> names = {"a", "b"};
    std::vector<dace_arg_t> args = {array_arg(a.get()), array_arg(b.get())};
    if (kernel.arrays_read > 1) names.push_back("c"), args.push_back(array_arg(c.get()));
    if (std::strstr(kernel.inputs, "q: s")) {
      dace_arg_t s{};
      s.kind = DACE_ARG_FLOAT;
      s.value.f = kScalar;
      names.push_back("s");
      args.push_back(s);
    }
    double best_plain = 1e30, best_dace = 1e30;
    // Interleaved, so a noisy neighbour on a shared machine hurts both sides alike.
    for (long long r = 0; r < reps && rc == 0; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      plain_run(k, a.get(), b.get(), c.get(), n);
      best_plain = std::min(best_plain, seconds_since(t0));
      t0 = std::chrono::steady_clock::now();
      if (!check(dace_program_call(programs[k], names.data(), args.data(), static_cast<int32_t>(args.size())), "call"))
        rc = 2;
      best_dace = std::min(best_dace, seconds_since(t0));
    }
    if (rc != 0) break;

    // The last run was libdace's: every element must equal the plain loop's value.
    int64_t wrong = 0;
    for (int64_t i = 0; i < n; ++i)
      if (a[i] != plain_value(k, b[i], c[i]) && ++wrong <= 3)
        std::fprintf(stderr, "bench_stream: %s: a[%lld] = %.17g, expected %.17g\n", kernel.name,
                     static_cast<long long>(i), a[i], plain_value(k, b[i], c[i]));
    if (wrong) {
      std::fprintf(stderr, "bench_stream: %s: %lld wrong elements\n", kernel.name, static_cast<long long>(wrong));
      rc = 1;
    }
    // Reset a so the next kernel's check cannot pass on stale values.
    std::fill(a.get(), a.get() + n, std::nan(""));

    double bytes = static_cast<double>(n) * 8.0 * (kernel.arrays_read + 1);
    double plain_gbs = bytes / best_plain / 1e9, dace_gbs = bytes / best_dace / 1e9;
    std::printf("%-6s %12.2f %12.2f %8.2f\n", kernel.name, plain_gbs, dace_gbs, dace_gbs / plain_gbs);
    if (k == 2) triad_ratio = dace_gbs / plain_gbs;
  }
  if (rc == 0) std::printf("triad ratio libdace/STREAM: %.2f (target >= 0.70)\n", triad_ratio);

  for (dace_program_t* p : programs) dace_program_release(p);
  dace_context_release(ctx);
  return rc;
}
