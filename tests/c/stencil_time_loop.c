/* A 2-D Jacobi stencil with a time loop, built entirely through the C API (C99), validated,
 * saved into the directory argv[1], loaded back and compared. Exit 0 = all checks passed. */
#include <stdio.h>
#include <string.h>

#include "libdace.h"

static int passed = 0;
static int failed = 0;

#define CHECK(call)                                                                         \
  do {                                                                                      \
    dace_status_t st_ = (call);                                                             \
    if (st_ == DACE_OK) {                                                                   \
      ++passed;                                                                             \
    } else {                                                                                \
      ++failed;                                                                             \
      fprintf(stderr, "%s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #call, dace_status_string(st_), \
              dace_last_error_message());                                                   \
    }                                                                                       \
  } while (0)

#define EXPECT(cond)                                                      \
  do {                                                                    \
    if (cond) {                                                           \
      ++passed;                                                           \
    } else {                                                              \
      ++failed;                                                           \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
    }                                                                     \
  } while (0)

/* One sweep dst = 0.2 * (5-point neighbourhood of src), built node by node. */
static void build_sweep_by_hand(dace_sdfg_t* sdfg, dace_id_t state, const char* src, const char* dst) {
  dace_id_t a = -1, b = -1, entry = -1, exit_ = -1, t = -1, e = -1;
  char memlet[64];
  const char* conns[5] = {"c", "n", "s", "w", "e"};
  const char* offsets[5] = {"[i, j]", "[i - 1, j]", "[i + 1, j]", "[i, j - 1]", "[i, j + 1]"};
  int k;
  dace_map_options_t map = DACE_MAP_OPTIONS_INIT;
  map.schedule = DACE_SCHEDULE_CPU_MULTICORE;
  CHECK(dace_state_add_access(&a, sdfg, state, src));
  CHECK(dace_state_add_access(&b, sdfg, state, dst));
  CHECK(dace_state_add_map(&entry, &exit_, sdfg, state, "sweep", "i=1:N-1, j=1:N-1", &map));
  CHECK(dace_state_add_tasklet(&t, sdfg, state, "jacobi", "c, n, s, w, e", "o",
                               "o = 0.2 * (c + n + s + w + e)", DACE_LANGUAGE_PYTHON));
  sprintf(memlet, "%s[0:N, 0:N]", src);
  CHECK(dace_state_add_edge(&e, sdfg, state, a, NULL, entry, "IN_1", memlet, NULL));
  for (k = 0; k < 5; ++k) {
    sprintf(memlet, "%s%s", src, offsets[k]);
    CHECK(dace_state_add_edge(&e, sdfg, state, entry, "OUT_1", t, conns[k], memlet, NULL));
  }
  sprintf(memlet, "%s[i, j]", dst);
  CHECK(dace_state_add_edge(&e, sdfg, state, t, "o", exit_, "IN_1", memlet, NULL));
  sprintf(memlet, "%s[1:N-1, 1:N-1]", dst);
  CHECK(dace_state_add_edge(&e, sdfg, state, exit_, "OUT_1", b, NULL, memlet, NULL));
}

int main(int argc, char** argv) {
  dace_sdfg_t* sdfg = NULL;
  dace_sdfg_t* loaded = NULL;
  dace_sdfg_t* from_text = NULL;
  dace_sdfg_t* from_gz = NULL;
  dace_id_t init = -1, loop = -1, s1 = -1, s2 = -1, done = -1, edge = -1, region = -2;
  dace_id_t tasklet = -1, entry = -1, exit_ = -1;
  dace_mapped_tasklet_options_t mt = DACE_MAPPED_TASKLET_OPTIONS_INIT;
  char path[4096], gzpath[4096], h1[65], h2[65];
  char* json = NULL;
  int32_t equal = 0;
  const char* diff = NULL;
  const char* text = NULL;
  size_t count = 0;
  const char* dir = argc > 1 ? argv[1] : ".";

  CHECK(dace_sdfg_create(&sdfg, "jacobi_2d"));
  CHECK(dace_sdfg_add_symbol(sdfg, "N", DACE_INT64));
  CHECK(dace_sdfg_add_symbol(sdfg, "TSTEPS", DACE_INT64));
  CHECK(dace_sdfg_add_array(sdfg, "A", DACE_FLOAT64, "N, N", NULL));
  CHECK(dace_sdfg_add_array(sdfg, "B", DACE_FLOAT64, "N, N", NULL));

  /* init -> for t in range(TSTEPS) { s1 -> s2 } -> done */
  CHECK(dace_sdfg_add_state(&init, sdfg, DACE_ROOT_REGION, "init"));
  CHECK(dace_sdfg_add_loop(&loop, sdfg, DACE_ROOT_REGION, "time", "t", "t = 0", "t < TSTEPS", "t = t + 1", 0));
  CHECK(dace_sdfg_add_state(&done, sdfg, DACE_ROOT_REGION, "done"));
  CHECK(dace_sdfg_add_state(&s1, sdfg, loop, "a_to_b"));
  CHECK(dace_sdfg_add_state(&s2, sdfg, loop, "b_to_a"));
  CHECK(dace_sdfg_add_interstate_edge(&edge, &region, sdfg, init, loop, "TSTEPS > 0", "steps_done = 0"));
  EXPECT(region == DACE_ROOT_REGION);
  CHECK(dace_sdfg_add_interstate_edge(&edge, &region, sdfg, loop, done, NULL, "steps_done = TSTEPS"));
  CHECK(dace_sdfg_add_interstate_edge(&edge, &region, sdfg, s1, s2, NULL, NULL));
  EXPECT(region == loop);

  build_sweep_by_hand(sdfg, s1, "A", "B");
  mt.schedule = DACE_SCHEDULE_CPU_MULTICORE;
  mt.external_edges = 1;
  CHECK(dace_state_add_mapped_tasklet(&tasklet, &entry, &exit_, sdfg, s2, "jacobi_back", "i=1:N-1, j=1:N-1",
                                      "c: B[i, j]; n: B[i - 1, j]; s: B[i + 1, j]; w: B[i, j - 1]; e: B[i, j + 1]",
                                      "o = 0.2 * (c + n + s + w + e)", "o: A[i, j]", &mt));

  CHECK(dace_state_list_nodes(NULL, 0, &count, sdfg, s2));
  EXPECT(count == 5); /* map entry, exit, tasklet, B, A */
  CHECK(dace_sdfg_validate(sdfg));

  /* Save, load back, compare. */
  sprintf(path, "%s/stencil_time_loop.sdfg", dir);
  sprintf(gzpath, "%s/stencil_time_loop.sdfgz", dir);
  CHECK(dace_sdfg_save_file(sdfg, path, NULL));
  CHECK(dace_sdfg_load_file(&loaded, path));
  CHECK(dace_sdfg_equal(&equal, &diff, sdfg, loaded));
  EXPECT(equal == 1);
  if (!equal && diff) fprintf(stderr, "difference: %s\n", diff);
  CHECK(dace_sdfg_hash(h1, sdfg));
  CHECK(dace_sdfg_hash(h2, loaded));
  EXPECT(strlen(h1) == 64 && strcmp(h1, h2) == 0);
  CHECK(dace_sdfg_validate(loaded));

  CHECK(dace_sdfg_to_json(&json, sdfg, NULL));
  CHECK(dace_sdfg_load_string(&from_text, json));
  dace_string_free(json);
  CHECK(dace_sdfg_equal(&equal, NULL, sdfg, from_text));
  EXPECT(equal == 1);

  CHECK(dace_sdfg_save_file(sdfg, gzpath, NULL));
  CHECK(dace_sdfg_load_file(&from_gz, gzpath));
  CHECK(dace_sdfg_equal(&equal, NULL, sdfg, from_gz));
  EXPECT(equal == 1);

  /* The loop header reads back as written. */
  CHECK(dace_sdfg_find_block(&loop, loaded, "time"));
  CHECK(dace_block_get_property(&text, loaded, loop, "condition"));
  EXPECT(text && strcmp(text, "t < TSTEPS") == 0);

  /* A change is seen by the comparison. */
  CHECK(dace_data_set_transient(loaded, "B", 1));
  CHECK(dace_sdfg_equal(&equal, NULL, sdfg, loaded));
  EXPECT(equal == 0);

  dace_sdfg_release(from_gz);
  dace_sdfg_release(from_text);
  dace_sdfg_release(loaded);
  dace_sdfg_release(sdfg);
  printf("stencil_time_loop: %d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
