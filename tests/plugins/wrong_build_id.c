/* A plugin built against another libdace build. */
#include "libdace_plugin.h"

static int32_t register_nothing(dace_plugin_registry_t* registry) {
  (void)registry;
  return 0;
}

static const dace_plugin_info_t info = {DACE_PLUGIN_ABI_VERSION, "test_wrong_build_id", "1.0",
                                        "some-other-libdace-build", register_nothing};

const dace_plugin_info_t* dace_plugin_query(uint32_t abi_version) {
  (void)abi_version;
  return &info;
}
