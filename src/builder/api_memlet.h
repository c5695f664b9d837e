// Memlets from C API arguments: text + dace_memlet_options_t -> ir::Memlet, checked against
// the SDFG's containers.
#pragma once
#include <string>
#include <vector>

#include "analysis/memlet_propagation.h"
#include "ir/memlet.h"
#include "ir/sdfg.h"
#include "libdace.h"

namespace dace::capi {

// "sum" or "lambda a, b: a + b" -> the canonical lambda text, checked.
Result<std::string> parse_wcr(const char* wcr, const std::string& where);
// Parses `text` (NULL = empty memlet); "A" takes the whole shape of A; the subset rank must
// match the container's. Options may be NULL.
Result<ir::Memlet> build_memlet(const ir::SDFG& sdfg, const char* text, const dace_memlet_options_t* options,
                                const std::string& where);
// Memlet propagation lives in the analysis layer; the builder's callers use it as before.
using analysis::propagate_over_map;
using analysis::whole_subset;

}  // namespace dace::capi
