/* libdace from C99: build two SDFGs through the C API, JIT-compile them and check the
 * results against plain C loops.
 *   1. B = A * 2 + 1 over a parallel map (DACE_SCHEDULE_CPU_MULTICORE);
 *   2. a Jacobi 2-D stencil inside a time loop (two sweeps per step, A -> B -> A).
 * Exit status 0 when both match, 1 otherwise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "libdace.h"

/* Any failing call: print the library's message (it names the element) and give up. */
#define TRY(call)                                                                             \
  do {                                                                                        \
    dace_status_t st_ = (call);                                                               \
    if (st_ != DACE_OK) {                                                                     \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, dace_status_string(st_),         \
              dace_last_error_message());                                                     \
      goto fail;                                                                              \
    }                                                                                         \
  } while (0)

static dace_arg_t array_arg(double* data, int32_t ndim, const int64_t* shape) {
  dace_arg_t a;
  a.kind = DACE_ARG_ARRAY;
  a.value.array.data = data;
  a.value.array.dtype = DACE_FLOAT64;
  a.value.array.ndim = ndim;
  a.value.array.shape = shape;
  a.value.array.strides = NULL; /* C order */
  return a;
}

static dace_arg_t symbol_arg(int64_t value) {
  dace_arg_t a;
  a.kind = DACE_ARG_SYMBOL;
  a.value.i = value;
  return a;
}

/* B[i] = A[i] * 2 + 1, i in [0, N). */
static int run_scale(dace_context_t* ctx) {
  enum { N = 1000 };
  dace_sdfg_t* sdfg = NULL;
  dace_program_t* program = NULL;
  dace_mapped_tasklet_options_t options = DACE_MAPPED_TASKLET_OPTIONS_INIT;
  dace_id_t state = DACE_NO_ID;
  double a[N], b[N];
  int64_t shape[1] = {N};
  const char* names[2] = {"A", "B"};
  dace_arg_t args[2];
  int i, bad = 0;

  for (i = 0; i < N; ++i) {
    a[i] = 0.5 * i - 100.0;
    b[i] = 0.0;
  }
  TRY(dace_sdfg_create(&sdfg, "scale"));
  TRY(dace_sdfg_add_symbol(sdfg, "N", DACE_INT64));
  TRY(dace_sdfg_add_array(sdfg, "A", DACE_FLOAT64, "N", NULL));
  TRY(dace_sdfg_add_array(sdfg, "B", DACE_FLOAT64, "N", NULL));
  TRY(dace_sdfg_add_state(&state, sdfg, DACE_ROOT_REGION, "compute"));
  options.schedule = DACE_SCHEDULE_CPU_MULTICORE;
  options.external_edges = 1;
  TRY(dace_state_add_mapped_tasklet(NULL, NULL, NULL, sdfg, state, "scale", "i=0:N", "a: A[i]", "b = a * 2 + 1",
                                    "b: B[i]", &options));
  TRY(dace_program_compile(&program, ctx, sdfg, NULL));
  args[0] = array_arg(a, 1, shape);
  args[1] = array_arg(b, 1, shape);
  TRY(dace_program_call(program, names, args, 2)); /* N is inferred from the shapes */

  for (i = 0; i < N; ++i)
    if (b[i] != a[i] * 2 + 1) ++bad;
  printf("scale:  N=%d, %d mismatches\n", N, bad);
  dace_program_release(program);
  dace_sdfg_release(sdfg);
  return bad == 0;
fail:
  dace_program_release(program);
  dace_sdfg_release(sdfg);
  return 0;
}

/* One sweep dst = 0.2 * (5-point neighbourhood of src) on the interior, as a mapped tasklet. */
static dace_status_t add_sweep(dace_sdfg_t* sdfg, dace_id_t loop, const char* label, const char* inputs,
                               const char* output, dace_id_t* out_state) {
  dace_mapped_tasklet_options_t options = DACE_MAPPED_TASKLET_OPTIONS_INIT;
  dace_status_t st = dace_sdfg_add_state(out_state, sdfg, loop, label);
  if (st != DACE_OK) return st;
  options.schedule = DACE_SCHEDULE_CPU_MULTICORE;
  options.external_edges = 1;
  return dace_state_add_mapped_tasklet(NULL, NULL, NULL, sdfg, *out_state, label, "i=1:N-1, j=1:N-1", inputs,
                                       "o = 0.2 * (c + n + s + w + e)", output, &options);
}

