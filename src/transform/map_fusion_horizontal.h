// MapFusionHorizontal: two maps in the same scope of one state that iterate over the same
// space (after renaming parameters, as vertical MapFusion pairs them) and do not depend on
// each other become one map whose body holds both bodies. The name and the properties
// `only_toplevel_maps`, `only_inner_maps`, `only_if_common_ancestor` are those of newer
// DaCe's MapFusionHorizontal (dace/transformation/dataflow/map_fusion_horizontal.py);
// DaCe 1.0.2 has no such class, so it cannot replay this history entry.
// Legal only when no path of the state leads from one map to the other, neither writes a
// container the other reads or writes (by name, views and references refused: stricter than
// DaCe, which only asks for the absence of a path), the schedules are equal, neither has
// dynamic range inputs, and renaming the second map's parameters captures nothing.
// Connectors are never consolidated: the second map's keep their own (renamed on a clash).
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class MapFusionHorizontal : public SingleStateTransformation {
 public:
  MapFusionHorizontal();
  std::string_view name() const override { return "MapFusionHorizontal"; }
  Modifies modifies() const override { return Modifies::Scopes | Modifies::Memlets; }

 protected:
  size_t pattern_size() const override { return 2; }  // first_parallel_map_entry, second_parallel_map_entry
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;

 private:
  bool only_toplevel_maps_ = false;
  bool only_inner_maps_ = false;
  bool only_if_common_ancestor_ = false;
};

}  // namespace dace::transform
