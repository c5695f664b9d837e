/* Error paths of the C API seen from C99: NULL handles, unknown ids, parse errors with
 * columns, duplicate names, bad enum values, and nothing half-built after a failure. */
#include <stdio.h>
#include <string.h>

#include "libdace.h"

static int passed = 0;
static int failed = 0;

#define EXPECT(cond)                                                      \
  do {                                                                    \
    if (cond) {                                                           \
      ++passed;                                                           \
    } else {                                                              \
      ++failed;                                                           \
      fprintf(stderr, "%s:%d: expected %s (last error: %s)\n", __FILE__, __LINE__, #cond, \
              dace_last_error_message());                                 \
    }                                                                     \
  } while (0)

static int message_has(const char* needle) { return strstr(dace_last_error_message(), needle) != NULL; }

int main(void) {
  dace_sdfg_t* sdfg = NULL;
  dace_id_t state = -1, node = -1, before = 0, after = 0;
  size_t count = 0;
  const char* name = NULL;

  /* NULL handles and out-parameters. */
  EXPECT(dace_sdfg_create(NULL, "x") == DACE_ERROR_INVALID_ARGUMENT);
  EXPECT(dace_sdfg_add_symbol(NULL, "N", DACE_INT64) == DACE_ERROR_INVALID_ARGUMENT);
  EXPECT(dace_sdfg_get_name(&name, NULL) == DACE_ERROR_INVALID_ARGUMENT);
  EXPECT(dace_sdfg_create(&sdfg, "bad name") == DACE_ERROR_INVALID_ARGUMENT);
  EXPECT(dace_sdfg_create(&sdfg, "heat") == DACE_OK);
  dace_sdfg_release(NULL);

  /* Unknown ids. */
  EXPECT(dace_state_add_access(&node, sdfg, 42, "A") == DACE_ERROR_NOT_FOUND);
  EXPECT(message_has("sdfg \"heat\" / block 42"));
  EXPECT(dace_sdfg_add_state(&state, sdfg, DACE_ROOT_REGION, "s3") == DACE_OK);
  EXPECT(dace_node_get_label(&name, sdfg, state, 7) == DACE_ERROR_NOT_FOUND);
  EXPECT(message_has("sdfg \"heat\" / state \"s3\" / node 7"));

  /* Parse errors give the column: the "*" is the 7th character of "N, M +* 2". */
  EXPECT(dace_sdfg_add_array(sdfg, "A", DACE_FLOAT64, "N, M +* 2", NULL) == DACE_ERROR_PARSE);
  EXPECT(dace_last_error_column() == 7);
  EXPECT(message_has("data \"A\"") && message_has("column 7"));
  EXPECT(dace_state_add_tasklet(&node, sdfg, state, "add", "a", "b", "b = a +", DACE_LANGUAGE_PYTHON) ==
         DACE_ERROR_PARSE);
  EXPECT(dace_last_error_line() == 1 && dace_last_error_column() > 0);
  EXPECT(message_has("(Tasklet \"add\")"));

  /* Duplicate names. */
  EXPECT(dace_sdfg_add_symbol(sdfg, "N", DACE_INT64) == DACE_OK);
  EXPECT(dace_sdfg_add_symbol(sdfg, "N", DACE_INT64) == DACE_ERROR_ALREADY_EXISTS);
  EXPECT(dace_sdfg_add_array(sdfg, "N", DACE_FLOAT64, "4", NULL) == DACE_ERROR_ALREADY_EXISTS);
  EXPECT(dace_sdfg_add_state(&state, sdfg, DACE_ROOT_REGION, "s3") == DACE_ERROR_ALREADY_EXISTS);

  /* Bad enum values. */
  EXPECT(dace_sdfg_add_symbol(sdfg, "M", (dace_dtype_t)99) == DACE_ERROR_INVALID_ARGUMENT);
  EXPECT(message_has("symbol \"M\""));
  EXPECT(dace_sdfg_add_array(sdfg, "B", (dace_dtype_t)-1, "N", NULL) == DACE_ERROR_INVALID_ARGUMENT);

  /* A failed call leaves nothing behind. */
  EXPECT(dace_sdfg_find_block(&state, sdfg, "s3") == DACE_OK);
  EXPECT(dace_state_list_nodes(NULL, 0, &count, sdfg, state) == DACE_OK);
  before = (dace_id_t)count;
  EXPECT(dace_state_add_mapped_tasklet(NULL, NULL, NULL, sdfg, state, "t", "i=0:N", "a: Missing[i]", "b = a",
                                       "b: Missing[i]", NULL) == DACE_ERROR_NOT_FOUND);
  EXPECT(dace_state_list_nodes(NULL, 0, &count, sdfg, state) == DACE_OK);
  after = (dace_id_t)count;
  EXPECT(before == after);
  EXPECT(dace_sdfg_data_count(&count, sdfg) == DACE_OK && count == 0);

  /* Status strings. */
  EXPECT(strcmp(dace_status_string(DACE_ERROR_PARSE), "parse error") == 0);
  EXPECT(strcmp(dace_status_string((dace_status_t)1000), "unknown status") == 0);
  EXPECT(dace_version_number() == DACE_VERSION_NUMBER);

  dace_sdfg_release(sdfg);
  printf("error_paths: %d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