static void sweep_reference(const double* src, double* dst, int n) {
  int i, j;
  for (i = 1; i < n - 1; ++i)
    for (j = 1; j < n - 1; ++j)
      dst[i * n + j] = 0.2 * (src[i * n + j] + src[(i - 1) * n + j] + src[(i + 1) * n + j] + src[i * n + j - 1] +
                              src[i * n + j + 1]);
}

static int run_jacobi(dace_context_t* ctx) {
  enum { N = 64, T = 10 };
  dace_sdfg_t* sdfg = NULL;
  dace_program_t* program = NULL;
  dace_id_t loop = DACE_NO_ID, a_to_b = DACE_NO_ID, b_to_a = DACE_NO_ID, edge = DACE_NO_ID;
  double* a = malloc(sizeof(double) * N * N);
  double* b = malloc(sizeof(double) * N * N);
  double* ra = malloc(sizeof(double) * N * N);
  double* rb = malloc(sizeof(double) * N * N);
  int64_t shape[2] = {N, N};
  const char* names[3] = {"A", "B", "T"};
  dace_arg_t args[3];
  double max_err = 0.0;
  int i, t, ok = 0;

  if (!a || !b || !ra || !rb) goto fail;
  for (i = 0; i < N * N; ++i) {
    a[i] = ra[i] = sin(0.01 * i);
    b[i] = rb[i] = 0.0;
  }
  TRY(dace_sdfg_create(&sdfg, "jacobi_2d"));
  TRY(dace_sdfg_add_symbol(sdfg, "N", DACE_INT64));
  TRY(dace_sdfg_add_symbol(sdfg, "T", DACE_INT64));
  TRY(dace_sdfg_add_array(sdfg, "A", DACE_FLOAT64, "N, N", NULL));
  TRY(dace_sdfg_add_array(sdfg, "B", DACE_FLOAT64, "N, N", NULL));
  /* for (t = 0; t < T; t = t + 1) { a_to_b -> b_to_a } */
  TRY(dace_sdfg_add_loop(&loop, sdfg, DACE_ROOT_REGION, "time", "t", "t = 0", "t < T", "t = t + 1", 0));
  TRY(add_sweep(sdfg, loop, "a_to_b", "c: A[i, j]; n: A[i - 1, j]; s: A[i + 1, j]; w: A[i, j - 1]; e: A[i, j + 1]",
                "o: B[i, j]", &a_to_b));
  TRY(add_sweep(sdfg, loop, "b_to_a", "c: B[i, j]; n: B[i - 1, j]; s: B[i + 1, j]; w: B[i, j - 1]; e: B[i, j + 1]",
                "o: A[i, j]", &b_to_a));
  TRY(dace_sdfg_add_interstate_edge(&edge, NULL, sdfg, a_to_b, b_to_a, NULL, NULL));
  TRY(dace_sdfg_validate(sdfg));
  TRY(dace_program_compile(&program, ctx, sdfg, NULL));
  args[0] = array_arg(a, 2, shape);
  args[1] = array_arg(b, 2, shape);
  args[2] = symbol_arg(T);
  TRY(dace_program_call(program, names, args, 3));

  for (t = 0; t < T; ++t) {
    sweep_reference(ra, rb, N);
    sweep_reference(rb, ra, N);
  }
  for (i = 0; i < N * N; ++i) {
    double ea = fabs(a[i] - ra[i]), eb = fabs(b[i] - rb[i]);
    if (ea > max_err) max_err = ea;
    if (eb > max_err) max_err = eb;
  }
  ok = max_err <= 1e-12;
  printf("jacobi: N=%d T=%d, max |error| = %.3g\n", N, T, max_err);
fail:
  dace_program_release(program);
  dace_sdfg_release(sdfg);
  free(a);
  free(b);
  free(ra);
  free(rb);
  return ok;
}

int main(void) {
  dace_context_t* ctx = NULL;
  int ok = 0;
  printf("libdace %s\n", dace_version());
  TRY(dace_context_create(&ctx));
  ok = run_scale(ctx);
  ok = run_jacobi(ctx) && ok;
fail:
  dace_context_release(ctx);
  printf("%s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
