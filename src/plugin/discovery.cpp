// Where plugins are found: DACE_PLUGIN_PATH, then the plugin folder next to libdace.so.
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>

#include "ir/log.h"
#include "plugin/build_id.h"
#include "plugin/deferred.h"
#include "plugin/loader.h"
#include "plugin/manifest.h"

namespace dace::plugin {

namespace {

constexpr const char kPrefix[] = "libdace_plugin_";
constexpr const char kSuffix[] = ".so";

bool is_plugin_file_name(const std::string& name) {
  const size_t prefix = sizeof(kPrefix) - 1;
  const size_t suffix = sizeof(kSuffix) - 1;
  return name.size() > prefix + suffix && name.compare(0, prefix, kPrefix) == 0 &&
         name.compare(name.size() - suffix, suffix, kSuffix) == 0;
}

}  // namespace

std::string default_plugin_dir() {
  Dl_info info{};
  // Any function defined in libdace locates the shared object that holds it.
  if (dladdr(reinterpret_cast<void*>(&build_id), &info) == 0 || info.dli_fname == nullptr ||
      *info.dli_fname == '\0')
    return "";
  std::error_code ec;
  std::filesystem::path lib = std::filesystem::absolute(info.dli_fname, ec);
  if (ec) return "";
  return (lib.parent_path() / "libdace" / "plugins").lexically_normal().string();
}

std::vector<std::string> split_path_list(const std::string& value) {
  std::vector<std::string> entries;
  size_t start = 0;
  while (start <= value.size()) {
    size_t end = value.find(':', start);
    if (end == std::string::npos) end = value.size();
    if (end > start) entries.push_back(value.substr(start, end - start));
    start = end + 1;
  }
  return entries;
}

std::vector<std::string> plugin_search_dirs() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("DACE_PLUGIN_PATH")) dirs = split_path_list(env);
  std::string fallback = default_plugin_dir();
  std::error_code ec;
  if (!fallback.empty() && std::filesystem::is_directory(fallback, ec)) dirs.push_back(fallback);
  return dirs;
}

std::vector<std::string> plugin_files_in(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (!is_plugin_file_name(name)) continue;
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec)) continue;  // follows symlinks
    files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

namespace {

void load_into_report(Registry& registry, const std::string& file, DiscoveryReport& report) {
  Result<PluginInfo> info = load_plugin(registry, file);
  if (info.ok()) {
    log::info("plugins", "loaded " + info->name + " " + info->version + " from " + file);
    report.loaded.push_back(std::move(*info));
  } else {
    log::write(log::Level::Warn, "plugins", "not loaded: " + info.error().message);
    report.failed.push_back(info.take_error());
  }
}

// The manifest beside `file`, if there is one that parses; a broken one is logged.
std::optional<PluginManifest> manifest_beside(const std::string& file) {
  const std::string path = manifest_path_for(file);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.good() && !in.eof()) {
    log::write(log::Level::Warn, "plugins", "cannot read " + path + "; loading " + file + " now");
    return std::nullopt;
  }
  Result<PluginManifest> m = parse_manifest(text.str(), path);
  if (!m) {
    log::write(log::Level::Warn, "plugins", m.error().message + "; loading " + file + " now");
    return std::nullopt;
  }
  return std::move(*m);
}

}  // namespace

DiscoveryReport discover_plugins(Registry& registry, const std::vector<std::string>& dirs) {
  DiscoveryReport report;
  for (const std::string& dir : dirs)
    for (const std::string& file : plugin_files_in(dir)) load_into_report(registry, file, report);
  return report;
}

DiscoveryReport discover_plugins_lazily(Registry& registry, const std::vector<std::string>& dirs,
                                        DeferredPlugins& deferred) {
  DiscoveryReport report;
  for (const std::string& dir : dirs) {
    for (const std::string& file : plugin_files_in(dir)) {
      if (std::optional<PluginManifest> m = manifest_beside(file)) {
        log::debug("plugins", "deferred " + m->name + " " + m->version + " from " + file + " (manifest)");
        deferred.add({file, std::move(*m), plugin_file_stamp(file)});
      } else {
        load_into_report(registry, file, report);
      }
    }
  }
  return report;
}

DiscoveryReport discover_plugins(Registry& registry) {
  return discover_plugins(registry, plugin_search_dirs());
}

}  // namespace dace::plugin
