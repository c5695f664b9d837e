// InlineSDFGs (DaCe's pass of that name, dace/transformation/passes/fusion_inline.py): tries
// InlineSDFG once on every nested SDFG of the whole hierarchy, innermost and last first
// (reverse pre-order, as DaCe's inline_sdfgs), so a nested SDFG is considered after its own
// nested SDFGs were inlined into it. With `multistate` (the default, as DaCe's) each node is
// first tried with InlineMultistateSDFG, when the whole hierarchy is states only (DaCe 1.0.2
// skips that inliner on SDFGs with loop regions or conditional blocks), then with InlineSDFG.
#pragma once
#include "transform/pass.h"

namespace dace::transform {

class InlineSDFGs : public Pass {
 public:
  InlineSDFGs() {
    props_.bind_bool("permissive", &permissive_);
    props_.bind_bool("multistate", &multistate_);
  }
  std::string_view name() const override { return "InlineSDFGs"; }
  Modifies modifies() const override {
    return Modifies::States | Modifies::NestedSDFGs | Modifies::Nodes | Modifies::Memlets | Modifies::Descriptors;
  }
  Modifies depends_on() const override { return Modifies::NestedSDFGs | Modifies::States; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;

 private:
  bool permissive_ = false;  // no permissive checks exist: recorded for DaCe
  bool multistate_ = true;  // InlineMultistateSDFG first, where DaCe 1.0.2 would apply it
};

}  // namespace dace::transform
