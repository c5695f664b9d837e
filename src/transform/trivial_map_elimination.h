// TrivialMapElimination (DaCe's name and legality): removes the map dimensions that have a
// single iteration, substituting the parameter's only value into the scope; when no dimension
// is left, the map entry and exit are removed and their edges reconnected. Refused for GPU
// maps (their scopes are needed for the kernel), for maps whose last dimension would go while
// dynamic range inputs exist, and where the parameter occurs in code it cannot rewrite
// (tasklet or library-node text): there the map stays.
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class TrivialMapElimination : public SingleStateTransformation {
 public:
  std::string_view name() const override { return "TrivialMapElimination"; }
  Modifies modifies() const override { return Modifies::Scopes | Modifies::Memlets | Modifies::NestedSDFGs; }

 protected:
  size_t pattern_size() const override { return 1; }
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;

 private:
  void remove_map(const Site& site, int entry, int exit);
};

}  // namespace dace::transform
