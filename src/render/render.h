// `dace render`: an SDFG drawn as nested boxes (control-flow blocks, map/consume scopes,
// nested SDFGs) with access nodes, tasklets, library nodes and labelled memlets, laid out by
// Graphviz's `dot` (docs/render.md). Output is deterministic: same SDFG, same bytes.
#pragma once
#include <string>

#include "ir/result.h"
#include "ir/sdfg.h"
#include "render/drawing.h"

namespace dace::render {

// The SDFG as an SVG document plus the list of what was drawn. Errors: Unsupported when
// libdace was built without Graphviz; Internal when Graphviz's layout fails (its message).
Result<Drawing> draw(const ir::SDFG& sdfg);
// One self-contained HTML page (no external resources): the SVG with pan (drag), zoom
// (wheel, +/- keys, "fit" button) and scopes that collapse and expand on a click on their
// title.
std::string html_page(const ir::SDFG& sdfg, const Drawing& drawing);

}  // namespace dace::render
