// MakeTransientsPersistent: DaCe's auto_optimize helper `make_transients_persistent` as a pass.
// A transient array whose every access node is outside any scope, and whose size depends only
// on the SDFG's arguments (no symbol assigned inside), gets lifetime Persistent: it is
// allocated once when the program is initialized (and again when a call brings other symbol
// values) instead of on every call, so a call no longer pays for allocating and first-touching
// (page faults) its large temporaries. Differences from DaCe: only the root SDFG (nested
// SDFGs may run inside parallel maps, where one persistent buffer would be shared by all
// threads), only arrays (scalars, and arrays of constant size up to 4 KiB, stay on the stack,
// which is faster than a buffer in the program's state), and only lifetime Scope is changed
// (Global, Persistent and External are left as they are). Persistent transients make a
// program's calls non-reentrant, as in DaCe.
#pragma once
#include "transform/pass.h"

namespace dace::transform {

class MakeTransientsPersistent : public Pass {
 public:
  std::string_view name() const override { return "MakeTransientsPersistent"; }
  Modifies modifies() const override { return Modifies::Descriptors; }
  Modifies depends_on() const override { return Modifies::Descriptors | Modifies::Nodes | Modifies::States; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;
};

}  // namespace dace::transform
