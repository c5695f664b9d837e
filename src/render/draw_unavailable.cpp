// draw() of a libdace built without Graphviz (libgraphviz-dev not found at configure time).
#include "render/render.h"

namespace dace::render {

Result<Drawing> draw(const ir::SDFG&) {
  return make_error(Code::Unsupported,
                    "render: this libdace was built without Graphviz (install libgraphviz-dev and reconfigure)");
}

}  // namespace dace::render
