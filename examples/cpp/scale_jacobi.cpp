// libdace from C++ (include/libdace.hpp): build two SDFGs, JIT-compile them and check the
// results against plain C++ loops.
//   1. B = A * 2 + 1 over a parallel map (DACE_SCHEDULE_CPU_MULTICORE);
//   2. a Jacobi 2-D stencil inside a time loop (two sweeps per step, A -> B -> A).
// Exit status 0 when both match, 1 otherwise. Errors arrive as libdace::error.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "libdace.hpp"

namespace {

bool run_scale(libdace::context& ctx) {
  const int64_t n = 1000;
  libdace::sdfg g("scale");
  g.add_symbol("N");
  g.add_array("A", DACE_FLOAT64, "N");
  g.add_array("B", DACE_FLOAT64, "N");
  libdace::mapped_tasklet_options parallel;
  parallel.schedule_type = DACE_SCHEDULE_CPU_MULTICORE;
  g.add_state("compute").add_mapped_tasklet("scale", "i=0:N", "a: A[i]", "b = a * 2 + 1", "b: B[i]", parallel);

  libdace::program scale(ctx, g);
  std::vector<double> a(static_cast<size_t>(n)), b(a.size(), 0.0);
  for (size_t i = 0; i < a.size(); ++i) a[i] = 0.5 * static_cast<double>(i) - 100.0;
  scale({{"A", libdace::array_ref(a)}, {"B", libdace::array_ref(b)}});  // N from the shapes

  long bad = 0;
  for (size_t i = 0; i < a.size(); ++i) bad += b[i] != a[i] * 2 + 1;
  std::printf("scale:  N=%lld, %ld mismatches\n", static_cast<long long>(n), bad);
  return bad == 0;
}

void sweep_reference(const std::vector<double>& src, std::vector<double>& dst, int64_t n) {
  for (int64_t i = 1; i < n - 1; ++i)
    for (int64_t j = 1; j < n - 1; ++j) {
      auto at = [&](int64_t r, int64_t c) { return src[static_cast<size_t>(r * n + c)]; };
      dst[static_cast<size_t>(i * n + j)] = 0.2 * (at(i, j) + at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1));
    }
}

bool run_jacobi(libdace::context& ctx) {
  const int64_t n = 64, steps = 10;
  libdace::sdfg g("jacobi_2d");
  g.add_symbol("N");
  g.add_symbol("T");
  g.add_array("A", DACE_FLOAT64, "N, N");
  g.add_array("B", DACE_FLOAT64, "N, N");
  // for (t = 0; t < T; t = t + 1) { a_to_b -> b_to_a }
  const libdace::region time = g.add_loop("time", "t", "t = 0", "t < T", "t = t + 1");
  libdace::mapped_tasklet_options parallel;
  parallel.schedule_type = DACE_SCHEDULE_CPU_MULTICORE;
  const char* stencil = "o = 0.2 * (c + n + s + w + e)";
  const libdace::state a_to_b = time.add_state("a_to_b");
  a_to_b.add_mapped_tasklet("a_to_b", "i=1:N-1, j=1:N-1",
                            "c: A[i, j]; n: A[i - 1, j]; s: A[i + 1, j]; w: A[i, j - 1]; e: A[i, j + 1]", stencil,
                            "o: B[i, j]", parallel);
  const libdace::state b_to_a = time.add_state("b_to_a");
  b_to_a.add_mapped_tasklet("b_to_a", "i=1:N-1, j=1:N-1",
                            "c: B[i, j]; n: B[i - 1, j]; s: B[i + 1, j]; w: B[i, j - 1]; e: B[i, j + 1]", stencil,
                            "o: A[i, j]", parallel);
  g.add_interstate_edge(a_to_b, b_to_a);
  g.validate();

  libdace::program jacobi(ctx, g);
  std::vector<double> a(static_cast<size_t>(n * n)), b(a.size(), 0.0);
  for (size_t i = 0; i < a.size(); ++i) a[i] = std::sin(0.01 * static_cast<double>(i));
  std::vector<double> ra = a, rb = b;
  jacobi({{"A", libdace::array_ref(a.data(), {n, n})}, {"B", libdace::array_ref(b.data(), {n, n})}, {"T", steps}});

  for (int64_t t = 0; t < steps; ++t) {
    sweep_reference(ra, rb, n);
    sweep_reference(rb, ra, n);
  }
  double max_err = 0.0;
  for (size_t i = 0; i < a.size(); ++i) max_err = std::max({max_err, std::fabs(a[i] - ra[i]), std::fabs(b[i] - rb[i])});
  std::printf("jacobi: N=%lld T=%lld, max |error| = %.3g\n", static_cast<long long>(n),
              static_cast<long long>(steps), max_err);
  return max_err <= 1e-12;
}

}  // namespace

int main() {
  std::printf("libdace %s\n", libdace::version().c_str());
  bool ok = false;
  try {
    libdace::context ctx;
    ok = run_scale(ctx);
    ok = run_jacobi(ctx) && ok;
  } catch (const libdace::error& e) {
    std::fprintf(stderr, "libdace error (%s): %s\n", e.status_string().c_str(), e.what());
  }
  std::printf("%s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
