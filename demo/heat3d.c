/* heat3d_demo: a 3-D heat-diffusion stencil (NPBench heat_3d) built through the C API only,
 * validated, optionally saved, JIT-compiled by libdace, run, and checked against the same
 * computation written as a plain C loop nest.
 *
 *   heat3d_demo [--n N] [--steps T] [--threads P] [--runs R] [DIR]
 *
 * Defaults: N=64, TSTEPS=50, threads = the OpenMP runtime's default, best of R=3 runs.
 *
 * DIR: where to save heat3d.sdfg. Exit 0 = results match, 1 = mismatch, 2 = API or usage
 * error. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libdace.h"

/* Every C API call goes through TRY: on failure the message names the failing element, and
 * the demo stops with exit code 2 after releasing what it holds. */
#define TRY(call)                                                                                      \
  do {                                                                                                 \
    dace_status_t st_ = (call);                                                                        \
    if (st_ != DACE_OK) {                                                                              \
      fprintf(stderr, "heat3d_demo: %s failed: %s: %s\n", #call, dace_status_string(st_),               \
              dace_last_error_message());                                                              \
      goto fail;                                                                                       \
    }                                                                                                  \
  } while (0)

/* The tasklet's inputs: centre and the two neighbours along each axis. The update is written
 * in the same association order as reference_sweep below, so both evaluate identical
 * floating-point operations. */
static const char* stencil_code =
    "o = 0.125 * (xp - 2.0 * c + xm) + 0.125 * (yp - 2.0 * c + ym) + 0.125 * (zp - 2.0 * c + zm) + c";

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* One sweep dst(interior) = heat(src), as a parallel mapped tasklet in `state`. */
static dace_status_t add_sweep(dace_sdfg_t* sdfg, dace_id_t state, const char* src, const char* dst) {
  char inputs[512];
  char output[64];
  dace_mapped_tasklet_options_t opt = DACE_MAPPED_TASKLET_OPTIONS_INIT;
  opt.schedule = DACE_SCHEDULE_CPU_MULTICORE;
  opt.external_edges = 1;
  sprintf(inputs,
          "c: %s[i, j, k]; xp: %s[i + 1, j, k]; xm: %s[i - 1, j, k]; yp: %s[i, j + 1, k]; "
          "ym: %s[i, j - 1, k]; zp: %s[i, j, k + 1]; zm: %s[i, j, k - 1]",
          src, src, src, src, src, src, src);
  sprintf(output, "o: %s[i, j, k]", dst);
  return dace_state_add_mapped_tasklet(NULL, NULL, NULL, sdfg, state, dst[0] == 'B' ? "heat_a_to_b" : "heat_b_to_a",
                                       "i=1:N-1, j=1:N-1, k=1:N-1", inputs, stencil_code, output, &opt);
}

/* for t in range(TSTEPS): B = heat(A); A = heat(B)  — a LoopRegion holding two states. */
static dace_status_t build_heat3d(dace_sdfg_t** out_sdfg) {
  dace_sdfg_t* sdfg = NULL;
  dace_id_t init = -1, loop = -1, a_to_b = -1, b_to_a = -1, done = -1, edge = -1;
  dace_status_t st;
  if ((st = dace_sdfg_create(&sdfg, "heat3d")) != DACE_OK) return st;
  if ((st = dace_sdfg_add_symbol(sdfg, "N", DACE_INT64)) != DACE_OK ||
      (st = dace_sdfg_add_symbol(sdfg, "TSTEPS", DACE_INT64)) != DACE_OK ||
      (st = dace_sdfg_add_array(sdfg, "A", DACE_FLOAT64, "N, N, N", NULL)) != DACE_OK ||
      (st = dace_sdfg_add_array(sdfg, "B", DACE_FLOAT64, "N, N, N", NULL)) != DACE_OK ||
      (st = dace_sdfg_add_state(&init, sdfg, DACE_ROOT_REGION, "init")) != DACE_OK ||
      (st = dace_sdfg_add_loop(&loop, sdfg, DACE_ROOT_REGION, "time", "t", "t = 0", "t < TSTEPS", "t = t + 1", 0)) !=
          DACE_OK ||
      (st = dace_sdfg_add_state(&done, sdfg, DACE_ROOT_REGION, "done")) != DACE_OK ||
      (st = dace_sdfg_add_state(&a_to_b, sdfg, loop, "a_to_b")) != DACE_OK ||
      (st = dace_sdfg_add_state(&b_to_a, sdfg, loop, "b_to_a")) != DACE_OK ||
      (st = dace_sdfg_add_interstate_edge(&edge, NULL, sdfg, init, loop, NULL, NULL)) != DACE_OK ||
      (st = dace_sdfg_add_interstate_edge(&edge, NULL, sdfg, loop, done, NULL, NULL)) != DACE_OK ||
      (st = dace_sdfg_add_interstate_edge(&edge, NULL, sdfg, a_to_b, b_to_a, NULL, NULL)) != DACE_OK ||
      (st = add_sweep(sdfg, a_to_b, "A", "B")) != DACE_OK || (st = add_sweep(sdfg, b_to_a, "B", "A")) != DACE_OK ||
      (st = dace_sdfg_validate(sdfg)) != DACE_OK) {
    dace_sdfg_release(sdfg);
    return st;
  }
  *out_sdfg = sdfg;
  return DACE_OK;
}

