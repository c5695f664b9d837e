// Where the elements of a small container that stands for a block of a big one (a copy of a
// slice, a view of it) live in the big container. Dimensions of size one may differ between
// the two: `A[0:N, k]` shown as a vector of N elements, `x[0:N]` kept as `tmp[0:N, 0]`. Used
// by RedundantSecondArray and by view removal to rewrite the small container's memlets as
// memlets of the big one.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ir/symbolic/expr.h"

namespace dace::transform {

struct BlockPlacement {
  // For each dimension of the big container, the small container's dimension whose index it
  // follows (offset by `start`), or -1 where the block has size one and the index is `start`.
  std::vector<int> follows;
  std::vector<sym::Expr> start;
  // Same rank, each dimension following its own, no offset.
  bool aligned() const;
};

// The placement of `block` (a subset of the big container, unit steps) when the small
// container's shape is `small_shape`: the block's dimensions of size other than one have the
// small container's extents of size other than one, in order. nullopt (and `why`) otherwise.
std::optional<BlockPlacement> place_block(const sym::Subset& block, const std::vector<sym::Expr>& small_shape,
                                          std::string* why);

// The whole of a container of `shape`.
sym::Subset whole(const std::vector<sym::Expr>& shape);

// Whether `s` is the whole of a container of `shape` with unit steps.
bool is_whole(const sym::Subset& s, const std::vector<sym::Expr>& shape);

// A subset of the small container, as the subset of the big one holding the same elements.
sym::Subset to_big(const sym::Subset& small, const BlockPlacement& p);

// Whether `a - b` simplifies to zero.
bool same_value(sym::Expr a, sym::Expr b);

}  // namespace dace::transform
