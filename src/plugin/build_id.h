// The build id of this libdace: plugins compiled against another build are refused, because
// the internal C++ API they link against has no stable ABI (include/libdace_plugin.h).
#pragma once

namespace dace::plugin {

// LIBDACE_BUILD_ID as configured by CMake (cmake/plugins.cmake); static storage.
const char* build_id();

}  // namespace dace::plugin
