// InLocalStorage (DaCe's name, properties `array`, `prefix`, `create_array`;
// dace/transformation/dataflow/local_storage.py): the data a scope entry passes to an inner
// scope entry (`outer_entry -> inner_entry` carrying X[S]) is first copied into a new
// transient `prefix + X` the size of S's bounding box, inside the outer scope; the inner
// scope reads the transient, every memlet below the inner entry offset by S's start.
// Legal (DaCe only asks for two entries joined by a data edge; we also require what keeps
// results unchanged): the edge carries an Array or Scalar without WCR or other subset, it is
// the only edge into its inner connector, the memlets below it name X and reach tasklets,
// access nodes or further scope entries only (nested SDFGs and library nodes see the layout),
// and the bounding box does not depend on the parameters of the enclosing scopes (the
// transient's shape must be known where it is declared). `create_array = false` (reuse an
// existing container) is not supported.
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class InLocalStorage : public SingleStateTransformation {
 public:
  InLocalStorage() {
    props_.bind_string("array", &array_);
    props_.bind_string("prefix", &prefix_);
    props_.bind_bool("create_array", &create_array_);
  }
  std::string_view name() const override { return "InLocalStorage"; }
  Modifies modifies() const override { return Modifies::Descriptors | Modifies::AccessNodes | Modifies::Memlets; }

 protected:
  size_t pattern_size() const override { return 2; }  // node_a, node_b
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;

 private:
  int chosen_edge(const ir::State& s, int a, int b) const;
  std::string array_;
  std::string prefix_ = "trans_";
  bool create_array_ = true;
};

}  // namespace dace::transform
