/* A process that calls dace_sdfg_render once and prints what it got: "status N: message".
 * capi_render_module_test runs it against a copy of libdace.so (LD_LIBRARY_PATH) whose
 * libdace/ folder holds no renderer, a renderer whose library is missing, or the real one. */
#include <stdio.h>

#include "libdace.h"

int main(void) {
  dace_sdfg_t* sdfg = NULL;
  char* text = NULL;
  dace_status_t st = dace_sdfg_create(&sdfg, "probe");
  if (st != DACE_OK) {
    printf("create failed %d: %s\n", (int)st, dace_last_error_message());
    return 3;
  }
  st = dace_sdfg_render(&text, sdfg, "svg");
  printf("status %d: %s\n", (int)st, st == DACE_OK ? "drawn" : dace_last_error_message());
  dace_string_free(text);
  dace_sdfg_release(sdfg);
  return 0;
}
