// Runs passes in order, optionally to a fixed point (DaCe's Pipeline / FixedPointPipeline),
// invalidating cached analyses after each pass that changed something and timing each pass.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "transform/pass.h"

namespace dace::transform {

struct PassTiming {
  std::string name;
  double ms = 0;    // total wall time of the pass's runs
  int runs = 0;     // how often it ran
  int changed = 0;  // how many of those runs changed the SDFG
};

class Pipeline : public Pass {
 public:
  explicit Pipeline(std::string name = "Pipeline") : name_(std::move(name)) {}

  Pipeline& add(std::unique_ptr<Pass> pass);
  // Repeat the whole sequence until an iteration changes nothing, at most `max_iterations`
  // times (a guard against passes that undo each other; reaching it is not an error).
  Pipeline& fixed_point(int max_iterations = 32) {
    fixed_point_ = true;
    max_iterations_ = max_iterations;
    return *this;
  }

  std::string_view name() const override { return name_; }
  Modifies modifies() const override;   // the union of the passes'
  Modifies depends_on() const override;  // the union of the passes'
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;
  bool records_itself() const override { return true; }

  const std::vector<std::unique_ptr<Pass>>& passes() const { return passes_; }
  // One entry per pass, in pipeline order; accumulated over every apply.
  const std::vector<PassTiming>& timings() const { return timings_; }
  int iterations() const { return iterations_; }  // of the last apply
  bool converged() const { return converged_; }   // the last apply reached a fixed point

 private:
  std::string name_;
  std::vector<std::unique_ptr<Pass>> passes_;
  std::vector<PassTiming> timings_;
  bool fixed_point_ = false;
  int max_iterations_ = 1;
  int iterations_ = 0;
  bool converged_ = true;
};

}  // namespace dace::transform
