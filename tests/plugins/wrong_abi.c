/* Answers the query with an ABI version no libdace has. */
#include "libdace_plugin.h"

static int32_t register_nothing(dace_plugin_registry_t* registry) {
  (void)registry;
  return 0;
}

static const dace_plugin_info_t info = {999u, "test_wrong_abi", "1.0", DACE_PLUGIN_BUILD_ID,
                                        register_nothing};

const dace_plugin_info_t* dace_plugin_query(uint32_t abi_version) {
  (void)abi_version;
  return &info;
}
