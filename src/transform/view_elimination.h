// Read views that only re-index their array (`A -> A_1` with A_1 an ArrayView of the block
// A[1:N-1, 1:N-1], what the frontend makes of a slice operand) are removed by ArrayElimination:
// every memlet that reads the view, through map entries down to the tasklets, reads the
// array instead, offset by the block's start. Legal only when the view's only in-edge comes
// from an access node of an Array (not a view), the view node is the container's only access
// node in the SDFG and control flow does not name it, the block has the view's shape and
// strides up to dimensions of size one (a slice `A[0:N, k]` shown as a vector goes; unit
// steps; a reshaping view is kept: block_placement.h), and everything reading the view is a
// tasklet, a map entry or an access node (nested SDFGs and library nodes see the layout).
#pragma once
#include "ir/sdfg.h"

namespace dace::transform {

// Removes every such view of `sdfg` (not of nested SDFGs); returns whether any went.
bool remove_redundant_read_views(ir::SDFG& sdfg);

// Write views that only re-index their array (`writers -> V -> A`, the edge into A marked
// `views`, V a block of A as above) are removed the same way: every memlet writing V, through
// map exits back to the tasklets (or copies with an explicit other subset), writes A at the
// block instead. Same conditions as for read views, mirrored: V has that one out-edge, its
// writers are tasklets, map exits or access nodes; nested SDFGs and library nodes keep it.
bool remove_redundant_write_views(ir::SDFG& sdfg);

}  // namespace dace::transform
