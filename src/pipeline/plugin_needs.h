// Which deferred plugins (plugin/deferred.h) a program needs, and loading them before the
// program is looked up in the cache or lowered: the schedules of its maps, consume scopes,
// nested SDFGs and library nodes, the storages of its containers, its library nodes' class
// paths and implementations and its C++ tasklets' code, nested SDFGs included.
#pragma once
#include "ir/result.h"
#include "ir/sdfg.h"
#include "plugin/manifest.h"

namespace dace::pipeline {

struct Backend;

// What `sdfg` uses that a plugin may provide (deterministic: sets, tasklets in walk order).
plugin::PluginNeeds plugin_needs(const ir::SDFG& sdfg);

// Loads the backend's deferred plugins that `sdfg` needs and defines their runtime symbols in
// the session; nothing without deferred plugins. Errors: the plugin's load failure
// (PluginUnavailable, plugin/loader.h), a runtime symbol the session already has.
Status load_needed_plugins(const ir::SDFG& sdfg, const Backend& backend);
// The same with the needs already computed (compile() walks the SDFG once for these and for
// its cache key).
Status load_needed_plugins(const plugin::PluginNeeds& needs, const Backend& backend);
// Whether load_needed_plugins has anything left to load: without, it needs no walk.
bool has_pending_plugins(const Backend& backend);

}  // namespace dace::pipeline
