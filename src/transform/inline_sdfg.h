// InlineSDFG (DaCe's name and meaning, dace/transformation/interstate/sdfg_nesting.py): a
// nested SDFG of a single state is replaced by that state's contents. Inner access nodes of
// connector containers become the outer nodes the connectors were attached to (memlets
// renamed and offset by the outer subset, unsqueezed where the outer subset has more
// dimensions), inner transients become outer transients (renamed on a clash: `label_name`,
// then `_0`, `_1`...), and the symbol mapping is substituted into memlets, map ranges,
// descriptors and deeper symbol mappings. Inside a map scope, inlined nodes without inputs
// (outputs) hang on the scope's entry (exit) by empty memlets. A node whose schedule is not
// Default first has its nested SDFG re-defaulted from it, as DaCe's apply does
// (default_schedules.h; FPGA schedules are refused).
//
// Legal only when (a subset of DaCe's conditions; where DaCe adds reshaping views or rewrites
// code we refuse): the nested SDFG has one block, a state, and no global/init/exit code; no
// `no_inline`; every connector has exactly one non-empty outer edge (empty ones only from the
// scope entry / to the scope exit), without other subset, to an Array or Scalar that is not a
// view; WCR only on outputs whose inner writes all carry the same WCR; each connector's inner container is a non-transient Array or Scalar whose
// rank the outer subset can carry (equal, or the outer size-one dimensions dropped), with
// unit outer steps, no descriptor offset and strides equal to the outer ones on the kept
// dimensions; inner access nodes of an input are sources, those of an output sinks, and
// each connector has at least one (unused connectors on scopes are refused); copies between
// access nodes name the connector's side explicitly; a symbol whose mapping is not the
// identity occurs only in tasklets' main code, and only when the value is a sum or product of
// symbols and integers (rewritten there as text), and is not captured by an inner map
// parameter; no consume scopes or streams, views or references inside; constants agree.
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class InlineSDFG : public SingleStateTransformation {
 public:
  std::string_view name() const override { return "InlineSDFG"; }
  Modifies modifies() const override {
    return Modifies::States | Modifies::Nodes | Modifies::Memlets | Modifies::Descriptors;
  }
  // For the InlineSDFGs pass, which visits nested SDFGs directly rather than by match.
  bool can_inline(ir::SDFG& sdfg, ir::State& state, int node);
  Status inline_node(ir::SDFG& sdfg, ir::State& state, int node);

 protected:
  size_t pattern_size() const override { return 1; }
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;
};

}  // namespace dace::transform
