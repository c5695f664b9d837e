/* A host program built against an *installed* libdace (tests/scripts/install_consumer.sh):
 * builds B[i] = 3 * A[i] + 2 over a CPU_Multicore map through the C API, JIT-compiles it
 * (which needs the CPU plugin, found next to the installed libdace.so with no environment
 * variable), runs it on A[i] = i, i < 10, and checks against hand-computed values:
 * B[i] = 3i + 2, sum(B) = 3 * 45 + 2 * 10 = 155. Saves the SDFG to argv[1] for the CLI.
 * With --render (an install that has the renderer module), also draws the SDFG through
 * dace_sdfg_render, which must find libdace_render.so next to the installed libdace.so with no
 * environment variable, and checks that the tasklet is drawn. Exit 0 on a match, 1 otherwise. */
#include <stdio.h>
#include <string.h>

#include "libdace.h"

#define TRY(call)                                                                             \
  do {                                                                                        \
    dace_status_t st_ = (call);                                                               \
    if (st_ != DACE_OK) {                                                                     \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, dace_status_string(st_),         \
              dace_last_error_message());                                                     \
      goto done;                                                                              \
    }                                                                                         \
  } while (0)

int main(int argc, char** argv) {
  enum { N = 10 };
  dace_context_t* ctx = NULL;
  dace_sdfg_t* sdfg = NULL;
  dace_program_t* program = NULL;
  dace_mapped_tasklet_options_t options = DACE_MAPPED_TASKLET_OPTIONS_INIT;
  dace_id_t state = DACE_NO_ID;
  double a[N], b[N], sum = 0.0;
  int64_t shape[1] = {N};
  const char* names[2] = {"A", "B"};
  dace_arg_t args[2];
  int i, ok = 0;

  if (argc != 2 && !(argc == 3 && strcmp(argv[2], "--render") == 0)) {
    fprintf(stderr, "usage: %s OUT.sdfg [--render]\n", argv[0]);
    return 2;
  }
  for (i = 0; i < N; ++i) {
    a[i] = i;
    b[i] = -1.0;
  }
  printf("libdace %s\n", dace_version());
  TRY(dace_context_create(&ctx));
  TRY(dace_sdfg_create(&sdfg, "affine"));
  TRY(dace_sdfg_add_symbol(sdfg, "N", DACE_INT64));
  TRY(dace_sdfg_add_array(sdfg, "A", DACE_FLOAT64, "N", NULL));
  TRY(dace_sdfg_add_array(sdfg, "B", DACE_FLOAT64, "N", NULL));
  TRY(dace_sdfg_add_state(&state, sdfg, DACE_ROOT_REGION, "compute"));
  options.schedule = DACE_SCHEDULE_CPU_MULTICORE;
  options.external_edges = 1;
  TRY(dace_state_add_mapped_tasklet(NULL, NULL, NULL, sdfg, state, "affine", "i=0:N", "a: A[i]", "b = 3 * a + 2",
                                    "b: B[i]", &options));
  TRY(dace_sdfg_validate(sdfg));
  TRY(dace_sdfg_save_file(sdfg, argv[1], NULL));
  TRY(dace_program_compile(&program, ctx, sdfg, NULL));
  for (i = 0; i < 2; ++i) {
    args[i].kind = DACE_ARG_ARRAY;
    args[i].value.array.data = i == 0 ? a : b;
    args[i].value.array.dtype = DACE_FLOAT64;
    args[i].value.array.ndim = 1;
    args[i].value.array.shape = shape;
    args[i].value.array.strides = NULL;
  }
  TRY(dace_program_call(program, names, args, 2));
  ok = 1;
  for (i = 0; i < N; ++i) {
    sum += b[i];
    if (b[i] != 3.0 * i + 2.0) {
      fprintf(stderr, "B[%d] = %g, expected %d\n", i, b[i], 3 * i + 2);
      ok = 0;
    }
  }
  printf("sum(B) = %g (expected 155)\n", sum);
  if (sum != 155.0) ok = 0;
  if (argc == 3) {
    char* svg = NULL;
    TRY(dace_sdfg_render(&svg, sdfg, "svg"));
    if (strncmp(svg, "<?xml", 5) != 0 || !strstr(svg, "class=\"node sdfg&#45;node sdfg&#45;tasklet\"")) {
      fprintf(stderr, "the picture has no tasklet: %.200s\n", svg);
      ok = 0;
    } else {
      printf("rendered: %lu bytes of SVG\n", (unsigned long)strlen(svg));
    }
    dace_string_free(svg);
  }
done:
  dace_program_release(program);
  dace_sdfg_release(sdfg);
  dace_context_release(ctx);
  return ok ? 0 : 1;
}
