#include "transform/nested_access.h"

#include <map>
#include <string>

namespace dace::transform {

bool is_one(sym::Expr e) { return e && sym::as_integer(sym::simplify(e)) == 1; }

namespace {

bool same(sym::Expr a, sym::Expr b) {
  if (a == b) return true;
  if (!a || !b) return false;
  return sym::as_integer(sym::simplify(sym::expand(sym::sub(a, b)))) == 0;
}

}  // namespace

std::optional<std::vector<int>> inner_to_outer_dims(size_t inner_rank, const sym::Subset& outer) {
  const size_t outer_rank = outer.rank();
  std::vector<int> dims;
  if (inner_rank == outer_rank) {
    for (size_t d = 0; d < inner_rank; ++d) dims.push_back(static_cast<int>(d));
    return dims;
  }
  if (inner_rank > outer_rank) return std::nullopt;
  const std::vector<sym::Expr> sizes = sym::size(outer);
  std::vector<int> ones, others;
  for (size_t d = 0; d < outer_rank; ++d) (is_one(sizes[d]) ? ones : others).push_back(static_cast<int>(d));
  if (ones.size() == outer_rank - inner_rank) return others;
  // One element seen as a one-element vector: it indexes the first dimension (as DaCe).
  if (inner_rank == 1 && others.empty()) return std::vector<int>{0};
  return std::nullopt;
}

sym::Subset to_outer(const sym::Subset& inner, const sym::Subset& outer, const std::vector<int>& dims) {
  sym::Subset out;
  for (const sym::Range& r : outer.dims) out.dims.push_back({r.start, r.start, sym::integer(1), sym::integer(1)});
  for (size_t d = 0; d < dims.size() && d < inner.rank(); ++d) {
    const sym::Range& in = inner.dims[d];
    const sym::Expr base = outer.dims[static_cast<size_t>(dims[d])].start;
    out.dims[static_cast<size_t>(dims[d])] = {sym::add(in.start, base), sym::add(in.end, base), in.step, in.tile};
  }
  return out;
}

bool strides_match(const ir::DataDescriptor& inner, const ir::DataDescriptor& outer, const std::vector<int>& dims,
                   const std::map<std::string, sym::Expr>& values) {
  for (size_t d = 0; d < dims.size(); ++d) {
    if (d < inner.shape.size() && is_one(sym::substitute(inner.shape[d], values))) continue;
    const size_t od = static_cast<size_t>(dims[d]);
    if (d >= inner.strides.size() || od >= outer.strides.size()) return false;
    if (!same(sym::substitute(inner.strides[d], values), outer.strides[od])) return false;
  }
  return true;
}

}  // namespace dace::transform
