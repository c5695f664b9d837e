// What RedundantArray and RedundantSecondArray share: their pattern (two access nodes joined
// by a copy) and the legality of the two containers, one of which the transformation removes.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "ir/sdfg.h"
#include "ir/state.h"

namespace dace::transform {

// Matches of `in_array -> out_array`: every pair of distinct access nodes joined by an edge,
// once, ascending.
void access_copy_matches(const ir::State& state, std::vector<std::vector<int>>& out);

// An Array or a Scalar (not a view, reference or stream).
bool plain_container(const ir::DataDescriptor& d);

// Why the copy between `removed` and `kept` cannot lose `removed` (empty when it can): both
// are declared; `removed` is a transient Array or Scalar living at most for the SDFG call,
// with one access node in the whole SDFG, not named by control flow; `kept` is an Array or
// Scalar of the same dtype and storage.
std::string copy_pair_problem(const ir::SDFG& sdfg, const std::string& removed, const std::string& kept);

// The nodes reachable from `from` along (forward) or against (backward) the edges.
std::set<int> reachable_nodes(const ir::State& s, int from, bool forward);

}  // namespace dace::transform
