// MapCollapse (DaCe's name and legality): two perfectly nested maps, the inner one the only
// thing in the outer scope, become one map over both parameter lists. Refused when the inner
// range or a dynamic input of the inner map depends on an outer parameter (the product space
// would not be rectangular), when parameter names clash, or when the schedules differ.
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class MapCollapse : public SingleStateTransformation {
 public:
  std::string_view name() const override { return "MapCollapse"; }
  Modifies modifies() const override { return Modifies::Scopes | Modifies::Memlets; }

 protected:
  size_t pattern_size() const override { return 2; }  // outer_map_entry, inner_map_entry
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;
};

}  // namespace dace::transform
