// MapFusion (DaCe's vertical map fusion, in the semantics of DaCe's rewritten
// MapFusionVertical): the pattern first map exit -> access node -> second map entry, two
// maps over the same range in the same scope, becomes one map whose body runs the first
// body, then the second, per iteration. Legal only when one iteration of the first map
// produces everything one iteration of the second reads from the intermediate (the
// producer's subset covers each consumer's subset at the same iteration), so a consumer
// reading a neighbour element is refused. An intermediate used nowhere else is replaced by a
// per-iteration scalar (or small array) inside the fused scope and its container removed; one
// used elsewhere (non-transient, other readers, other states) is still written, from the
// fused map's exit. docs/transform-map-fusion.md lists every condition.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "transform/transformation.h"

namespace dace::transform {

// Property (DaCe's MapFusionVertical): `require_exclusive_intermediates` (default false):
// refuse unless every intermediate is removed by the fusion, none kept. auto_optimize fuses
// with it first, so a map between two others joins the consumer whose intermediate it removes
// rather than a producer whose output must stay (heat_3d's `2.0 * B` would otherwise become a
// full array written by the first stencil for the second).
class MapFusion : public SingleStateTransformation {
 public:
  MapFusion();
  std::string_view name() const override { return "MapFusion"; }
  Modifies modifies() const override {
    return Modifies::Scopes | Modifies::Memlets | Modifies::AccessNodes | Modifies::Descriptors;
  }

 protected:
  size_t pattern_size() const override { return 3; }  // first_map_exit, array, second_map_entry
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;

 private:
  // What the legality check found, reused by apply (DaCe's partition of the first map's
  // outputs). Edge ids are out-edges of the first map exit.
  struct Plan {
    int first_entry = -1, first_exit = -1, second_entry = -1, second_exit = -1;
    std::map<std::string, std::string> rename;  // second-map parameter -> first-map parameter
    std::vector<int> exclusive;  // intermediates removed (replaced inside the fused scope)
    std::vector<int> shared;     // intermediates kept as outputs of the fused map
  };
  // Fills `plan` and returns true when fusing is legal; refuses (why_not) otherwise.
  bool analyze(const Site& site, const std::vector<int>& nodes, Plan& plan);
  bool check_params(const Site& site, Plan& plan);
  bool check_bodies(const Site& site, const Plan& plan);
  bool check_read_write(const Site& site, const Plan& plan);
  bool partition(const Site& site, Plan& plan);
  // Replaces an intermediate by a per-iteration container inside the fused scope.
  void fuse_intermediate(const Site& site, const Plan& plan, int out_edge, bool exclusive);

  bool require_exclusive_intermediates_ = false;
};

}  // namespace dace::transform
