// A map whose one tasklet moves each element of a subset to a place of another subset
// (`__out = f(__inp)`): the shape ExpandTransposesToMaps and SplitConvertingCopies (a
// converting copy between device containers) both build, so that GPUTransformSDFG, or the
// map's GPU_Device schedule, makes a kernel of it.
#pragma once
#include <string>
#include <vector>

#include "ir/sdfg.h"

namespace dace::transform {

// The extent is the constant 1 (a dimension the lowering squeezes).
bool has_unit_extent(const sym::Expr& extent);

// The single element `index` of `data`.
ir::Memlet element_memlet(const std::string& data, const std::vector<sym::Expr>& index);

// One side of the map: the node outside it, its connector, the memlet between them, and the
// memlet of the element inside the map.
struct ElementMapEnd {
  int node = -1;
  std::string conn;
  ir::Memlet outer, inner;
};

// Adds `map` (labelled `label`) with tasklet `label`_element running `code` on `__inp` into
// `__out`, fed from `in` and writing to `out` through map connectors IN___inp/OUT___inp and
// IN___out/OUT___out. Removes nothing.
void add_element_map(ir::State& state, const std::string& label, ir::MapScope map, const std::string& code,
                     const ElementMapEnd& in, const ElementMapEnd& out);

}  // namespace dace::transform
