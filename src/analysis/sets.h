// Set questions on subsets with symbolic bounds, decided by ISL (DESIGN.md §4).
//
// Free symbols become ISL parameters constrained by the assumptions (positive by default).
// Answers are three-valued:
//  - subset_covers / subset_within_shape: true = holds for every parameter value the
//    assumptions allow; false = fails for at least one such value; nullopt = undecided
//    (not expressible in ISL, or only an approximation could be built).
//  - subsets_intersect: true = some allowed parameter values give a common point;
//    false = disjoint for every allowed value; nullopt = undecided.
// Non-affine sub-terms (N*M, N**2, calls) are replaced by fresh parameters bounded by interval
// analysis; answers that this abstraction could make wrong are turned into nullopt.
#pragma once
#include <optional>
#include <vector>

#include "ir/symbolic/expr.h"

namespace dace::analysis {

// Every point of `inner` lies in `outer` (ranks must match, else nullopt).
std::optional<bool> subset_covers(const sym::Subset& outer, const sym::Subset& inner,
                                  const sym::Assumptions& assumptions = {});

// `a` and `b` share a point (ranks must match, else nullopt).
std::optional<bool> subsets_intersect(const sym::Subset& a, const sym::Subset& b,
                                      const sym::Assumptions& assumptions = {});

// Every point of `subset` satisfies 0 <= x_d <= shape[d] - 1 (rank must match, else nullopt).
std::optional<bool> subset_within_shape(const sym::Subset& subset, const std::vector<sym::Expr>& shape,
                                        const sym::Assumptions& assumptions = {});

}  // namespace dace::analysis
