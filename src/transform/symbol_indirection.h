// DaCe's remove_symbol_indirection (dace/transformation/passes/scalar_to_symbol.py, the last
// step of ScalarToSymbolPromotion), for reads: a Python tasklet that reads `A[s]` through an
// input connector whose memlet is a range, where the index uses only defined symbols (the
// SDFG's, assigned ones, enclosing map parameters) and literals, reads a new connector `A_0`
// (DaCe's find_new_name over the tasklet's connectors) through a memlet of that one element
// (the memlet's subset composed with the index, unsqueezed over its dimensions of size other
// than one). The original connector and its edge go when no read of it is left. Writes through
// subscripted output connectors stay as they are (DaCe also rewrites those).
#pragma once
#include "ir/sdfg.h"

namespace dace::transform {

// Rewrites the tasklets of `sdfg`'s own states (not nested SDFGs); true when one changed.
bool remove_symbol_indirection(ir::SDFG& sdfg);

}  // namespace dace::transform
