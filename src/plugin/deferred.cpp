#include "plugin/deferred.h"

#include <algorithm>
#include <set>

#include <sys/stat.h>

#include "ir/log.h"
#include "plugin/loader.h"

namespace dace::plugin {

std::string plugin_file_stamp(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "missing";
  return std::to_string(static_cast<long long>(st.st_size)) + " " + std::to_string(static_cast<long long>(st.st_mtim.tv_sec)) +
         "." + std::to_string(static_cast<long long>(st.st_mtim.tv_nsec));
}

void DeferredPlugins::add(DeferredPlugin plugin) {
  if (plugin.file_stamp.empty()) plugin.file_stamp = plugin_file_stamp(plugin.path);
  std::lock_guard<std::mutex> lock(mutex_);
  auto at = std::lower_bound(plugins_.begin(), plugins_.end(), plugin.manifest.name,
                             [](const DeferredPlugin& p, const std::string& name) { return p.manifest.name < name; });
  if (at != plugins_.end() && at->manifest.name == plugin.manifest.name) return;
  const auto index = at - plugins_.begin();
  plugins_.insert(at, std::move(plugin));
  loaded_.insert(loaded_.begin() + index, false);
  registered_.insert(registered_.begin() + index, false);
}

Status DeferredPlugins::load_needed(Registry& registry, const PluginNeeds& needs,
                                    const std::function<Status(const PluginInfo&)>& on_loaded) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < plugins_.size(); ++i) {
    if (loaded_[i] || !plugins_[i].manifest.needed_by(needs)) continue;
    const DeferredPlugin& p = plugins_[i];
    // A plugin of this name that discovery loaded from another file (one without a manifest,
    // in another directory of the search path) is in already, its runtime symbols with it:
    // loading this file would open a second copy and define its symbols a second time.
    if (!registered_[i] && registry.has_plugin(p.manifest.name)) {
      log::info("plugins", "not loading " + p.path + ": plugin " + p.manifest.name + " is loaded from another file");
      loaded_[i] = true;
      continue;
    }
    // The manifest's name is checked before the plugin registers anything.
    Result<PluginInfo> info = load_plugin(registry, p.path, p.manifest.name);
    if (!info) return info.take_error();
    registered_[i] = true;
    log::info("plugins", "loaded " + info->name + " " + info->version + " from " + p.path + " (needed by the program)");
    if (on_loaded) DACE_TRY(on_loaded(*info));
    loaded_[i] = true;
  }
  return Status::success();
}

std::vector<DeferredPlugin> DeferredPlugins::pending() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<DeferredPlugin> out;
  for (size_t i = 0; i < plugins_.size(); ++i)
    if (!loaded_[i]) out.push_back(plugins_[i]);
  return out;
}

std::vector<std::string> DeferredPlugins::declared_library_classes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::set<std::string> out;
  for (const DeferredPlugin& p : plugins_) {
    out.insert(p.manifest.library_prefixes.begin(), p.manifest.library_prefixes.end());
    for (const auto& [classpath, implementation] : p.manifest.libraries) out.insert(classpath);
  }
  return {out.begin(), out.end()};
}

bool DeferredPlugins::has_pending() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::find(loaded_.begin(), loaded_.end(), false) != loaded_.end();
}

std::string DeferredPlugins::fingerprint() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string s;
  for (const DeferredPlugin& p : plugins_)
    s += "deferred plugin " + p.manifest.name + " " + p.manifest.version + " " + p.manifest.build_id + " file " +
         p.file_stamp + "\n";
  return s;
}

}  // namespace dace::plugin
