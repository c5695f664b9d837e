#include "plugin/registry.h"

#include <mutex>

#include "plugin/open_library.h"

namespace dace::plugin {

ScheduleLowering::~ScheduleLowering() = default;
Status ScheduleLowering::lower_parallel_loop(codegen::ParallelLoopContext&) const {
  return make_error(Code::Unsupported, "this schedule does not lower the core's parallel loops");
}
StorageLowering::~StorageLowering() = default;
Status StorageLowering::lower_block_allocate(codegen::AllocationContext&) const {
  return make_error(Code::Unsupported, "this storage does not renew blocks");
}
void StorageLowering::lower_block_release(codegen::AllocationContext&) const {}
CopyLowering::~CopyLowering() = default;
LibraryExpansion::~LibraryExpansion() = default;
Status LibraryExpansion::lower_node(codegen::LibraryNodeContext&) const {
  return make_error(Code::Unsupported, "this implementation is not lowered by its plugin");
}
ProgramStateLowering::~ProgramStateLowering() = default;
Status ProgramStateLowering::lower_program_init(codegen::ProgramStateContext&) const {
  return make_error(Code::Unsupported, "this implementation has no program state");
}
Status ProgramStateLowering::lower_program_exit(codegen::ProgramStateContext&) const {
  return make_error(Code::Unsupported, "this implementation has no program state");
}
Status ProgramStateLowering::lower_program_entry(codegen::ProgramStateContext&) const { return Status::success(); }
TransformationFactory::~TransformationFactory() = default;
CppTaskletLowering::~CppTaskletLowering() = default;

namespace {

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::string pair_label(const std::pair<std::string, std::string>& key, const char* sep) {
  return quoted(key.first) + sep + quoted(key.second);
}

Error duplicate(std::string_view kind, std::string_view label, std::string_view new_owner,
                std::string_view old_owner) {
  return make_error(Code::AlreadyExists, std::string(kind) + " " + std::string(label) +
                                             " of plugin " + quoted(new_owner) +
                                             " is already registered by plugin " +
                                             quoted(old_owner));
}

Error invalid(std::string_view owner, std::string_view what) {
  return make_error(Code::InvalidArgument,
                    "plugin " + quoted(owner) + ": " + std::string(what));
}

template <class Map, class Key>
auto find_impl(const Map& map, const Key& key) -> decltype(map.begin()->second.impl) {
  auto it = map.find(key);
  if (it == map.end()) return nullptr;
  return it->second.impl;
}

template <class Map>
std::vector<std::string> keys_of(const Map& map) {
  std::vector<std::string> out;
  out.reserve(map.size());
  for (const auto& [key, value] : map) out.push_back(key);
  return out;
}

// Conflict check of one table of `staging` against `target` (string keys).
template <class Map>
Status check_named(const Map& target, const Map& staging, std::string_view kind) {
  for (const auto& [key, entry] : staging) {
    auto it = target.find(key);
    if (it != target.end()) return duplicate(kind, quoted(key), entry.owner, it->second.owner);
  }
  return Status::success();
}

template <class Map>
Status check_pairs(const Map& target, const Map& staging, std::string_view kind,
                   const char* sep) {
  for (const auto& [key, entry] : staging) {
    auto it = target.find(key);
    if (it != target.end())
      return duplicate(kind, pair_label(key, sep), entry.owner, it->second.owner);
  }
  return Status::success();
}

}  // namespace

Registry::Registry(std::string owner) : owner_(std::move(owner)) {}

dace_plugin_registry* Registry::handle() { return reinterpret_cast<dace_plugin_registry*>(this); }

Registry* Registry::from_handle(dace_plugin_registry* handle) {
  return reinterpret_cast<Registry*>(handle);
}

Status Registry::remember(Status status) {
  if (!status.ok() && first_error_.ok()) first_error_ = Status(status.error());
  return status;
}

Status Registry::first_error() const {
  std::shared_lock lock(mutex_);
  return first_error_;
}

Status Registry::add_schedule(std::string_view name,
                              std::shared_ptr<const ScheduleLowering> impl) {
  std::unique_lock lock(mutex_);
  if (name.empty() || !impl) return remember(invalid(owner_, "schedule needs a name and an implementation"));
  auto it = tables_.schedules.find(name);
  if (it != tables_.schedules.end())
    return remember(duplicate("schedule", quoted(name), owner_, it->second.owner));
  tables_.schedules.emplace(std::string(name), Entry<ScheduleLowering>{std::move(impl), owner_});
  return Status::success();
}

Status Registry::add_storage(std::string_view name, std::shared_ptr<const StorageLowering> impl) {
  std::unique_lock lock(mutex_);
  if (name.empty() || !impl) return remember(invalid(owner_, "storage needs a name and an implementation"));
  auto it = tables_.storages.find(name);
  if (it != tables_.storages.end())
    return remember(duplicate("storage", quoted(name), owner_, it->second.owner));
  tables_.storages.emplace(std::string(name), Entry<StorageLowering>{std::move(impl), owner_});
  return Status::success();
}

Status Registry::add_copy(std::string_view src_storage, std::string_view dst_storage,
                          std::shared_ptr<const CopyLowering> impl) {
  std::unique_lock lock(mutex_);
  if (src_storage.empty() || dst_storage.empty() || !impl)
    return remember(invalid(owner_, "copy needs two storage names and an implementation"));
  std::pair<std::string, std::string> key{src_storage, dst_storage};
  auto it = tables_.copies.find(key);
  if (it != tables_.copies.end())
    return remember(duplicate("copy", pair_label(key, " -> "), owner_, it->second.owner));
  tables_.copies.emplace(std::move(key), Entry<CopyLowering>{std::move(impl), owner_});
  return Status::success();
}

Status Registry::add_expansion(std::string_view classpath, std::string_view implementation,
                               std::shared_ptr<const LibraryExpansion> impl) {
  std::unique_lock lock(mutex_);
  if (classpath.empty() || implementation.empty() || !impl)
    return remember(invalid(owner_, "expansion needs a class path, an implementation name and an implementation"));
  std::pair<std::string, std::string> key{classpath, implementation};
  auto it = tables_.expansions.find(key);
  if (it != tables_.expansions.end())
    return remember(duplicate("expansion", pair_label(key, " / "), owner_, it->second.owner));
  tables_.expansions.emplace(std::move(key), Entry<LibraryExpansion>{std::move(impl), owner_});
  return Status::success();
}

Status Registry::add_transformation(std::string_view name,
                                    std::shared_ptr<const TransformationFactory> impl) {
  std::unique_lock lock(mutex_);
  if (name.empty() || !impl) return remember(invalid(owner_, "transformation needs a name and a factory"));
  auto it = tables_.transformations.find(name);
  if (it != tables_.transformations.end())
    return remember(duplicate("transformation", quoted(name), owner_, it->second.owner));
  tables_.transformations.emplace(std::string(name),
                                  Entry<TransformationFactory>{std::move(impl), owner_});
  return Status::success();
}

Status Registry::add_cpp_tasklet(std::string_view name, std::shared_ptr<const CppTaskletLowering> impl) {
  std::unique_lock lock(mutex_);
  if (name.empty() || !impl) return remember(invalid(owner_, "C++ tasklet lowering needs a name and an implementation"));
  auto it = tables_.cpp_tasklets.find(name);
  if (it != tables_.cpp_tasklets.end())
    return remember(duplicate("C++ tasklet lowering", quoted(name), owner_, it->second.owner));
  tables_.cpp_tasklets.emplace(std::string(name), Entry<CppTaskletLowering>{std::move(impl), owner_});
  return Status::success();
}

Status Registry::add_runtime_symbol(std::string_view name, void* address) {
  std::unique_lock lock(mutex_);
  if (name.empty() || address == nullptr)
    return remember(invalid(owner_, "runtime symbol needs a name and an address"));
  auto it = tables_.symbols.find(name);
  if (it != tables_.symbols.end())
    return remember(duplicate("runtime symbol", quoted(name), owner_, it->second.owner));
  tables_.symbols.emplace(std::string(name), RuntimeSymbol{std::string(name), address, owner_});
  return Status::success();
}

Status Registry::add_vendor_library(std::string_view name, bool required) {
  std::unique_lock lock(mutex_);
  if (name.empty()) return remember(invalid(owner_, "vendor library needs a name"));
  auto it = tables_.vendor_libraries.find(name);
  if (it != tables_.vendor_libraries.end()) {
    it->second.required = it->second.required || required;
    return Status::success();
  }
  VendorLibrary lib;
  lib.name = std::string(name);
  lib.owner = owner_;
  lib.required = required;
  lib.deferred = true;  // the loader loads it now if required, otherwise it waits for a use
  tables_.vendor_libraries.emplace(lib.name, std::move(lib));
  return Status::success();
}

void Registry::set_vendor_library_status(std::string_view name, bool available,
                                         std::string error) {
  std::unique_lock lock(mutex_);
  auto it = tables_.vendor_libraries.find(name);
  if (it == tables_.vendor_libraries.end()) return;
  it->second.available = available;
  it->second.error = std::move(error);
  it->second.deferred = false;
}

void Registry::load_deferred_locked(VendorLibrary& lib) const {
  if (!lib.deferred) return;
  lib.deferred = false;
  std::string error;
  lib.available = open_library_permanently(lib.name, error) != nullptr;
  lib.error = std::move(error);
}

std::shared_ptr<const ScheduleLowering> Registry::find_schedule(std::string_view name) const {
  std::shared_lock lock(mutex_);
  return find_impl(tables_.schedules, name);
}

std::shared_ptr<const StorageLowering> Registry::find_storage(std::string_view name) const {
  std::shared_lock lock(mutex_);
  return find_impl(tables_.storages, name);
}

std::shared_ptr<const CopyLowering> Registry::find_copy(std::string_view src_storage,
                                                        std::string_view dst_storage) const {
  std::shared_lock lock(mutex_);
  return find_impl(tables_.copies,
                   std::pair<std::string, std::string>{src_storage, dst_storage});
}

std::shared_ptr<const LibraryExpansion> Registry::find_expansion(
    std::string_view classpath, std::string_view implementation) const {
  std::shared_lock lock(mutex_);
  return find_impl(tables_.expansions,
                   std::pair<std::string, std::string>{classpath, implementation});
}

std::shared_ptr<const TransformationFactory> Registry::find_transformation(
    std::string_view name) const {
  std::shared_lock lock(mutex_);
  return find_impl(tables_.transformations, name);
}

void* Registry::find_runtime_symbol(std::string_view name) const {
  std::shared_lock lock(mutex_);
  auto it = tables_.symbols.find(name);
  return it == tables_.symbols.end() ? nullptr : it->second.address;
}

std::string Registry::schedule_owner(std::string_view name) const {
  std::shared_lock lock(mutex_);
  auto it = tables_.schedules.find(name);
  return it == tables_.schedules.end() ? std::string() : it->second.owner;
}

bool Registry::has_plugin(std::string_view name) const {
  std::shared_lock lock(mutex_);
  return tables_.plugins.find(name) != tables_.plugins.end();
}

bool Registry::vendor_library_available(std::string_view name) const {
  {
    std::shared_lock lock(mutex_);
    auto it = tables_.vendor_libraries.find(name);
    if (it == tables_.vendor_libraries.end()) return false;
    if (!it->second.deferred) return it->second.available;
  }
  std::unique_lock lock(mutex_);
  auto it = tables_.vendor_libraries.find(name);
  if (it == tables_.vendor_libraries.end()) return false;
  load_deferred_locked(it->second);
  return it->second.available;
}

std::vector<std::string> Registry::schedule_names() const {
  std::shared_lock lock(mutex_);
  return keys_of(tables_.schedules);
}

std::vector<std::string> Registry::storage_names() const {
  std::shared_lock lock(mutex_);
  return keys_of(tables_.storages);
}

std::vector<std::pair<std::string, std::string>> Registry::copy_pairs() const {
  std::shared_lock lock(mutex_);
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [key, entry] : tables_.copies) out.push_back(key);
  return out;
}

