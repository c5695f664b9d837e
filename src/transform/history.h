// The transformation history (DESIGN.md §5): every applied pattern transformation and every
// pass that changed the SDFG, in order, kept in the root SDFG's `transformation_hist`
// attribute in DaCe's serialized form, so it is saved and loaded with the SDFG:
//   {"type": "PatternTransformation", "transformation": "MapCollapse", "cfg_id": 0,
//    "state_id": 1, "_subgraph": {"0": 4, "1": 6}, "expr_index": 0, <properties>}
//   {"type": "Pass", "transformation": "DeadStateElimination", "CATEGORY": "Simplification",
//    <properties>}
// Replaying a history on the same input applies the same steps at the same ids and gives
// the same bytes (history included).
// When the first step is recorded, the SDFG as it was before it is stored too, as DaCe's
// `orig_sdfg` attribute (the whole SDFG's JSON object, without history and original), so that
// a saved file can be reverted (revert.h): replaying the first n - k entries on the original.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
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

// The attribute that holds the original (DaCe's SDFG.orig_sdfg).
inline constexpr const char* kOriginalKey = "orig_sdfg";

// Taken before a step that may be recorded: a copy of `root` when that step would be the first
// one (the history is empty and no original is stored), else nothing. Cheap afterwards.
class OriginalSnapshot {
 public:
  explicit OriginalSnapshot(const ir::SDFG& root);
  // The copy, once; null when none was taken or it was already taken out.
  std::unique_ptr<ir::SDFG> take() { return std::move(before_); }

 private:
  std::unique_ptr<ir::SDFG> before_;
};

// Appends to `root`'s transformation_hist. With a snapshot that holds a copy and no original
// stored yet, the copy is stored as `root`'s original first.
void record(ir::SDFG& root, const HistoryEntry& e, OriginalSnapshot* before = nullptr);
// The stored original as JSON text (an object; DaCe's older string form is unwrapped);
// nullopt when there is none (absent or null).
std::optional<std::string> original_of(const ir::SDFG& root);
// The entries stored in `root` (DaCe-written ones of other types are skipped).
std::vector<HistoryEntry> history_of(const ir::SDFG& root);
// The first `count` stored entries (all by default), strictly: an entry of a type that cannot
// be replayed (DaCe's other kinds) is an error naming its index. A stored value that is no
// list counts as empty.
Result<std::vector<HistoryEntry>> stored_history(const ir::SDFG& root, size_t count = SIZE_MAX);
// How many entries `root` holds, whatever their type.
size_t history_size(const ir::SDFG& root);

}  // namespace dace::transform
