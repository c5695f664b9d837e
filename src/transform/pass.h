// A pass: a whole-SDFG rewrite or cleanup with declared effects (DaCe's ppl.Pass, LLVM's
// new-PM passes). `modifies()` bounds what `apply` may change, so that the analysis manager
// keeps what is still valid; `depends_on()` says which modifications by other passes can
// give this pass new work, so that a fixed-point pipeline skips passes with nothing to do.
#pragma once
#include <string>
#include <string_view>

#include "ir/result.h"
#include "ir/sdfg.h"
#include "transform/analysis_manager.h"
#include "transform/modifies.h"
#include "transform/properties.h"

namespace dace::transform {

class Pass {
 public:
  Pass() = default;
  Pass(const Pass&) = delete;
  Pass& operator=(const Pass&) = delete;
  virtual ~Pass() = default;
  virtual std::string_view name() const = 0;
  virtual Modifies modifies() const = 0;
  // DaCe's should_reapply: by default, any change may enable this pass again.
  virtual Modifies depends_on() const { return Modifies::Everything; }
  // Runs on `sdfg` (the root SDFG: nested SDFGs are the pass's business). Returns whether
  // anything changed. A pass that fails leaves the SDFG valid (it checks before editing).
  virtual Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) = 0;
  // Pipelines and pattern passes record their own steps in the history; other passes are
  // recorded as one entry by whoever runs them (apply.h: run_pass).
  virtual bool records_itself() const { return false; }

  Properties& properties() { return props_; }
  const Properties& properties() const { return props_; }

 protected:
  Properties props_;
};

}  // namespace dace::transform
