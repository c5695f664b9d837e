#include "transform/replay.h"

#include "transform/apply.h"
#include "transform/registry.h"

namespace dace::transform {

Status apply_entry(ir::SDFG& root, const HistoryEntry& e, AnalysisManager& am) {
  if (e.kind == HistoryEntry::Kind::Pattern) {
    std::unique_ptr<Transformation> t = make_transformation(e.transformation);
    if (!t) return make_error(Code::NotFound, "unknown transformation \"" + e.transformation + "\"");
    DACE_TRY(t->properties().set_from_json(e.properties));
    return apply_at(root, *t, e.match, am);
  }
  std::unique_ptr<Pass> p = make_pass(e.transformation);
  if (!p) return make_error(Code::NotFound, "unknown pass \"" + e.transformation + "\"");
  DACE_TRY(p->properties().set_from_json(e.properties));
  Result<bool> changed = run_pass(root, *p, am);
  if (!changed.ok()) return changed.take_error();
  return Status::success();
}

Status replay(ir::SDFG& root, const std::vector<HistoryEntry>& entries, AnalysisManager& am) {
  for (size_t i = 0; i < entries.size(); ++i) {
    Status s = apply_entry(root, entries[i], am);
    if (!s.ok()) {
      Error err = s.take_error();
      err.message = "history entry " + std::to_string(i) + " (" + entries[i].transformation + "): " + err.message;
      return err;
    }
  }
  return Status::success();
}

}  // namespace dace::transform
