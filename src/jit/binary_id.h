// The linker's build id of loaded binaries: the identity of the code that generates code, for
// object-cache keys.
//
// libdace's version and its ABI-header hash (plugin::build_id) stay the same across rebuilds
// of one release, while the machine code its lowering and optimizer produce can change with
// any commit (a fixed lowering, a new pass). Keyed by those alone, a cache entry written by an
// older build would be loaded by a newer one: the old machine code, with the old bugs. The
// GNU build id (`ld --build-id`, on by default in Debian's toolchain) is a hash of the linked
// binary: it changes with any change of the code and not for a byte-identical rebuild.
#pragma once
#include <string>

namespace dace::jit {

// The build id (lowercase hex) of the loaded binary that holds libdace's code (libdace.so,
// or an executable linked with libdace statically); "" when that binary has none.
const std::string& libdace_binary_id();

// The build id of the shared object loaded from `path` (compared as files, so another
// spelling of the same path matches), read from its loaded copy; "" when no loaded object
// is that file (a file replaced since it was loaded is another file) or it has no build id.
std::string loaded_binary_id(const std::string& path);

}  // namespace dace::jit
