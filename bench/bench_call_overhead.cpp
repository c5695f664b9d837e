// Call overhead of a compiled program through the public C API only (include/libdace.h):
// an almost empty SDFG (Y[0] = X[0] + 1 on one-element arrays), called many times.
// Prints ns per call for calls by position and by name. Usage: bench_call_overhead [calls]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "libdace.h"

namespace {

bool ok(dace_status_t st, const char* what) {
  if (st == DACE_OK) return true;
  std::fprintf(stderr, "%s: %s: %s\n", what, dace_status_string(st), dace_last_error_message());
  return false;
}

dace_sdfg_t* build() {
  dace_sdfg_t* sdfg = nullptr;
  dace_id_t state = -1, t = -1, r = -1, w = -1, e = -1;
  if (!ok(dace_sdfg_create(&sdfg, "tiny"), "create")) return nullptr;
  bool good = ok(dace_sdfg_add_array(sdfg, "X", DACE_FLOAT64, "1", nullptr), "X") &&
              ok(dace_sdfg_add_array(sdfg, "Y", DACE_FLOAT64, "1", nullptr), "Y") &&
              ok(dace_sdfg_add_state(&state, sdfg, DACE_ROOT_REGION, "s"), "state") &&
              ok(dace_state_add_access(&r, sdfg, state, "X"), "read") &&
              ok(dace_state_add_access(&w, sdfg, state, "Y"), "write") &&
              ok(dace_state_add_tasklet(&t, sdfg, state, "inc", "x", "y", "y = x + 1", DACE_LANGUAGE_PYTHON),
                 "tasklet") &&
              ok(dace_state_add_edge(&e, sdfg, state, r, nullptr, t, "x", "X[0]", nullptr), "edge in") &&
              ok(dace_state_add_edge(&e, sdfg, state, t, "y", w, nullptr, "Y[0]", nullptr), "edge out");
  if (!good) {
    dace_sdfg_release(sdfg);
    return nullptr;
  }
  return sdfg;
}

}  // namespace

int main(int argc, char** argv) {
  const long calls = argc > 1 ? std::atol(argv[1]) : 1000000;
  dace_context_t* ctx = nullptr;
  dace_program_t* prog = nullptr;
  dace_sdfg_t* sdfg = build();
  if (!sdfg || !ok(dace_context_create(&ctx), "context") ||
      !ok(dace_program_compile(&prog, ctx, sdfg, nullptr), "compile")) {
    dace_sdfg_release(sdfg);
    dace_context_release(ctx);
    return 1;
  }
  double x = 1.0, y = 0.0;
  const int64_t shape[1] = {1};
  dace_arg_t args[2] = {};
  args[0].kind = DACE_ARG_ARRAY;
  args[0].value.array = {&x, DACE_FLOAT64, 1, shape, nullptr};
  args[1].kind = DACE_ARG_ARRAY;
  args[1].value.array = {&y, DACE_FLOAT64, 1, shape, nullptr};
  const char* names[2] = {"X", "Y"};
  int status = 0;
  for (int variant = 0; variant < 2 && status == 0; ++variant) {
    const char* const* n = variant == 0 ? nullptr : names;
    for (long i = 0; i < 1000; ++i) dace_program_call(prog, n, args, 2);  // warm-up
    const auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < calls; ++i) {
      if (dace_program_call(prog, n, args, 2) != DACE_OK) {
        ok(DACE_ERROR_RUNTIME, "call");
        status = 1;
        break;
      }
    }
    const auto t1 = std::chrono::steady_clock::now();
    const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(calls);
    std::printf("C call overhead (%s): %.1f ns per call over %ld calls\n",
                variant == 0 ? "by position" : "by name", ns, calls);
  }
  if (y != 2.0) {
    std::fprintf(stderr, "wrong result: %g\n", y);
    status = 1;
  }
  dace_program_release(prog);
  dace_sdfg_release(sdfg);
  dace_context_release(ctx);
  return status;
}
