// Applying transformations and passes: at a location, at the first legal match, repeatedly,
// and running a pass, each recorded in the SDFG's history (history.h).
#pragma once
#include <memory>
#include <optional>

#include "transform/pass.h"
#include "transform/transformation.h"

namespace dace::transform {

// Applies `t` at `m`. InvalidArgument when the pattern does not match there or is illegal
// (the message names the transformation, the location and the reason); the SDFG is then
// unchanged.
Status apply_at(ir::SDFG& root, Transformation& t, const Match& m, AnalysisManager& am);

// Applies `t` once, at its first legal match in canonical order; nullopt when none.
Result<std::optional<Match>> apply_first(ir::SDFG& root, Transformation& t, AnalysisManager& am);

// Applies `t` at its first legal match until none is left (DaCe's apply_transformations_
// repeated); returns how many times it applied. `max_applications` guards against patterns
// that re-create themselves (Internal error when reached).
Result<int> apply_repeated(ir::SDFG& root, Transformation& t, AnalysisManager& am, int max_applications = 100000);

// Runs `pass` and records it in the history when it changed something (pipelines and pattern
// passes record their steps themselves).
Result<bool> run_pass(ir::SDFG& root, Pass& pass, AnalysisManager& am);

// A pass that applies one pattern transformation repeatedly (DaCe's PatternApplyRepeated).
class PatternPass : public Pass {
 public:
  explicit PatternPass(std::unique_ptr<Transformation> t) : t_(std::move(t)) {}
  std::string_view name() const override { return t_->name(); }
  Modifies modifies() const override { return t_->modifies(); }
  bool records_itself() const override { return true; }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;
  Transformation& transformation() { return *t_; }

 private:
  std::unique_ptr<Transformation> t_;
};

}  // namespace dace::transform
