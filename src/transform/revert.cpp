#include "transform/revert.h"

#include <string>
#include <vector>

#include "ir/json/sdfg_json.h"
#include "transform/history.h"
#include "transform/replay.h"

namespace dace::transform {

Result<std::unique_ptr<ir::SDFG>> reverted(const ir::SDFG& root, size_t steps) {
  const size_t n = history_size(root);
  if (steps > n)
    return make_error(Code::InvalidArgument, "cannot revert " + std::to_string(steps) + " steps of sdfg \"" +
                                                 root.name + "\": its history holds " + std::to_string(n));
  if (steps == 0) return root.clone_sdfg();
  std::optional<std::string> original = original_of(root);
  if (!original)
    return make_error(Code::NotFound, "sdfg \"" + root.name +
                                          "\" holds no original (orig_sdfg) to revert to: the SDFG before its first "
                                          "step was not stored");
  // Only the kept entries are replayed: reverting all steps of a file DaCe wrote gives its
  // original even when the entries are of kinds we cannot replay (library expansions).
  Result<std::vector<HistoryEntry>> kept = stored_history(root, n - steps);
  if (!kept.ok()) {
    Error e = kept.take_error();
    e.message = "cannot revert sdfg \"" + root.name + "\": " + e.message;
    return e;
  }
  Result<std::unique_ptr<ir::SDFG>> parsed = ir::json::read_sdfg(*original);
  if (!parsed.ok()) {
    Error e = parsed.take_error();
    e.message = "sdfg \"" + root.name + "\": its original (orig_sdfg) is unreadable: " + e.message;
    return e;
  }
  std::unique_ptr<ir::SDFG> result = std::move(*parsed);
  // DaCe's copy has an empty history and no original of its own; whatever a file holds there
  // is not part of this SDFG's past.
  result->extra.erase("transformation_hist");
  result->extra.erase(kOriginalKey);
  AnalysisManager am;
  DACE_TRY(replay(*result, *kept, am));
  // The replay stored its own copy of the original; keep the text as it was stored, so that
  // a file DaCe wrote keeps DaCe's original and reverting twice gives the same bytes.
  if (!kept->empty()) result->extra[kOriginalKey] = root.extra.at(kOriginalKey);
  return result;
}

}  // namespace dace::transform
