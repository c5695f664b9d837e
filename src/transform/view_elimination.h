// Read views that only re-index their array (`A -> A_1` with A_1 an ArrayView of the block
// A[1:N-1, 1:N-1], what the frontend makes of a slice operand) are removed by ArrayElimination:
// every memlet that reads the view, through map entries down to the tasklets, reads the
// array instead, offset by the block's start. Legal only when the view's only in-edge comes
// from an access node of an Array (not a view), the view node is the container's only access
// node in the SDFG and control flow does not name it, the block has the view's rank, shape
// and strides (unit steps; a reshaping view is kept), and everything reading the view is a
// tasklet, a map entry or an access node (nested SDFGs and library nodes see the layout).
#pragma once
#include "ir/sdfg.h"

namespace dace::transform {

// Removes every such view of `sdfg` (not of nested SDFGs); returns whether any went.
bool remove_redundant_read_views(ir::SDFG& sdfg);

}  // namespace dace::transform
