#include "analysis/memlet_propagation.h"

#include <map>
#include <set>

namespace dace::analysis {

sym::Subset whole_subset(const ir::DataDescriptor& data) {
  sym::Subset s;
  for (sym::Expr extent : data.shape)
    s.dims.push_back({sym::integer(0), sym::sub(extent, sym::integer(1)), sym::integer(1), sym::integer(1)});
  return s;
}

namespace {

// Bound of `e` over the map's iteration space (lower or upper), or null if e is not affine in
// the parameters.
sym::Expr extreme(sym::Expr e, const std::vector<std::string>& params, const sym::Subset& range, bool lower) {
  std::set<std::string> names(params.begin(), params.end());
  auto aff = sym::affine(e, names);
  if (!aff) return nullptr;
  std::map<std::string, sym::Expr> repl;
  for (size_t i = 0; i < params.size() && i < range.dims.size(); ++i) {
    auto it = aff->coefficients.find(params[i]);
    if (it == aff->coefficients.end()) continue;
    const sym::Range& r = range.dims[i];
    repl[params[i]] = (it->second > 0) == lower ? r.start : r.end;
  }
  return sym::substitute(e, repl);
}

}  // namespace

sym::Subset propagate_over_map(const sym::Subset& subset, const ir::DataDescriptor& desc,
                               const std::vector<std::string>& params, const sym::Subset& range) {
  sym::Subset whole = whole_subset(desc);
  sym::Subset out;
  for (size_t d = 0; d < subset.dims.size(); ++d) {
    const sym::Range& r = subset.dims[d];
    sym::Expr lo = extreme(r.start, params, range, true);
    sym::Expr hi = extreme(r.end, params, range, false);
    bool stepped = r.step != sym::integer(1) && lo != r.start;
    if (!lo || !hi || stepped || d >= whole.dims.size())
      out.dims.push_back(d < whole.dims.size() ? whole.dims[d] : r);
    else
      out.dims.push_back({lo, hi, sym::integer(1), sym::integer(1)});
  }
  return out;
}

}  // namespace dace::analysis
