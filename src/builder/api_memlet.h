// Memlets from C API arguments: text + dace_memlet_options_t -> ir::Memlet, checked against
// the SDFG's containers.
#pragma once
#include <string>
#include <vector>

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
// The whole-container subset of `data` ("0:N, 0:M").
sym::Subset whole_subset(const ir::DataDescriptor& data);
// The subset that `subset` (seen inside a map with `params` over `range`, inclusive ends)
// touches over all iterations: per dimension the hull when its bounds are affine in the
// parameters, else the container's whole extent (DaCe's memlet propagation, simplified).
sym::Subset propagate_over_map(const sym::Subset& subset, const ir::DataDescriptor& desc,
                               const std::vector<std::string>& params, const sym::Subset& range);

}  // namespace dace::capi
