#include "transform/pipeline.h"

#include <chrono>

#include "ir/log.h"
#include "transform/apply.h"

namespace dace::transform {

Pipeline& Pipeline::add(std::unique_ptr<Pass> pass) {
  timings_.push_back(PassTiming{std::string(pass->name())});
  passes_.push_back(std::move(pass));
  return *this;
}

Modifies Pipeline::modifies() const {
  Modifies m = Modifies::Nothing;
  for (const auto& p : passes_) m |= p->modifies();
  return m;
}

Modifies Pipeline::depends_on() const {
  Modifies m = Modifies::Nothing;
  for (const auto& p : passes_) m |= p->depends_on();
  return m;
}

Result<bool> Pipeline::apply(ir::SDFG& sdfg, AnalysisManager& am) {
  // pending[i]: what other passes modified since pass i last ran; everything at the start.
  std::vector<Modifies> pending(passes_.size(), Modifies::Everything);
  bool changed_any = false;
  iterations_ = 0;
  converged_ = !fixed_point_;
  const int limit = fixed_point_ ? max_iterations_ : 1;
  while (iterations_ < limit) {
    ++iterations_;
    bool changed = false;
    for (size_t i = 0; i < passes_.size(); ++i) {
      Pass& pass = *passes_[i];
      if (!any(pending[i] & pass.depends_on())) continue;
      pending[i] = Modifies::Nothing;
      const auto start = std::chrono::steady_clock::now();
      Result<bool> r = run_pass(sdfg, pass, am);
      const auto stop = std::chrono::steady_clock::now();
      PassTiming& t = timings_[i];
      const double pass_ms = std::chrono::duration<double, std::milli>(stop - start).count();
      t.ms += pass_ms;
      if (log::enabled(log::Level::Debug))
        log::debug("optimizer", name_ + " iteration " + std::to_string(iterations_) + ": " + std::string(pass.name()) +
                                    " " + log::ms(pass_ms) +
                                    (r.ok() ? (*r ? ", changed" : ", no change") : ", failed"));
      ++t.runs;
      if (!r.ok()) {
        am.clear();  // a failing pass may have edited before it failed; trust nothing cached
        return r.take_error();
      }
      if (!*r) continue;
      ++t.changed;
      changed = changed_any = true;  // run_pass invalidated the analyses
      // Itself included: a pass may enable more of its own work.
      for (Modifies& p : pending) p |= pass.modifies();
    }
    if (!changed) {
      converged_ = true;
      break;
    }
  }
  return changed_any;
}

}  // namespace dace::transform
