// Replaying a recorded history (history.h) on an SDFG: each pattern entry is applied at its
// recorded location (an error when it no longer matches there), each pass entry re-run.
// The replay records the same entries again, so replaying on the same input reproduces the
// same SDFG bytes, history included.
#pragma once
#include <vector>

#include "transform/history.h"

namespace dace::transform {

// Applies one entry. Errors: NotFound for an unknown name; InvalidArgument for bad
// properties or a location where the transformation does not apply.
Status apply_entry(ir::SDFG& root, const HistoryEntry& e, AnalysisManager& am);
// Applies every entry in order; stops at the first error, whose message starts with
// "history entry N (NAME): ".
Status replay(ir::SDFG& root, const std::vector<HistoryEntry>& entries, AnalysisManager& am);

}  // namespace dace::transform
