// MapExpansion (DaCe's name, properties and semantics): a map over several parameters becomes
// nested maps, one per parameter from the outside in; with `expansion_limit` k, only the
// first k parameters get maps of their own and the rest stay together in the innermost map.
// The outermost map keeps the original schedule, the others get `inner_schedule` (the
// original one when null). Refused for one-parameter maps and maps with dynamic range inputs.
#pragma once
#include <optional>

#include "transform/transformation.h"

namespace dace::transform {

class MapExpansion : public SingleStateTransformation {
 public:
  MapExpansion();
  std::string_view name() const override { return "MapExpansion"; }
  Modifies modifies() const override { return Modifies::Scopes | Modifies::Memlets; }

 protected:
  size_t pattern_size() const override { return 1; }  // map_entry
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;

 private:
  // Groups of dimension indices, outermost first.
  std::vector<std::vector<size_t>> levels(size_t dims) const;

  std::optional<std::string> inner_schedule_ = "Sequential";
  std::optional<int64_t> expansion_limit_;
};

}  // namespace dace::transform
