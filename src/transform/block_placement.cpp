#include "transform/block_placement.h"

namespace dace::transform {

bool same_value(sym::Expr a, sym::Expr b) {
  if (!a || !b) return a == b;
  return sym::as_integer(sym::simplify(sym::sub(a, b))) == std::optional<int64_t>(0);
}

bool BlockPlacement::aligned() const {
  for (size_t k = 0; k < follows.size(); ++k)
    if (follows[k] != static_cast<int>(k) || !same_value(start[k], sym::integer(0))) return false;
  return true;
}

sym::Subset whole(const std::vector<sym::Expr>& shape) {
  sym::Subset s;
  for (const sym::Expr& n : shape) s.dims.push_back(sym::Range{sym::integer(0), sym::simplify(sym::sub(n, sym::integer(1))), sym::integer(1), sym::integer(1)});
  return s;
}

bool is_whole(const sym::Subset& s, const std::vector<sym::Expr>& shape) {
  if (s.rank() != shape.size()) return false;
  for (size_t j = 0; j < shape.size(); ++j) {
    const sym::Range& r = s.dims[j];
    if (!same_value(r.step, sym::integer(1)) || !same_value(r.start, sym::integer(0)) ||
        !same_value(r.end, sym::sub(shape[j], sym::integer(1))))
      return false;
  }
  return true;
}

std::optional<BlockPlacement> place_block(const sym::Subset& block, const std::vector<sym::Expr>& small_shape,
                                          std::string* why) {
  std::vector<int> wide;  // small dimensions of size other than one, in order
  for (size_t j = 0; j < small_shape.size(); ++j)
    if (!same_value(small_shape[j], sym::integer(1))) wide.push_back(static_cast<int>(j));
  BlockPlacement p;
  size_t next = 0;
  for (const sym::Range& r : block.dims) {
    if (!same_value(r.step, sym::integer(1))) {
      *why = "the block has a step";
      return std::nullopt;
    }
    const sym::Expr extent = sym::simplify(sym::add(sym::sub(r.end, r.start), sym::integer(1)));
    p.start.push_back(r.start);
    if (same_value(extent, sym::integer(1))) {  // fixed at its start
      p.follows.push_back(-1);
      continue;
    }
    if (next == wide.size() || !same_value(extent, small_shape[static_cast<size_t>(wide[next])])) {
      *why = "the block does not have the small container's extents";
      return std::nullopt;
    }
    p.follows.push_back(wide[next++]);
  }
  if (next != wide.size()) {
    *why = "the block does not have the small container's extents";
    return std::nullopt;
  }
  // Same rank with every size-one dimension in place: follow them one to one, so an aligned
  // copy stays aligned (the layouts agree).
  if (block.rank() == small_shape.size()) {
    bool diagonal = true;
    for (size_t k = 0; k < p.follows.size(); ++k)
      diagonal = diagonal && (p.follows[k] == static_cast<int>(k) ||
                              (p.follows[k] == -1 && same_value(small_shape[k], sym::integer(1))));
    if (diagonal)
      for (size_t k = 0; k < p.follows.size(); ++k) p.follows[k] = static_cast<int>(k);
  }
  return p;
}

sym::Subset to_big(const sym::Subset& small, const BlockPlacement& p) {
  sym::Subset out;
  for (size_t k = 0; k < p.follows.size(); ++k) {
    if (p.follows[k] < 0) {
      out.dims.push_back(sym::Range{p.start[k], p.start[k], sym::integer(1), sym::integer(1)});
      continue;
    }
    sym::Range r = small.dims[static_cast<size_t>(p.follows[k])];
    r.start = sym::simplify(sym::add(r.start, p.start[k]));
    r.end = sym::simplify(sym::add(r.end, p.start[k]));
    out.dims.push_back(r);
  }
  return out;
}

}  // namespace dace::transform
