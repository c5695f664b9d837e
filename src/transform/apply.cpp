#include "transform/apply.h"

#include "transform/history.h"

namespace dace::transform {

Status apply_at(ir::SDFG& root, Transformation& t, const Match& m, AnalysisManager& am) {
  if (!t.can_be_applied(root, m, am)) {
    std::string why = t.why_not();
    // Resolution errors already name the transformation and location.
    if (why.rfind(std::string(t.name()) + " at ", 0) != 0)
      why = std::string(t.name()) + " at " + to_string(m) + ": " + (why.empty() ? "does not apply" : why);
    return make_error(Code::InvalidArgument, why);
  }
  OriginalSnapshot before(root);
  const Status applied = t.apply(root, m, am);
  root.touch();  // edits through element pointers stamp nothing themselves (ir::SDFG::last_change)
  DACE_TRY(applied);
  record(root, HistoryEntry{HistoryEntry::Kind::Pattern, std::string(t.name()), m, t.properties().to_json()}, &before);
  return Status::success();
}

Result<std::optional<Match>> apply_first(ir::SDFG& root, Transformation& t, AnalysisManager& am) {
  for (const Match& m : t.enumerate(root, am)) {
    if (!t.can_be_applied(root, m, am)) continue;
    DACE_TRY(apply_at(root, t, m, am));
    return std::optional<Match>(m);
  }
  return std::optional<Match>();
}

Result<int> apply_repeated(ir::SDFG& root, Transformation& t, AnalysisManager& am, int max_applications) {
  int applied = 0;
  while (true) {
    Result<std::optional<Match>> m = apply_first(root, t, am);
    if (!m.ok()) return m.take_error();
    if (!*m) return applied;
    if (++applied >= max_applications)
      return make_error(Code::Internal, std::string(t.name()) + ": still matching after " +
                                            std::to_string(max_applications) + " applications");
  }
}

Result<bool> run_pass(ir::SDFG& root, Pass& pass, AnalysisManager& am) {
  // Pipelines and pattern passes record (and snapshot) their steps themselves.
  std::optional<OriginalSnapshot> before;
  if (!pass.records_itself()) before.emplace(root);
  Result<bool> changed = pass.apply(root, am);
  // A pass edits through element pointers too, which stamp nothing (ir::SDFG::last_change);
  // one that failed may have edited before it did.
  if (!changed.ok() || *changed) root.touch();
  if (!changed.ok()) return changed;
  if (*changed) {
    am.invalidate(pass.modifies());
    if (!pass.records_itself())
      record(root, HistoryEntry{HistoryEntry::Kind::Pass, std::string(pass.name()), {}, pass.properties().to_json()},
             &*before);
  }
  return changed;
}

Result<bool> PatternPass::apply(ir::SDFG& sdfg, AnalysisManager& am) {
  Result<int> n = apply_repeated(sdfg, *t_, am);
  if (!n.ok()) return n.take_error();
  return *n > 0;
}

}  // namespace dace::transform
