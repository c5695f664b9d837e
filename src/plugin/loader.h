// Loading plugins (shared objects exporting dace_plugin_query) into a Registry.
//
// Thread safety: load_plugin and discover_plugins may be called from several threads; loads
// are serialized process-wide (a plugin's query and register functions never run
// concurrently), while lookups on the registry proceed in parallel. A register function
// must therefore not load plugins itself.
#pragma once
#include <string>
#include <vector>

#include "ir/result.h"
#include "plugin/registry.h"

namespace dace::plugin {
class DeferredPlugins;
}

namespace dace::plugin {

// Loads the plugin at `path` and merges its registrations into `registry`, all or nothing.
// The library is opened with RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE and never closed (it may
// own OpenMP or driver threads). The plugin's vendor libraries are loaded permanently too.
// Loading a plugin whose name `registry` already holds is a no-op returning the existing
// info. Every failure is Code::PluginUnavailable with a message naming the path and the
// reason: missing file, not a shared object or unresolved dependency (the loader's text),
// missing dace_plugin_query, ABI version or build id mismatch, a failing register function
// or registration, a conflict with another plugin, a missing required vendor library.
// A non-empty `expected_name` (the plugin's manifest, plugin/deferred.h) must be the name the
// plugin's query returns, checked before anything is registered: "plugin \"<path>\": its
// manifest names plugin \"x\", the plugin is \"y\"".
Result<PluginInfo> load_plugin(Registry& registry, const std::string& path, const std::string& expected_name = "");

// The entries of a colon-separated directory list (PATH style), empty entries skipped.
std::vector<std::string> split_path_list(const std::string& value);

// Directories searched for plugins, in order: the entries of DACE_PLUGIN_PATH
// (colon-separated, empty entries skipped), then `default_plugin_dir()` when it exists.
std::vector<std::string> plugin_search_dirs();

// "<directory of the loaded libdace.so>/libdace/plugins" (found with dladdr); "" if unknown.
std::string default_plugin_dir();

// The files named libdace_plugin_*.so directly in `dir`, sorted by name; none if `dir`
// cannot be read.
std::vector<std::string> plugin_files_in(const std::string& dir);

struct DiscoveryReport {
  std::vector<PluginInfo> loaded;  // in load order (no-ops included)
  std::vector<Error> failed;       // one PluginUnavailable per plugin that could not load
};

// Loads every plugin file of `dirs` (in order, files sorted within a directory). A failing
// plugin does not stop the others: a missing CUDA driver must not hide the CPU backend.
DiscoveryReport discover_plugins(Registry& registry, const std::vector<std::string>& dirs);

// discover_plugins(registry, plugin_search_dirs()).
DiscoveryReport discover_plugins(Registry& registry);

// As discover_plugins, except that a plugin file with a manifest beside it
// (manifest_path_for, plugin/manifest.h) is not loaded but added to `deferred`, to be
// loaded when a program needs it. A manifest that cannot be read or parsed is logged and
// its plugin loaded now, as if it had none.
DiscoveryReport discover_plugins_lazily(Registry& registry, const std::vector<std::string>& dirs,
                                        DeferredPlugins& deferred);

}  // namespace dace::plugin
