/* A host of an ahead-of-time compiled SDFG (docs/aot.md): tests/install/consumer's "affine",
 * B[i] = 3 * A[i] + 2 over a CPU_Multicore map, compiled by the installed `dace compile --aot`
 * and linked with -laffine only (or, with AOT_STATIC_RUNTIME defined, with libaffine.a and the
 * static runtime libdace_rt.a). Checks B against the hand-computed 3i + 2 and that neither
 * LLVM nor libdace.so is loaded in this process (nor, statically linked, any libdace_rt or
 * libaffine shared object). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "affine.h"

static int mapped(const char* what) {
  char line[4096];
  int found = 0;
  FILE* f = fopen("/proc/self/maps", "r");
  if (!f) return 1;
  while (fgets(line, sizeof line, f))
    if (strstr(line, what)) found = 1;
  fclose(f);
  return found;
}

int main(void) {
  enum { N = 1000 };
  static double a[N], b[N];
  int64_t i;
  affineHandle_t h;
  for (i = 0; i < N; ++i) a[i] = (double)i;
  h = __dace_init_affine(N);
  if (!h) return 2;
  __program_affine(h, a, b, N);
  if (__dace_status_affine.code != 0 || __dace_exit_affine(h) != 0) return 3;
  for (i = 0; i < N; ++i)
    if (b[i] != 3.0 * (double)i + 2.0) {
      fprintf(stderr, "B[%ld] = %g, expected %g\n", (long)i, b[i], 3.0 * (double)i + 2.0);
      return 4;
    }
#ifdef AOT_STATIC_RUNTIME
  if (mapped("libLLVM") || mapped("/libdace.so") || mapped("libdace_rt") || mapped("libaffine.so")) {
    fprintf(stderr, "libLLVM, libdace.so, a shared libdace_rt or libaffine.so loaded\n");
    return 5;
  }
  printf("aot host (static): B = 3A + 2 over %d elements, no LLVM and no shared libdace loaded\n", N);
#else
  if (mapped("libLLVM") || mapped("/libdace.so") || !mapped("libdace_rt.so")) {
    fprintf(stderr, "libLLVM or libdace.so loaded, or libdace_rt.so not\n");
    return 5;
  }
  printf("aot host: B = 3A + 2 over %d elements, no LLVM loaded\n", N);
#endif
  return 0;
}
