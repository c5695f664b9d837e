// Which states are nested in which (issue 10 item 2), recorded while they are alive, so that the
// AnalysisManager can drop the analyses of the states nested in a state after a nested SDFG was
// removed there, when those states may be freed and their addresses reused. Only pointers are
// compared once recorded, never dereferenced. Flat vectors: a few dozen states, and clearing
// keeps their capacity, so the records cost no allocation once warm.
#pragma once
#include <utility>
#include <vector>

#include "ir/state.h"

namespace dace::transform {

class StateNesting {
 public:
  // Records, on the first call for `state` since it was last forgotten, the states of the nested
  // SDFGs inside it (at any depth). A nested state seen before any state holding it is unplaced.
  void note(const ir::State& state);
  // Forgets `state`'s records and returns the states recorded as nested in it, at any depth
  // (their records forgotten too).
  std::vector<const ir::State*> take_nested_in(const ir::State* state);
  // Returns the unplaced states and forgets them with what is recorded under them.
  std::vector<const ir::State*> take_unplaced();
  void clear() {
    walked_.clear();
    holders_.clear();
    unplaced_.clear();
  }

 private:
  void walk(const ir::State& state);
  bool walked(const ir::State* state) const;
  void forget(const ir::State* state, std::vector<const ir::State*>& nested);

  std::vector<const ir::State*> walked_;  // sorted: states whose nested states are recorded
  std::vector<std::pair<const ir::State*, const ir::State*>> holders_;  // (nested state, holding state)
  std::vector<const ir::State*> unplaced_;
};

}  // namespace dace::transform
