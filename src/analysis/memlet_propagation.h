// Memlet propagation over a map scope: the part of a container that a memlet seen inside a map
// touches over all iterations. Used by the builder (memlets of mapped tasklets, propagated
// queries) and by the optimizer (outer memlets of maps it creates).
#pragma once
#include <string>
#include <vector>

#include "ir/data.h"
#include "ir/symbolic/expr.h"

namespace dace::analysis {

// The whole-container subset of `data` ("0:N, 0:M").
sym::Subset whole_subset(const ir::DataDescriptor& data);
// The subset that `subset` (seen inside a map with `params` over `range`, inclusive ends)
// touches over all iterations: per dimension the hull when its bounds are affine in the
// parameters, else the container's whole extent (DaCe's memlet propagation, simplified).
sym::Subset propagate_over_map(const sym::Subset& subset, const ir::DataDescriptor& desc,
                               const std::vector<std::string>& params, const sym::Subset& range);

}  // namespace dace::analysis
