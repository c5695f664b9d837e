// The dependence test of LoopToMap: whether iterations of a loop touch the same element of a
// container where one of them writes it. Decided with ISL through analysis/sets.h.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ir/symbolic/expr.h"
#include "transform/symbol_ranges.h"

namespace dace::transform {

// One memlet of the loop body at the state's top level, in terms of the loop variable.
struct BodyAccess {
  std::string data;
  sym::Subset subset;
  bool write = false;
  std::string wcr;  // empty = plain write (or read)
};

// The first container with a carried dependence ("" when none): some element written by
// iteration i is read or written by an iteration j = i ± |step|·d, d >= 1, both i and j in
// `iterations` (the loop's ascending range, inclusive end), for some integer value of the
// free symbols. Two WCR writes with the same operator do not conflict (the map resolves
// them). When ISL cannot decide, the container is reported too, with `*undecided` set.
// `known` holds the ranges of symbols where the loop runs (symbol_ranges.h, the loop's own
// block), none of which the body changes; the free symbols take only values inside them, and
// any integer value when they are not listed.
std::string carried_dependence(const std::vector<BodyAccess>& accesses, const std::string& var,
                               const sym::Range& iterations, const SymbolRanges::Table& known, bool* undecided);

}  // namespace dace::transform
