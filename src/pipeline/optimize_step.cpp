#include "pipeline/optimize_step.h"

#include "analysis/validate.h"
#include "transform/analysis_manager.h"
#include "transform/apply.h"
#include "transform/registry.h"

namespace dace::pipeline {

std::string optimizer_fingerprint(const std::string& optimizer) {
  return optimizer.empty() ? std::string() : "sdfg optimizer pass " + optimizer;
}

Result<std::unique_ptr<ir::SDFG>> run_optimizer(const ir::SDFG& g, const std::string& optimizer) {
  std::unique_ptr<transform::Pass> pass = transform::make_pass(optimizer);
  if (!pass) {
    if (transform::is_pattern_transformation(optimizer))
      return make_error(Code::InvalidArgument, "optimize \"" + optimizer +
                                                   "\": a pattern transformation, not a pass (it applies at a "
                                                   "location; apply it to the SDFG before compiling)");
    std::string known;
    for (const std::string& n : transform::registered_names())
      if (!transform::is_pattern_transformation(n)) known += (known.empty() ? "" : ", ") + n;
    return make_error(Code::NotFound, "optimize \"" + optimizer + "\": no such pass (passes: " + known + ")");
  }
  // Passes assume a valid SDFG; reporting the input's own error names what the caller built.
  DACE_TRY(analysis::validate(g));
  std::unique_ptr<ir::SDFG> copy = g.clone_sdfg();
  transform::AnalysisManager am;
  Result<bool> changed = transform::run_pass(*copy, *pass, am);
  if (!changed) return changed.take_error();
  Status valid = analysis::validate(*copy);
  if (!valid.ok())
    return make_error(Code::Internal,
                      "optimize \"" + optimizer + "\" produced an invalid SDFG: " + valid.error().message);
  return copy;
}

}  // namespace dace::pipeline
