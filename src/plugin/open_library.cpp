#include "plugin/open_library.h"

#include <dlfcn.h>

namespace dace::plugin {

void* open_library_permanently(const std::string& name, std::string& error) {
  dlerror();  // a stale message from an earlier failure must not be reported for this one
  void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (handle == nullptr) {
    const char* text = dlerror();
    error = text != nullptr ? text : "unknown loader error";
  }
  return handle;
}

}  // namespace dace::plugin
