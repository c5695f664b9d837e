#include "plugin/manifest.h"

#include <sstream>

namespace dace::plugin {

namespace {

std::string trim(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  const size_t end = s.find_last_not_of(" \t\r");
  return s.substr(begin, end - begin + 1);
}

}  // namespace

bool PluginManifest::needed_by(const PluginNeeds& needs) const {
  for (const std::string& s : needs.schedules)
    if (schedules.count(s)) return true;
  for (const std::string& s : needs.storages)
    if (storages.count(s)) return true;
  for (const auto& node : needs.library_nodes) {
    if (libraries.count(node)) return true;
    for (const std::string& prefix : library_prefixes)
      if (node.first.compare(0, prefix.size(), prefix) == 0) return true;
  }
  for (const std::string& code : needs.cpp_tasklet_code)
    for (const std::string& text : tasklet_code)
      if (code.find(text) != std::string::npos) return true;
  return false;
}

std::string PluginManifest::canonical_text() const {
  std::string out = "plugin " + name + "\nversion " + version + "\nbuild " + build_id + "\n";
  for (const std::string& s : schedules) out += "schedule " + s + "\n";
  for (const std::string& s : storages) out += "storage " + s + "\n";
  for (const auto& [cls, impl] : libraries) out += "library " + cls + " " + impl + "\n";
  for (const std::string& p : library_prefixes) out += "library-prefix " + p + "\n";
  for (const std::string& t : tasklet_code) out += "tasklet-code " + t + "\n";
  return out;
}

std::string manifest_path_for(const std::string& plugin_path) {
  const std::string suffix = ".so";
  std::string base = plugin_path;
  if (base.size() >= suffix.size() && base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0)
    base.resize(base.size() - suffix.size());
  return base + ".manifest";
}

Result<PluginManifest> parse_manifest(const std::string& text, const std::string& where) {
  PluginManifest m;
  bool has_name = false, has_version = false, has_build = false;
  std::istringstream in(text);
  std::string raw;
  int line_no = 0;
  auto fail = [&](const std::string& why) {
    return make_error(Code::InvalidArgument, "plugin manifest \"" + where + "\": line " + std::to_string(line_no) + ": " + why);
  };
  while (std::getline(in, raw)) {
    ++line_no;
    const std::string line = trim(raw);
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.find_first_of(" \t");
    const std::string key = line.substr(0, space);
    const std::string value = space == std::string::npos ? "" : trim(line.substr(space));
    if (value.empty()) return fail("entry \"" + key + "\" has no value");
    auto once = [&](bool& seen, std::string& field) -> Status {
      if (seen) return fail("entry \"" + key + "\" repeated");
      seen = true;
      field = value;
      return Status::success();
    };
    if (key == "plugin") {
      DACE_TRY(once(has_name, m.name));
    } else if (key == "version") {
      DACE_TRY(once(has_version, m.version));
    } else if (key == "build") {
      DACE_TRY(once(has_build, m.build_id));
    } else if (key == "schedule") {
      m.schedules.insert(value);
    } else if (key == "storage") {
      m.storages.insert(value);
    } else if (key == "library") {
      const size_t split = value.find_first_of(" \t");
      if (split == std::string::npos) return fail("entry \"library\" needs a class path and an implementation");
      m.libraries.emplace(value.substr(0, split), trim(value.substr(split)));
    } else if (key == "library-prefix") {
      m.library_prefixes.insert(value);
    } else if (key == "tasklet-code") {
      m.tasklet_code.insert(value);
    } else {
      return fail("unknown entry \"" + key + "\"");
    }
  }
  if (!has_name) return make_error(Code::InvalidArgument, "plugin manifest \"" + where + "\": no \"plugin\" entry");
  if (!has_version) return make_error(Code::InvalidArgument, "plugin manifest \"" + where + "\": no \"version\" entry");
  if (!has_build) return make_error(Code::InvalidArgument, "plugin manifest \"" + where + "\": no \"build\" entry");
  return m;
}

}  // namespace dace::plugin
