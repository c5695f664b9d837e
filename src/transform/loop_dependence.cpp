#include "transform/loop_dependence.h"

#include <map>

#include "analysis/sets.h"

namespace dace::transform {
namespace {

// Distance parameter of the test; a name no SDFG symbol can have (DaCe symbols are
// identifiers without this prefix in practice, and a clash would only add constraints to
// a symbol that then reads as d, making the answer more conservative, not less).
constexpr const char* kDistance = "__loop_to_map_d";

sym::Subset substitute(const sym::Subset& s, const std::map<std::string, sym::Expr>& rep) {
  sym::Subset out = s;
  for (sym::Range& r : out.dims) {
    r.start = sym::substitute(r.start, rep);
    r.end = sym::substitute(r.end, rep);
    r.step = sym::substitute(r.step, rep);
  }
  return out;
}

// nullopt = undecided; true = the write of iteration i meets `other` of some iteration j != i.
// Both iterations are kept in the loop's range by two extra dimensions, one per iteration:
// the point `i` (resp. `j`) on one side must meet the whole range on the other side.
std::optional<bool> conflicts(const BodyAccess& w, const BodyAccess& other, const std::string& var,
                              const sym::Range& iterations) {
  if (w.subset.rank() != other.subset.rank()) return std::nullopt;
  const std::optional<int64_t> step = sym::as_integer(iterations.step);
  if (!step || *step <= 0) return std::nullopt;
  // Every symbol may take any integer value: an outer loop's variable can be 0 or negative,
  // and the default (positive symbols) could hide a conflict that exists only there.
  sym::Assumptions as;
  as.unrestricted.insert(var);
  for (const BodyAccess* a : {&w, &other})
    for (const sym::Range& r : a->subset.dims)
      for (sym::Expr e : {r.start, r.end, r.step})
        for (const std::string& name : sym::free_symbols(e)) as.unrestricted.insert(name);
  for (sym::Expr e : {iterations.start, iterations.end})
    for (const std::string& name : sym::free_symbols(e)) as.unrestricted.insert(name);
  as.bounds[kDistance] = {1, std::nullopt};
  const sym::Expr shift = sym::mul(sym::integer(*step), sym::symbol(kDistance));
  const sym::Range whole{iterations.start, iterations.end, iterations.step, sym::integer(1)};
  auto point = [](sym::Expr x) { return sym::Range{x, x, sym::integer(1), sym::integer(1)}; };
  for (bool forward : {true, false}) {
    const sym::Expr j = forward ? sym::add(sym::symbol(var), shift) : sym::sub(sym::symbol(var), shift);
    sym::Subset a = w.subset, b = substitute(other.subset, {{var, j}});
    a.dims.push_back(point(sym::symbol(var)));
    b.dims.push_back(whole);
    a.dims.push_back(whole);
    b.dims.push_back(point(j));
    std::optional<bool> meet = analysis::subsets_intersect(a, b, as);
    if (!meet) return std::nullopt;
    if (*meet) return true;
  }
  return false;
}

}  // namespace

std::string carried_dependence(const std::vector<BodyAccess>& accesses, const std::string& var,
                               const sym::Range& iterations, bool* undecided) {
  *undecided = false;
  for (const BodyAccess& w : accesses) {
    if (!w.write) continue;
    for (const BodyAccess& o : accesses) {
      if (o.data != w.data) continue;
      if (o.write && !w.wcr.empty() && o.wcr == w.wcr) continue;  // resolved by the WCR
      std::optional<bool> c = conflicts(w, o, var, iterations);
      if (!c) *undecided = true;
      if (!c || *c) return w.data;
    }
  }
  return "";
}

}  // namespace dace::transform
