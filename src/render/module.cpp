// libdace_render.so: the renderer (src/render, Graphviz) as a module that libdace.so loads
// on the first dace_sdfg_render call (builder/api_render.cpp), so that libdace.so itself
// never depends on Graphviz. Built with libdace from the same tree: the SDFG crosses the
// boundary as libdace's own IR object.
#include <cstdlib>
#include <cstring>
#include <string>

#include "render/render.h"

namespace {

char* copy_text(const std::string& s) {
  char* p = static_cast<char*>(std::malloc(s.size() + 1));
  if (p) std::memcpy(p, s.data(), s.size() + 1);
  return p;
}

}  // namespace

// The module's one entry point, looked up by name by builder/api_render.cpp (which declares the
// same signature; the layers keep the two files from sharing a header): draws `sdfg` (a
// const dace::ir::SDFG*) as SVG (html = 0) or as the HTML page (html = 1). Returns 0 and sets
// *out (malloc'ed, NUL-terminated), else a dace::Code value and *error (malloc'ed message).
extern "C" __attribute__((visibility("default"))) int dace_render_module_draw(const void* sdfg, int html, char** out,
                                                                              char** error) {
  try {
    const auto& g = *static_cast<const dace::ir::SDFG*>(sdfg);
    auto drawing = dace::render::draw(g);
    if (!drawing.ok()) {
      *error = copy_text(drawing.error().message);
      return static_cast<int>(drawing.error().code);
    }
    *out = copy_text(html ? dace::render::html_page(g, *drawing) : drawing->svg);
    return *out ? 0 : static_cast<int>(dace::Code::OutOfMemory);
  } catch (const std::exception& e) {
    *error = copy_text(std::string("rendering failed: ") + e.what());
    return static_cast<int>(dace::Code::Internal);
  }
}