std::vector<std::string> Registry::expansion_classes() const {
  std::shared_lock lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [key, entry] : tables_.expansions)
    if (out.empty() || out.back() != key.first) out.push_back(key.first);
  return out;
}

std::vector<std::string> Registry::expansion_implementations(std::string_view classpath) const {
  std::shared_lock lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [key, entry] : tables_.expansions)
    if (key.first == classpath) out.push_back(key.second);
  return out;
}

std::vector<std::string> Registry::transformation_names() const {
  std::shared_lock lock(mutex_);
  return keys_of(tables_.transformations);
}

std::vector<std::pair<std::string, std::shared_ptr<const CppTaskletLowering>>> Registry::cpp_tasklets() const {
  std::shared_lock lock(mutex_);
  std::vector<std::pair<std::string, std::shared_ptr<const CppTaskletLowering>>> out;
  for (const auto& [name, entry] : tables_.cpp_tasklets) out.emplace_back(name, entry.impl);
  return out;
}

std::vector<RuntimeSymbol> Registry::runtime_symbols() const {
  std::shared_lock lock(mutex_);
  std::vector<RuntimeSymbol> out;
  for (const auto& [key, symbol] : tables_.symbols) out.push_back(symbol);
  return out;
}

std::vector<VendorLibrary> Registry::vendor_libraries() const {
  std::unique_lock lock(mutex_);
  std::vector<VendorLibrary> out;
  for (auto& [key, lib] : tables_.vendor_libraries) {
    load_deferred_locked(lib);
    out.push_back(lib);
  }
  return out;
}

