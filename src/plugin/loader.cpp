#include "plugin/loader.h"

#include <dlfcn.h>

#include <cstring>
#include <exception>
#include <filesystem>
#include <mutex>
#include <string>
#include <system_error>

#include "libdace_plugin.h"
#include "plugin/build_id.h"
#include "plugin/open_library.h"

namespace dace::plugin {

namespace {

// Serializes plugin loads process-wide: dlerror() text, a plugin's static state during
// register_fn and the check-then-merge of one registry must not interleave.
std::mutex& load_mutex() {
  static std::mutex m;
  return m;
}

Error unavailable(const std::string& path, const std::string& reason) {
  return make_error(Code::PluginUnavailable, "plugin \"" + path + "\": " + reason);
}

bool valid_plugin_name(const char* name) {
  if (name == nullptr || *name == '\0') return false;
  for (const char* c = name; *c != '\0'; ++c) {
    bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_' || *c == '.' || *c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string quoted_or_null(const char* s) {
  return s == nullptr ? std::string("(null)") : "\"" + std::string(s) + "\"";
}

// Resolves `path` to an absolute regular file, so that dlopen never falls back to the
// library search path for a name without a slash.
Result<std::string> check_file(const std::string& path) {
  if (path.empty()) return unavailable(path, "empty path");
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path abs = fs::absolute(fs::path(path), ec);
  if (ec) return unavailable(path, "cannot resolve path: " + ec.message());
  fs::file_status st = fs::status(abs, ec);
  if (ec || !fs::exists(st)) return unavailable(path, "file not found");
  if (!fs::is_regular_file(st)) return unavailable(path, "not a regular file");
  return abs.lexically_normal().string();
}

// Loads the required vendor libraries of `staging` permanently and records the outcome; the
// optional ones stay deferred until a lowering or a listing asks for them.
Status load_vendor_libraries(Registry& staging, const std::string& path) {
  for (const VendorLibrary& lib : staging.known_vendor_libraries()) {
    if (!lib.required) continue;
    std::string error;
    if (open_library_permanently(lib.name, error) == nullptr)
      return unavailable(path, "required vendor library \"" + lib.name + "\" cannot be loaded: " + error);
    staging.set_vendor_library_status(lib.name, true, "");
  }
  return Status::success();
}

Status run_register(const dace_plugin_info_t& info, Registry& staging, const std::string& path) {
  int32_t rc = 0;
  try {
    rc = info.register_fn(staging.handle());
  } catch (const std::exception& e) {
    return unavailable(path, std::string("register function threw: ") + e.what());
  } catch (...) {
    return unavailable(path, "register function threw an exception");
  }
  Status first = staging.first_error();
  if (!first.ok()) return unavailable(path, "registration failed: " + first.error().message);
  if (rc != 0) return unavailable(path, "register function returned " + std::to_string(rc));
  return Status::success();
}

}  // namespace

Result<PluginInfo> load_plugin(Registry& registry, const std::string& path, const std::string& expected_name) {
  Result<std::string> file = check_file(path);
  if (!file.ok()) return file.take_error();
  const std::string& abs = *file;

  std::lock_guard<std::mutex> guard(load_mutex());
  std::string error;
  void* handle = open_library_permanently(abs, error);
  if (handle == nullptr) return unavailable(path, "cannot be loaded: " + error);

  dlerror();
  void* sym = dlsym(handle, DACE_PLUGIN_QUERY_SYMBOL);
  if (sym == nullptr)
    return unavailable(path, "does not export " DACE_PLUGIN_QUERY_SYMBOL);
  dace_plugin_query_fn query = nullptr;
  static_assert(sizeof(query) == sizeof(sym));
  std::memcpy(&query, &sym, sizeof(query));  // object → function pointer, as POSIX allows

  const dace_plugin_info_t* info = query(DACE_PLUGIN_ABI_VERSION);
  if (info == nullptr)
    return unavailable(path, "does not support plugin ABI version " +
                                 std::to_string(DACE_PLUGIN_ABI_VERSION));
  // Only abi_version may be read before it matches: later members may have moved.
  if (info->abi_version != DACE_PLUGIN_ABI_VERSION)
    return unavailable(path, "plugin ABI version " + std::to_string(info->abi_version) +
                                 ", this libdace expects " +
                                 std::to_string(DACE_PLUGIN_ABI_VERSION));
  if (!valid_plugin_name(info->name))
    return unavailable(path, "invalid plugin name " + quoted_or_null(info->name));

  PluginInfo out;
  out.name = info->name;
  out.version = info->version != nullptr ? info->version : "";
  out.build_id = info->build_id != nullptr ? info->build_id : "";
  out.path = abs;
  out.abi_version = info->abi_version;

  // Checked before anything is registered, but after the checks an eager load makes, so that
  // a wrong build still fails as it does there.
  const bool misnamed = !expected_name.empty() && expected_name != out.name;
  auto refuse_misnamed = [&] {
    return unavailable(path, "its manifest names plugin \"" + expected_name + "\", the plugin is \"" + out.name + "\"");
  };

  // The same plugin twice (another directory, a symlink, an explicit load) is a no-op.
  for (const PluginInfo& loaded : registry.plugins())
    if (loaded.name == out.name) {
      if (misnamed) return refuse_misnamed();
      return loaded;
    }

  if (info->build_id == nullptr || std::strcmp(info->build_id, build_id()) != 0)
    return unavailable(path, "plugin \"" + out.name + "\" was built for libdace build " +
                                 quoted_or_null(info->build_id) + ", this libdace is build \"" +
                                 build_id() + "\"");
  if (info->register_fn == nullptr)
    return unavailable(path, "plugin \"" + out.name + "\" has no register function");
  if (misnamed) return refuse_misnamed();

  Registry staging(out.name);
  DACE_TRY(run_register(*info, staging, path));
  DACE_TRY(load_vendor_libraries(staging, path));

  Result<bool> merged = registry.adopt(staging, out);
  if (!merged.ok()) return unavailable(path, merged.error().message);
  if (!*merged) {
    for (const PluginInfo& loaded : registry.plugins())
      if (loaded.name == out.name) return loaded;
  }
  return out;
}

}  // namespace dace::plugin
