// The transformation history (DESIGN.md §5): every applied pattern transformation and every
// pass that changed the SDFG, in order, kept in the root SDFG's `transformation_hist`
// attribute in DaCe's serialized form, so it is saved and loaded with the SDFG:
//   {"type": "PatternTransformation", "transformation": "MapCollapse", "cfg_id": 0,
//    "state_id": 1, "_subgraph": {"0": 4, "1": 6}, "expr_index": 0, <properties>}
//   {"type": "Pass", "transformation": "DeadStateElimination", "CATEGORY": "Simplification",
//    <properties>}
// Replaying a history on the same input applies the same steps at the same ids and gives
// the same bytes (history included).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "ir/result.h"
#include "ir/sdfg.h"
#include "transform/transformation.h"

namespace dace::transform {

struct HistoryEntry {
  enum class Kind { Pattern, Pass };
  Kind kind = Kind::Pattern;
  std::string transformation;
  Match match;                        // Pattern only
  std::string properties = "{}";      // JSON object of the transformation's own properties
};

// Compact JSON of one entry (DaCe's PatternTransformation / Pass to_json).
std::string to_json(const HistoryEntry& e);
// Parses one entry (an object) or a list of them; errors name the index and key.
Result<std::vector<HistoryEntry>> parse_history(std::string_view json);
// A JSON list of entries, one per line (what `dace optimize --record` writes).
std::string history_json(const std::vector<HistoryEntry>& entries);

// Appends to `root`'s transformation_hist.
void record(ir::SDFG& root, const HistoryEntry& e);
// The entries stored in `root` (DaCe-written ones of other types are skipped).
std::vector<HistoryEntry> history_of(const ir::SDFG& root);
// How many entries `root` holds, whatever their type.
size_t history_size(const ir::SDFG& root);

}  // namespace dace::transform
