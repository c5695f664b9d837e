// DaCe's remove_symbol_indirection (dace/transformation/passes/scalar_to_symbol.py, the last
// step of ScalarToSymbolPromotion), for reads: a Python tasklet that reads `A[s]` through an
// input connector whose memlet is a range, where the index uses only defined symbols (the
// SDFG's, assigned ones, enclosing map parameters) and literals, reads a new connector `A_0`
// (DaCe's find_new_name over the tasklet's connectors) through a memlet of that one element
// (the memlet's subset composed with the index, unsqueezed over its dimensions of size other
// than one). The original connector and its edge go when no read of it is left. Writes
// likewise: `o[s] = v` through an output connector with one edge and no WCR writes a new
// connector `o_0` through a memlet of that element (the new edge goes where the old one went,
// a scope exit's same IN_ connector included). Augmented subscripted writes (`o[s] += v`) stay:
// DaCe's rewrite `o_0 += v` would read an output that holds no value. C++ tasklets are
// rewritten by text as DaCe does (`a[k]` -> `a_1`, see promote_cpp_tasklet).
#pragma once
#include "ir/sdfg.h"

namespace dace::transform {

// Rewrites the tasklets of `sdfg`'s own states (not nested SDFGs); true when one changed.
bool remove_symbol_indirection(ir::SDFG& sdfg);

}  // namespace dace::transform
