// dace_sdfg_render: SDFG pictures from the C API (docs/render.md). The renderer needs
// Graphviz, which libdace.so must not depend on, so it lives in libdace_render.so next to the
// plugins folder and is loaded here on the first call.
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <string>
#include <system_error>
#include <vector>

#include "builder/api_internal.h"
#include "plugin/library_dependencies.h"
#include "plugin/loader.h"
#include "plugin/open_library.h"

using namespace dace::capi;
using dace::Code;
using dace::Status;

namespace {

// The module's file and entry point (src/render/module.cpp defines it with this signature):
// draws a const dace::ir::SDFG* as SVG (html = 0) or HTML (1); 0 and *out (malloc'ed), else
// a dace::Code value and *error (malloc'ed).
constexpr const char* kModuleFile = "libdace_render.so";
constexpr const char* kModuleSymbol = "dace_render_module_draw";
using DrawFn = int (*)(const void* sdfg, int html, char** out, char** error);

struct RenderModule {
  DrawFn draw = nullptr;
  std::string path, failure;  // failure: why it could not be loaded
};

// Why the module at `path` is not usable, given the loader's message `why`. Three cases a
// user fixes differently: the file is not there (a build or install without Graphviz), the
// file is there but a library it needs is not (Graphviz's run-time libraries missing on this
// machine, e.g. libdace copied without them), or the file itself does not load.
std::string unusable_module(const std::string& path, bool present, const std::string& why) {
  const std::string loader = why.empty() ? "not loadable" : why;
  if (!present)
    return "rendering needs " + path + ", which is not there: libdace was built or installed without its " +
           "renderer (it needs Graphviz, libgraphviz-dev at build time)";
  // Which of the module's own dependencies fail is found by trying them (its DT_NEEDED list),
  // not by parsing the loader's message: that wording is the C library's, not an interface.
  const std::vector<std::string> missing = dace::plugin::unloadable_dependencies(path);
  if (!missing.empty()) {
    std::string names;
    for (const std::string& name : missing) names += (names.empty() ? "" : ", ") + name;
    return "rendering needs " + path + ", which is there but cannot be loaded: the librar" +
           (missing.size() == 1 ? "y " : "ies ") + names + " it needs " + (missing.size() == 1 ? "is" : "are") +
           " missing or cannot be loaded (Graphviz's run-time libraries, Debian package libgvc6, or a " +
           "library path that does not reach them): " + loader;
  }
  return "rendering needs " + path + ", which is there but cannot be loaded: " + loader;
}

// Loaded once per process and kept (never unmapped: Graphviz keeps global state).
const RenderModule& render_module() {
  static RenderModule module;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string plugins = dace::plugin::default_plugin_dir();
    if (plugins.empty()) {
      module.failure = std::string("cannot locate libdace.so (dladdr), so not ") + kModuleFile + " either";
      return;
    }
    module.path = (std::filesystem::path(plugins).parent_path() / kModuleFile).string();
    std::error_code ec;
    const bool present = std::filesystem::exists(module.path, ec);
    std::string why;
    void* handle = present ? dace::plugin::open_library_permanently(module.path, why) : nullptr;
    if (!handle) {
      module.failure = unusable_module(module.path, present, why);
      return;
    }
    module.draw = reinterpret_cast<DrawFn>(dlsym(handle, kModuleSymbol));
    if (!module.draw) module.failure = module.path + " has no " + kModuleSymbol;
  });
  return module;
}

}  // namespace

extern "C" {

dace_status_t dace_sdfg_render(char** out_text, const dace_sdfg_t* sdfg, const char* format) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_text, "out_text"));
    DACE_TRY(require(format, "format"));
    auto g = sdfg_of(sdfg);
    if (!g) return g.take_error();
    const std::string f = format;
    if (f != "svg" && f != "html")
      return invalid("dace_sdfg_render: format \"" + f + "\" is neither \"svg\" nor \"html\"");
    const RenderModule& module = render_module();
    if (!module.draw) return make_error(Code::Unsupported, module.failure);
    char* text = nullptr;
    char* error = nullptr;
    int code = 0;
    {
      // Graphviz keeps global state (its context, the id discipline): one drawing at a time.
      static std::mutex drawing;
      std::lock_guard<std::mutex> lock(drawing);
      code = module.draw(*g, f == "html" ? 1 : 0, &text, &error);
    }
    if (code != 0) {
      std::string message = error ? error : "rendering failed";
      std::free(error);
      std::free(text);
      return make_error(static_cast<Code>(code), "sdfg \"" + (*g)->name + "\": " + message);
    }
    *out_text = text;
    return Status::success();
  });
}

}  // extern "C"
