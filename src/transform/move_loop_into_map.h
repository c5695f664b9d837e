// MoveLoopIntoMap (DaCe's name and semantics, dace/transformation/interstate/move_loop_into_map.py):
// `for i: map j: body(i, j)` becomes `map j: for i: body(i, j)`. The loop's body state takes
// the loop's place; the map's contents move into a nested SDFG (inside the map) that holds a
// copy of the loop around them, with whole containers passed in and out (DaCe's nesting with
// full data) and every outer symbol mapped to itself.
// Legal (DaCe's checks, on a LoopRegion): the header is `i = a; i < b; i = i + s` with s = ±1;
// the body is one state, one weakly connected component, with exactly one map whose range
// and whose containers' descriptors do not use `i`; no memlet dimension depends on both `i`
// and a map parameter; where it depends on `i` it is an index injective in `i`, in the same
// dimensions for every memlet of a container. Stricter than DaCe, which misses dependences
// between map iterations across loop iterations (map iteration j reading in iteration i+1
// what iteration j+1 wrote in iteration i): every container the map writes is accessed, by
// all its memlets in the scope, at the same element as a function of the map parameters, one
// that determines each parameter (a dimension `p + c` per parameter), so distinct map
// iterations never share an element of it. Scope here: the state is access nodes around the
// map, the map holds tasklets, nested SDFGs, transient access nodes and nested map scopes (which
// move whole; a written container's dimension using both the map's and a nested map's
// parameters is refused), no WCR writes, no dynamic map inputs.
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class MoveLoopIntoMap : public ControlFlowTransformation {
 public:
  std::string_view name() const override { return "MoveLoopIntoMap"; }
  Modifies modifies() const override {
    return Modifies::States | Modifies::InterstateEdges | Modifies::Nodes | Modifies::Memlets | Modifies::Symbols |
           Modifies::NestedSDFGs;
  }

 protected:
  size_t pattern_size() const override { return 1; }  // the loop
  void region_matches(const ir::ControlFlowRegion& region, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& blocks) override;
  Status apply_at(const Site& site, const std::vector<int>& blocks) override;
};

}  // namespace dace::transform
