// A plugin's manifest: a small text file installed beside its shared object
// (libdace_plugin_<name>.manifest next to libdace_plugin_<name>.so) that says what the plugin
// provides, so that discovery can leave it unloaded until a program needs it (loading the
// MPI plugin opens libmpi, the CUDA plugin its driver loader: milliseconds every process
// would pay). A plugin without a manifest is loaded when it is discovered.
//
// Format: one entry per line, `#` starts a comment line, blank lines are skipped.
//   plugin NAME              the name the plugin's query returns (required, once)
//   version TEXT             its version (required, once)
//   build ID                 its build id (required, once)
//   schedule NAME            a map, consume scope or nested SDFG with this schedule needs it
//   storage NAME             a data container with this storage needs it
//   library CLASS IMPL...    a library node of this class path and implementation needs it
//                            (the implementation is the rest of the line, spaces included)
//   library-prefix PREFIX    a library node whose class path starts with PREFIX needs it
//   tasklet-code TEXT        a C++ tasklet whose code contains TEXT needs it
// The name, version and build id are part of the object-cache key while the plugin is not
// loaded (jit/program_key.h).
#pragma once
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ir/result.h"

namespace dace::plugin {

// What one program uses that a plugin may provide (plain names: the plugin layer does not
// depend on the IR; pipeline/plugin_needs.h collects them from an SDFG).
struct PluginNeeds {
  std::set<std::string> schedules;
  std::set<std::string> storages;
  std::set<std::pair<std::string, std::string>> library_nodes;  // (class path, implementation)
  std::vector<std::string> cpp_tasklet_code;                    // code of every C++ tasklet
};

struct PluginManifest {
  std::string name, version, build_id;
  std::set<std::string> schedules, storages, library_prefixes, tasklet_code;
  std::set<std::pair<std::string, std::string>> libraries;  // (class path, implementation)

  // True when `needs` uses anything this manifest lists.
  bool needed_by(const PluginNeeds& needs) const;
  // Canonical text (sorted entries, no comments): the same manifest always gives the same
  // bytes, whatever the file's order or comments.
  std::string canonical_text() const;
};

// The manifest's path for a plugin file: "<dir>/libdace_plugin_x.so" ->
// "<dir>/libdace_plugin_x.manifest".
std::string manifest_path_for(const std::string& plugin_path);

// Parses manifest text. Errors: InvalidArgument naming `where` and the line ("line 3: unknown
// entry \"foo\"", a missing or repeated plugin/version/build entry, an entry without a value).
Result<PluginManifest> parse_manifest(const std::string& text, const std::string& where);

}  // namespace dace::plugin
