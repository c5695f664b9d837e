// Plugins discovered with a manifest (plugin/manifest.h) and left unloaded until a program
// needs what they provide. Loading one is load_plugin, unchanged: the same statuses and
// messages (missing or corrupt file, ABI or build id mismatch, missing vendor library), only
// reported when a program needs the plugin instead of at discovery.
//
// Thread safety: every member may be called from several threads; loads are serialized.
#pragma once
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "ir/result.h"
#include "plugin/manifest.h"
#include "plugin/registry.h"

namespace dace::plugin {

struct DeferredPlugin {
  std::string path;  // the shared object
  PluginManifest manifest;
  // The shared object's size and modification time when discovery found it ("missing" when it
  // could not be read): part of the cache key, since the build id hashes only the core's
  // headers and a rebuilt plugin may provide other runtime symbols under the same version.
  std::string file_stamp;
};

// `path`'s size and modification time (nanoseconds) as text, or "missing".
std::string plugin_file_stamp(const std::string& path);

class DeferredPlugins {
 public:
  // Adds a plugin found by discovery; a later one with the name of an earlier one is ignored
  // (the first of a name wins, as in discover_plugins).
  void add(DeferredPlugin plugin);

  // Loads into `registry` every plugin not loaded yet whose manifest `needs` matches, in name
  // order, and calls `on_loaded` for each (under this object's lock, so a concurrent caller
  // that needs the same plugin returns only after it ran: the JIT session's runtime symbols
  // are defined there). The first failure is returned (PluginUnavailable, load_plugin's
  // message); a failed plugin is tried again by the next program that needs it. A plugin
  // whose query names another plugin than its manifest is PluginUnavailable too, and
  // registers nothing. A plugin whose name the registry already holds before this object
  // loaded it (discovery loaded a file of that name without a manifest) counts as loaded,
  // without `on_loaded`: its runtime symbols came with the discovery's.
  Status load_needed(Registry& registry, const PluginNeeds& needs,
                     const std::function<Status(const PluginInfo&)>& on_loaded);

  // The library class paths and class-path prefixes that the manifests of every plugin this
  // object was given declare (`library` and `library-prefix` entries), loaded since or not;
  // sorted, without duplicates.
  std::vector<std::string> declared_library_classes() const;

  // The plugins not loaded yet, by name.
  std::vector<DeferredPlugin> pending() const;
  bool has_pending() const;

  // Deterministic text naming every plugin this object was given (loaded since or not) by its
  // manifest: part of the object-cache key (jit::plugins_fingerprint covers the loaded ones).
  // Fixed once discovery is done, so a program's key does not depend on what other programs
  // made the context load before it.
  std::string fingerprint() const;

 private:
  mutable std::mutex mutex_;
  std::vector<DeferredPlugin> plugins_;  // sorted by manifest name
  std::vector<bool> loaded_;      // registered and `on_loaded` succeeded (or loaded elsewhere)
  std::vector<bool> registered_;  // registered into the registry by load_needed
};

}  // namespace dace::plugin