std::vector<VendorLibrary> Registry::known_vendor_libraries() const {
  std::shared_lock lock(mutex_);
  std::vector<VendorLibrary> out;
  for (const auto& [key, lib] : tables_.vendor_libraries) out.push_back(lib);
  return out;
}

std::vector<PluginInfo> Registry::plugins() const {
  std::shared_lock lock(mutex_);
  std::vector<PluginInfo> out;
  for (const auto& [key, info] : tables_.plugins) out.push_back(info);
  return out;
}

Result<bool> Registry::adopt(const Registry& staging, PluginInfo info) {
  if (&staging == this) return make_error(Code::Internal, "a registry cannot adopt itself");
  // Copy the staging tables first so that both locks are never held together.
  Tables incoming;
  {
    std::shared_lock lock(staging.mutex_);
    incoming = staging.tables_;
  }
  std::unique_lock lock(mutex_);
  if (tables_.plugins.find(info.name) != tables_.plugins.end()) return false;
  DACE_TRY(check_named(tables_.schedules, incoming.schedules, "schedule"));
  DACE_TRY(check_named(tables_.storages, incoming.storages, "storage"));
  DACE_TRY(check_pairs(tables_.copies, incoming.copies, "copy", " -> "));
  DACE_TRY(check_pairs(tables_.expansions, incoming.expansions, "expansion", " / "));
  DACE_TRY(check_named(tables_.transformations, incoming.transformations, "transformation"));
  DACE_TRY(check_named(tables_.cpp_tasklets, incoming.cpp_tasklets, "C++ tasklet lowering"));
  for (const auto& [name, symbol] : incoming.symbols) {
    auto it = tables_.symbols.find(name);
    // The same address under the same name (two plugins re-exporting one vendor function)
    // is harmless; anything else would make symbol resolution depend on load order.
    if (it != tables_.symbols.end() && it->second.address != symbol.address)
      return duplicate("runtime symbol", quoted(name), symbol.owner, it->second.owner);
  }

  tables_.schedules.merge(incoming.schedules);
  tables_.storages.merge(incoming.storages);
  tables_.copies.merge(incoming.copies);
  tables_.expansions.merge(incoming.expansions);
  tables_.transformations.merge(incoming.transformations);
  tables_.cpp_tasklets.merge(incoming.cpp_tasklets);
  tables_.symbols.merge(incoming.symbols);
  for (auto& [name, lib] : incoming.vendor_libraries) {
    auto it = tables_.vendor_libraries.find(name);
    if (it == tables_.vendor_libraries.end()) {
      tables_.vendor_libraries.emplace(name, std::move(lib));
    } else {
      it->second.required = it->second.required || lib.required;
      if (it->second.deferred && !lib.deferred) {  // the incoming plugin has tried it
        it->second.deferred = false;
        it->second.available = lib.available;
        it->second.error = lib.error;
      } else if (lib.available && !it->second.available) {
        it->second.available = true;
        it->second.error.clear();
      }
    }
  }
  std::string name = info.name;
  tables_.plugins.emplace(std::move(name), std::move(info));
  return true;
}

}  // namespace dace::plugin
