// Shared pieces of the node-building parts of the C API.
#pragma once
#include <string>

#include "builder/api_text.h"
#include "ir/edit.h"
#include "ir/state.h"
#include "libdace.h"

namespace dace::capi {

// Applies dace_map_options_t (NULL = defaults) to a map scope; checks every field.
Status apply_map_options(ir::MapScope& map, const dace_map_options_t* options, const std::string& where);
// Builds a MapEntry/MapExit pair for `ranges` and inserts both; returns their ids.
void insert_map(ir::State& state, const std::string& label, MapRanges ranges, const ir::MapScope& props,
                dace_id_t* out_entry, dace_id_t* out_exit);
// Adds a connector to `node` if absent (the IR's edit, ir/edit.h).
using ir::ensure_connector;

}  // namespace dace::capi
