/* A plugin linked against a vendor library that is absent at run time (as a CUDA plugin
 * linked to libcuda.so.1 is on a machine without a driver): dlopen itself fails. */
#include "libdace_plugin.h"

int dace_test_absent_vendor_function(void);

static int32_t register_it(dace_plugin_registry_t* registry) {
  (void)registry;
  return dace_test_absent_vendor_function() == 0 ? 0 : 1;
}

static const dace_plugin_info_t info = {DACE_PLUGIN_ABI_VERSION, "test_missing_vendor", "1.0",
                                        DACE_PLUGIN_BUILD_ID, register_it};

const dace_plugin_info_t* dace_plugin_query(uint32_t abi_version) {
  (void)abi_version;
  return &info;
}
