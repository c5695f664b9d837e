// How a nested SDFG's container relates to the outer memlet on its connector (DaCe's
// unsqueeze_memlet): the inner indices are offsets into the outer subset, and an inner
// container of lower rank than the subset drops the subset's dimensions of size one. Shared
// by InlineSDFG (inner memlets become outer ones) and RefineNestedAccess (the inverse:
// outer memlets narrowed, inner ones re-based).
#pragma once
#include <optional>
#include <vector>

#include "ir/data.h"
#include "ir/symbolic/expr.h"

namespace dace::transform {

// Whether the expression is provably one.
bool is_one(sym::Expr e);
// For each inner dimension, the outer subset dimension it indexes; nullopt when the ranks
// cannot be matched (more inner than outer dimensions, or an ambiguous choice among the
// outer dimensions of size one).
std::optional<std::vector<int>> inner_to_outer_dims(size_t inner_rank, const sym::Subset& outer);
// The outer subset an inner subset addresses: kept dimensions offset by the outer start,
// dropped ones at the outer start. Assumes unit steps in the outer subset.
sym::Subset to_outer(const sym::Subset& inner, const sym::Subset& outer, const std::vector<int>& dims);
// Whether the inner layout equals the outer one on the kept dimensions (inner strides after
// the symbol mapping `values`; a dimension of extent one has no stride that matters).
bool strides_match(const ir::DataDescriptor& inner, const ir::DataDescriptor& outer, const std::vector<int>& dims,
                   const std::map<std::string, sym::Expr>& values);

}  // namespace dace::transform