#define IDX(i, j, k) (((size_t)(i) * n + (size_t)(j)) * n + (size_t)(k))

static void reference_sweep(const double* src, double* dst, size_t n) {
  size_t i, j, k;
  for (i = 1; i + 1 < n; ++i) {
    for (j = 1; j + 1 < n; ++j) {
      for (k = 1; k + 1 < n; ++k) {
        double c = src[IDX(i, j, k)];
        dst[IDX(i, j, k)] = 0.125 * (src[IDX(i + 1, j, k)] - 2.0 * c + src[IDX(i - 1, j, k)]) +
                            0.125 * (src[IDX(i, j + 1, k)] - 2.0 * c + src[IDX(i, j - 1, k)]) +
                            0.125 * (src[IDX(i, j, k + 1)] - 2.0 * c + src[IDX(i, j, k - 1)]) + c;
      }
    }
  }
}

static void reference_heat3d(double* a, double* b, size_t n, long steps) {
  long t;
  for (t = 0; t < steps; ++t) {
    reference_sweep(a, b, n);
    reference_sweep(b, a, n);
  }
}

/* NPBench's initialization: A = B = (i + j + (N - k)) * 10 / N. */
static void initialize(double* a, double* b, size_t n) {
  size_t i, j, k;
  for (i = 0; i < n; ++i)
    for (j = 0; j < n; ++j)
      for (k = 0; k < n; ++k) a[IDX(i, j, k)] = b[IDX(i, j, k)] = (double)(i + j + (n - k)) * 10.0 / (double)n;
}

/* Largest relative error max|x - y| / max(|y|, tiny) over both arrays; also the absolute one. */
static void compare(const double* x, const double* y, size_t count, double* max_abs, double* max_rel) {
  size_t i;
  for (i = 0; i < count; ++i) {
    double d = fabs(x[i] - y[i]);
    double scale = fabs(y[i]) > 1e-300 ? fabs(y[i]) : 1e-300;
    if (!(d <= *max_abs)) *max_abs = d; /* NaN propagates as a mismatch */
    if (!(d / scale <= *max_rel)) *max_rel = d / scale;
  }
}

static int parse_long(const char* text, long min, long* out) {
  char* end = NULL;
  long v = strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < min) return 0;
  *out = v;
  return 1;
}

static void usage(void) {
  fprintf(stderr, "usage: heat3d_demo [--n N (3..1024)] [--steps T] [--threads P] [--runs R] [DIR]\n");
}

