// A request to apply a transformation or pass by name with JSON properties, as the C API
// (dace_sdfg_apply_transformation) and the CLI (`dace optimize --apply NAME:PROPS`) receive it:
// the name checked against the registry, the properties turned into a history entry, and the
// transformation configured from it. One parser, so both front ends accept the same requests
// and report the same errors.
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "ir/result.h"
#include "transform/history.h"
#include "transform/transformation.h"

namespace dace::transform {

// Every registered name, comma-separated, for "unknown transformation" messages.
std::string known_names_text();
// NotFound naming `name` and listing the known ones when no transformation or pass has it.
Status require_known(std::string_view name);
// `props_json` (empty = no properties) as a history entry of `name`. The object may hold a
// location (cfg_id, state_id, _subgraph, expr_index) besides the transformation's properties,
// and "type" / "transformation" keys as a history entry or a match carries them (the name
// must then agree). ParseError for malformed JSON (with its column), InvalidArgument for a
// non-object, a location given to a pass or a location without "_subgraph".
Result<HistoryEntry> entry_from_request(const std::string& name, std::string_view props_json, bool* has_location);
// Options of a step that defines none yet (auto_optimize): empty or a JSON object without
// keys. ParseError for malformed JSON, InvalidArgument for a non-object or naming the first key.
Status require_no_options(std::string_view what, std::string_view options_json);
// The pattern transformation of `e` with its properties set (InvalidArgument naming an
// unknown or mistyped property).
Result<std::unique_ptr<Transformation>> configured_transformation(const HistoryEntry& e);

}  // namespace dace::transform
