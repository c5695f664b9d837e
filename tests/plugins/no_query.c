/* A shared object that is not a plugin: it lacks dace_plugin_query. */
#include "libdace_plugin.h"

DACE_PLUGIN_EXPORT int dace_test_not_a_plugin(void);

int dace_test_not_a_plugin(void) { return 1; }
