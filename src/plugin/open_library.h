// How libdace loads a plugin or a vendor library: one dlopen flag set for both.
#pragma once
#include <string>

namespace dace::plugin {

// dlopen(name) with every symbol resolved now (RTLD_NOW: a missing symbol is an error here,
// not a crash at the first call), symbols kept local to the library (RTLD_LOCAL: two
// plugins' helpers never collide) and never unmapped (RTLD_NODELETE: a library that started
// OpenMP or driver threads must stay mapped even if something calls dlclose; TOOLCHAIN.md).
// The handle, or null with the loader's message in `error`.
void* open_library_permanently(const std::string& name, std::string& error);

}  // namespace dace::plugin
