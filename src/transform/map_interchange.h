// MapInterchange (DaCe's name and semantics): two perfectly nested maps swap places, the
// outer one becoming the inner one. The nodes keep their identity (the outer map's entry
// and exit, with their parameters, now sit inside), as in DaCe, so later history entries
// name the same nodes. Legal when the inner range does not depend on an outer parameter,
// the outer scope holds nothing but the inner map, every path through the inner entry/exit
// continues one-to-one, the parameter names differ and neither map has dynamic range inputs.
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class MapInterchange : public SingleStateTransformation {
 public:
  std::string_view name() const override { return "MapInterchange"; }
  Modifies modifies() const override { return Modifies::Scopes | Modifies::Memlets; }

 protected:
  size_t pattern_size() const override { return 2; }  // outer_map_entry, inner_map_entry
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;
};

}  // namespace dace::transform
