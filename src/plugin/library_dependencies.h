// Which libraries a shared object needs (its ELF DT_NEEDED entries) and which of those this
// process cannot load. Used to explain a module that is there but does not load without
// reading the loader's message, whose wording is glibc's (or musl's) and no interface.
#pragma once
#include <string>
#include <vector>

namespace dace::plugin {

struct DynamicDependencies {
  std::vector<std::string> needed;      // DT_NEEDED, in the file's order
  std::vector<std::string> search_dirs;  // DT_RUNPATH, else DT_RPATH, split at ':' ($ORIGIN expanded)
};

// Reads the dynamic section of the 64-bit ELF file at `path` (this host's byte order). False
// with `error` naming the file and what is wrong for a file that is missing, unreadable, not
// such an ELF object, truncated or inconsistent; never reads outside the file.
bool read_dynamic_dependencies(const std::string& path, DynamicDependencies& out, std::string& error);

// The DT_NEEDED entries of `path` that cannot be loaded here: neither already loaded, nor
// loadable from the file's own run path, nor by name (LD_LIBRARY_PATH, the system's cache and
// folders). A library that loads is closed again at once. Empty when the file cannot be read
// (read_dynamic_dependencies tells why).
std::vector<std::string> unloadable_dependencies(const std::string& path);

}  // namespace dace::plugin