int main(int argc, char** argv) {
  long n_arg = 64, steps = 50, threads = 0, runs = 3;
  const char* dir = NULL;
  dace_context_t* ctx = NULL;
  dace_sdfg_t* sdfg = NULL;
  dace_program_t* program = NULL;
  dace_compile_options_t copts = DACE_COMPILE_OPTIONS_INIT;
  dace_compile_stats_t stats;
  double *a = NULL, *b = NULL, *ra = NULL, *rb = NULL;
  double t0, compile_ms, dace_ms = 1e300, plain_ms = 1e300, max_abs = 0.0, max_rel = 0.0;
  const double tolerance = 1e-12;
  size_t n, count;
  int64_t shape[3];
  const char* names[3] = {"A", "B", "TSTEPS"};
  dace_arg_t args[3];
  char path[4096], threads_text[32];
  int i, r, rc = 2;

  for (i = 1; i < argc; ++i) {
    long* target = NULL;
    long min = 0;
    if (strcmp(argv[i], "--n") == 0) target = &n_arg, min = 3;
    else if (strcmp(argv[i], "--steps") == 0) target = &steps, min = 0;
    else if (strcmp(argv[i], "--threads") == 0) target = &threads, min = 0;
    else if (strcmp(argv[i], "--runs") == 0) target = &runs, min = 1;
    if (target) {
      if (i + 1 >= argc || !parse_long(argv[i + 1], min, target)) {
        usage();
        return 2;
      }
      ++i;
    } else if (argv[i][0] == '-' || dir) {
      usage();
      return 2;
    } else {
      dir = argv[i];
    }
  }
  if (n_arg > 1024) { /* 8 GiB per array; also keeps n^3 far from overflow */
    usage();
    return 2;
  }
  n = (size_t)n_arg;
  count = n * n * n;

  strcpy(threads_text, "runtime default");
  if (threads > 0) sprintf(threads_text, "%ld", threads);
  printf("heat3d_demo: libdace %s, N=%zu, TSTEPS=%ld (2 sweeps per step), threads: %s\n", dace_version(), n, steps,
         threads_text);

  TRY(build_heat3d(&sdfg));
  printf("built and validated SDFG \"heat3d\" through the C API\n");
  if (dir) {
    sprintf(path, "%.4000s/heat3d.sdfg", dir);
    TRY(dace_sdfg_save_file(sdfg, path, NULL));
    printf("saved %s\n", path);
  }

  TRY(dace_context_create(&ctx));
  copts.num_threads = (int32_t)threads;
  copts.wait_optimized = 1; /* the runs below are compared with plain C: time the optimized code */
  t0 = now_ms();
  TRY(dace_program_compile(&program, ctx, sdfg, &copts));
  compile_ms = now_ms() - t0;
  memset(&stats, 0, sizeof stats);
  stats.version = DACE_COMPILE_STATS_VERSION;
  TRY(dace_program_compile_stats(&stats, program));

  a = malloc(count * sizeof *a);
  b = malloc(count * sizeof *b);
  ra = malloc(count * sizeof *ra);
  rb = malloc(count * sizeof *rb);
  if (!a || !b || !ra || !rb) {
    fprintf(stderr, "heat3d_demo: out of memory for N=%zu\n", n);
    goto fail;
  }

  shape[0] = shape[1] = shape[2] = (int64_t)n;
  memset(args, 0, sizeof args);
  args[0].kind = DACE_ARG_ARRAY;
  args[0].value.array.dtype = DACE_FLOAT64;
  args[0].value.array.ndim = 3;
  args[0].value.array.shape = shape;
  args[1] = args[0];
  args[0].value.array.data = a;
  args[1].value.array.data = b;
  args[2].kind = DACE_ARG_SYMBOL; /* N is inferred from the shapes */
  args[2].value.i = steps;

  /* Best of `runs`, each from the same initial state; the last results are compared. */
  for (r = 0; r < runs; ++r) {
    double t;
    initialize(a, b, n);
    t = now_ms();
    TRY(dace_program_call(program, names, args, 3));
    t = now_ms() - t;
    if (t < dace_ms) dace_ms = t;
    initialize(ra, rb, n);
    t = now_ms();
    reference_heat3d(ra, rb, n, steps);
    t = now_ms() - t;
    if (t < plain_ms) plain_ms = t;
  }

  compare(a, ra, count, &max_abs, &max_rel);
  compare(b, rb, count, &max_abs, &max_rel);

  printf("compile        %9.2f ms  (validate %.2f, lower %.2f, optimize %.2f, jit %.2f; %llu IR instructions, "
         "%llu object bytes%s)\n",
         compile_ms, stats.validate_ms, stats.lower_ms, stats.optimize_ms, stats.jit_ms,
         (unsigned long long)stats.ir_instructions, (unsigned long long)stats.object_bytes,
         stats.cache_hit ? ", cache hit" : "");
  printf("libdace run    %9.2f ms  (best of %ld)\n", dace_ms, runs);
  printf("plain C run    %9.2f ms  (best of %ld, one thread)\n", plain_ms, runs);
  printf("speedup        %9.2fx  (plain C / libdace)\n", dace_ms > 0.0 ? plain_ms / dace_ms : 0.0);
  printf("max abs error  %9.3g\nmax rel error  %9.3g  (tolerance %g)\n", max_abs, max_rel, tolerance);
  rc = max_rel <= tolerance ? 0 : 1;
  printf("%s\n", rc == 0 ? "MATCH" : "MISMATCH");

fail:
  free(a);
  free(b);
  free(ra);
  free(rb);
  dace_program_release(program);
  dace_context_release(ctx);
  dace_sdfg_release(sdfg);
  return rc;
}
