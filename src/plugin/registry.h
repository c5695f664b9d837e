// The plugin registry: everything the loaded plugins contribute, by name.
//
// Thread safety: every member function may be called from any thread at any time; lookups
// take a shared lock, registrations an exclusive one. Iteration (the *_names/list functions)
// is in sorted byte order, so whatever reaches output is deterministic.
//
// Ownership: each entry records the plugin that registered it (the registry's `owner`,
// "libdace" for the core itself). A name registered twice is Code::AlreadyExists naming both
// owners. A plugin registers into a fresh staging Registry owned by it; the loader merges the
// staging registry all at once (adopt), so a failing plugin leaves nothing behind.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/result.h"
#include "plugin/interfaces.h"

struct dace_plugin_registry;  // the opaque C handle of include/libdace_plugin.h

namespace dace::plugin {

// A loaded plugin, as reported by its dace_plugin_query.
struct PluginInfo {
  std::string name;
  std::string version;
  std::string build_id;
  std::string path;  // absolute path of the shared object ("" for built-ins)
  uint32_t abi_version = 0;
};

struct RuntimeSymbol {
  std::string name;
  void* address = nullptr;
  std::string owner;
};

// A shared library a plugin needs at run time (libomp.so.5, libopenblas.so.0). The loader
// loads each permanently when the plugin is loaded and records the outcome: a missing
// required library makes the plugin unavailable, a missing optional one only clears
// `available` (e.g. BLAS expansions then fall back to plain loops).
struct VendorLibrary {
  std::string name;  // dlopen name or path
  std::string owner;
  bool required = false;
  bool available = false;
  std::string error;  // the loader's message when not available
  // An optional library not tried yet: it is loaded when first asked for
  // (vendor_library_available, vendor_libraries), so that a program that needs no BLAS
  // does not pay for loading OpenBLAS (docs/plugins.md, "Vendor libraries").
  bool deferred = false;
};

template <class T>
struct Entry {
  std::shared_ptr<const T> impl;
  std::string owner;
};

class Registry {
 public:
  explicit Registry(std::string owner = "libdace");
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // The C handle passed to a plugin's register_fn, and back. from_handle(nullptr) is null.
  dace_plugin_registry* handle();
  static Registry* from_handle(dace_plugin_registry* handle);

  const std::string& owner() const { return owner_; }

  // Registrations. InvalidArgument for an empty name or a null implementation/address;
  // AlreadyExists for a duplicate. Every failure is also remembered (first_error), so a
  // plugin that ignores a returned Status still fails to load.
  Status add_schedule(std::string_view name, std::shared_ptr<const ScheduleLowering> impl);
  Status add_storage(std::string_view name, std::shared_ptr<const StorageLowering> impl);
  Status add_copy(std::string_view src_storage, std::string_view dst_storage,
                  std::shared_ptr<const CopyLowering> impl);
  Status add_expansion(std::string_view classpath, std::string_view implementation,
                       std::shared_ptr<const LibraryExpansion> impl);
  Status add_transformation(std::string_view name,
                            std::shared_ptr<const TransformationFactory> impl);
  Status add_cpp_tasklet(std::string_view name, std::shared_ptr<const CppTaskletLowering> impl);
  Status add_runtime_symbol(std::string_view name, void* address);
  // Declares a vendor library; a required one is loaded by the plugin loader, an optional one
  // on first use (not by this call). Declaring the same library twice keeps one entry
  // (required if either declaration says so).
  Status add_vendor_library(std::string_view name, bool required);

  // Lookups: null / nullptr / nullopt-like empty results when absent.
  std::shared_ptr<const ScheduleLowering> find_schedule(std::string_view name) const;
  std::shared_ptr<const StorageLowering> find_storage(std::string_view name) const;
  std::shared_ptr<const CopyLowering> find_copy(std::string_view src_storage,
                                                std::string_view dst_storage) const;
  std::shared_ptr<const LibraryExpansion> find_expansion(std::string_view classpath,
                                                         std::string_view implementation) const;
  std::shared_ptr<const TransformationFactory> find_transformation(std::string_view name) const;
  void* find_runtime_symbol(std::string_view name) const;
  // The plugin that registered a schedule/storage/transformation/runtime symbol ("" if none).
  std::string schedule_owner(std::string_view name) const;
  bool has_plugin(std::string_view name) const;
  // True when the vendor library was declared and loaded; loads a deferred one first.
  bool vendor_library_available(std::string_view name) const;

  // Sorted listings.
  std::vector<std::string> schedule_names() const;
  std::vector<std::string> storage_names() const;
  std::vector<std::pair<std::string, std::string>> copy_pairs() const;
  std::vector<std::string> expansion_classes() const;  // the classes with any implementation
  std::vector<std::string> expansion_implementations(std::string_view classpath) const;
  std::vector<std::string> transformation_names() const;
  // The C++ tasklet lowerings, by name.
  std::vector<std::pair<std::string, std::shared_ptr<const CppTaskletLowering>>> cpp_tasklets() const;
  std::vector<RuntimeSymbol> runtime_symbols() const;
  std::vector<VendorLibrary> vendor_libraries() const;  // loads the deferred ones first
  // As they stand, loading nothing: deferred ones have `deferred` set and are not available.
  std::vector<VendorLibrary> known_vendor_libraries() const;
  std::vector<PluginInfo> plugins() const;  // sorted by name

  // The first failed registration on this registry (Code::Ok when none).
  Status first_error() const;

  // Loader side. Records the outcome of loading a declared vendor library.
  void set_vendor_library_status(std::string_view name, bool available, std::string error);

  // Merges everything registered in `staging` (owned by plugin `info.name`) into this
  // registry, all or nothing: AlreadyExists naming both owners on any conflict, and then
  // nothing changes. Adopting a plugin whose name is already registered is a no-op that
  // returns false; a successful merge returns true.
  Result<bool> adopt(const Registry& staging, PluginInfo info);

 private:
  struct Tables {
    std::map<std::string, Entry<ScheduleLowering>, std::less<>> schedules;
    std::map<std::string, Entry<StorageLowering>, std::less<>> storages;
    std::map<std::pair<std::string, std::string>, Entry<CopyLowering>> copies;
    std::map<std::pair<std::string, std::string>, Entry<LibraryExpansion>> expansions;
    std::map<std::string, Entry<TransformationFactory>, std::less<>> transformations;
    std::map<std::string, Entry<CppTaskletLowering>, std::less<>> cpp_tasklets;
    std::map<std::string, RuntimeSymbol, std::less<>> symbols;
    std::map<std::string, VendorLibrary, std::less<>> vendor_libraries;
    std::map<std::string, PluginInfo, std::less<>> plugins;
  };

  Status remember(Status status);  // records the first failure; caller holds mutex_
  void load_deferred_locked(VendorLibrary& lib) const;  // caller holds mutex_ exclusively

  std::string owner_;
  mutable std::shared_mutex mutex_;
  mutable Tables tables_;  // mutable: deferred vendor libraries are loaded by const lookups
  Status first_error_;
};

}  // namespace dace::plugin
