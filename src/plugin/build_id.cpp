#include "plugin/build_id.h"

#include "libdace_plugin.h"

namespace dace::plugin {

// The same macro a plugin writes into its dace_plugin_info_t, so that both sides agree by
// construction when they are built from one configuration.
const char* build_id() { return DACE_PLUGIN_BUILD_ID; }

}  // namespace dace::plugin
