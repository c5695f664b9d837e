#include "transform/loop_dependence.h"

#include <map>
#include <set>
#include <utility>

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

// Prefix of the slack parameters that stand for a missing side of a known range.
constexpr const char* kSlack = "__loop_to_map_slack_";

// The symbols of the question and, through their known ranges, the symbols those bounds
// use; ordered, so that the question is written the same way every time.
std::set<std::string> question_symbols(const BodyAccess& w, const BodyAccess& other, const sym::Range& iterations,
                                       const std::string& var, const SymbolRanges::Table& known) {
  std::set<std::string> out;
  std::vector<std::string> todo;
  auto note = [&](sym::Expr e) {
    if (!e) return;
    for (const std::string& name : sym::free_symbols(e))
      if (out.insert(name).second) todo.push_back(name);
  };
  for (const BodyAccess* a : {&w, &other})
    for (const sym::Range& r : a->subset.dims)
      for (sym::Expr e : {r.start, r.end, r.step}) note(e);
  for (sym::Expr e : {iterations.start, iterations.end}) note(e);
  while (!todo.empty()) {
    const std::string name = todo.back();
    todo.pop_back();
    if (name == var) continue;
    if (auto it = known.find(name); it != known.end()) {
      note(it->second.lo);
      note(it->second.hi);
    }
  }
  return out;
}

// nullopt = undecided; true = the write of iteration i meets `other` of some iteration j != i.
// Both iterations are kept in the loop's range by two extra dimensions, one per iteration:
// the point `i` (resp. `j`) on one side must meet the whole range on the other side. Each
// symbol with a known range is kept inside it the same way, by one more dimension.
std::optional<bool> conflicts(const BodyAccess& w, const BodyAccess& other, const std::string& var,
                              const sym::Range& iterations, const SymbolRanges::Table& known) {
  if (w.subset.rank() != other.subset.rank()) return std::nullopt;
  const std::optional<int64_t> step = sym::as_integer(iterations.step);
  if (!step || *step <= 0) return std::nullopt;
  // A symbol without a known range may take any integer value: the default (positive
  // symbols) could hide a conflict that exists only at 0 or below.
  sym::Assumptions as;
  as.unrestricted.insert(var);
  const std::set<std::string> symbols = question_symbols(w, other, iterations, var, known);
  for (const std::string& name : symbols) as.unrestricted.insert(name);
  as.bounds[kDistance] = {1, std::nullopt};
  auto point = [](sym::Expr x) { return sym::Range{x, x, sym::integer(1), sym::integer(1)}; };
  std::vector<std::pair<sym::Range, sym::Range>> ranged;  // (point, range) per known symbol
  for (const std::string& name : symbols) {
    auto it = known.find(name);
    if (name == var || it == known.end()) continue;
    // Constant sides are parameter bounds; a symbolic one needs the extra dimension, where a
    // missing or constant other side is the symbolic side moved by a non-negative slack.
    const std::optional<int64_t> lo_value = it->second.lo ? sym::as_integer(it->second.lo) : std::nullopt;
    const std::optional<int64_t> hi_value = it->second.hi ? sym::as_integer(it->second.hi) : std::nullopt;
    if (lo_value || hi_value) as.bounds[name] = {lo_value, hi_value};
    const sym::Expr lo = lo_value ? nullptr : it->second.lo, hi = hi_value ? nullptr : it->second.hi;
    if (!lo && !hi) continue;
    const sym::Expr slack = sym::symbol(kSlack + name);
    as.bounds[kSlack + name] = {0, std::nullopt};
    ranged.push_back({point(sym::symbol(name)), sym::Range{lo ? lo : sym::sub(hi, slack), hi ? hi : sym::add(lo, slack),
                                                            sym::integer(1), sym::integer(1)}});
  }
  const sym::Expr shift = sym::mul(sym::integer(*step), sym::symbol(kDistance));
  const sym::Range whole{iterations.start, iterations.end, iterations.step, sym::integer(1)};
  for (bool forward : {true, false}) {
    const sym::Expr j = forward ? sym::add(sym::symbol(var), shift) : sym::sub(sym::symbol(var), shift);
    sym::Subset a = w.subset, b = substitute(other.subset, {{var, j}});
    a.dims.push_back(point(sym::symbol(var)));
    b.dims.push_back(whole);
    a.dims.push_back(whole);
    b.dims.push_back(point(j));
    for (const auto& [at, within] : ranged) {
      a.dims.push_back(at);
      b.dims.push_back(within);
    }
    std::optional<bool> meet = analysis::subsets_intersect(a, b, as);
    if (!meet) return std::nullopt;
    if (*meet) return true;
  }
  return false;
}

}  // namespace

std::string carried_dependence(const std::vector<BodyAccess>& accesses, const std::string& var,
                               const sym::Range& iterations, const SymbolRanges::Table& known, bool* undecided) {
  *undecided = false;
  for (const BodyAccess& w : accesses) {
    if (!w.write) continue;
    for (const BodyAccess& o : accesses) {
      if (o.data != w.data) continue;
      if (o.write && !w.wcr.empty() && o.wcr == w.wcr) continue;  // resolved by the WCR
      std::optional<bool> c = conflicts(w, o, var, iterations, known);
      if (!c) *undecided = true;
      if (!c || *c) return w.data;
    }
  }
  return "";
}

}  // namespace dace::transform
