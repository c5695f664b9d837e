// What the core lowering hands to a plugin's lowering of its own target (DESIGN.md §7):
// the contexts that plugin/interfaces.h forward-declares. A plugin that registers a schedule
// without a runtime entry (GPU_Device) gets the map scope to lower; one that registers a
// storage (GPU_Global) gets the program's arguments of that storage to bind.
//
// Per-module work of a target (a device module to finish, embedded code) hangs off the
// ModuleContext: `target_state` keeps it between calls and `finishers` run once the host
// functions are emitted, before the module is verified.
#pragma once
#include <string>

#include "codegen/state_emit.h"

namespace dace::codegen {

// A map scope whose schedule a plugin lowers. The plugin emits into `se.f` at its insertion
// point and leaves the builder after the scope.
class ScopeContext {
 public:
  ScopeContext(StateEmitter& se, int entry, const ir::MapScope& map) : se(se), entry(entry), map(map) {}
  StateEmitter& se;
  int entry;
  const ir::MapScope& map;
};

// A container of a storage a plugin owns. For a program argument (array) `host` is the
// pointer the caller passed; for a transient it is null (`zero`: fill with zeros).
// lower_allocation sets `bound` to what the program's code uses (a device mirror, a device
// allocation) and pushes the exit actions that copy back and free onto `f`;
// lower_deallocation is not called (the exit actions do that work).
class AllocationContext {
 public:
  AllocationContext(Frame& f, const std::string& name, const ir::DataDescriptor& desc, llvm::Value* host)
      : f(f), name(name), desc(desc), host(host) {}
  Frame& f;
  const std::string& name;
  const ir::DataDescriptor& desc;
  llvm::Value* host;
  bool zero = false;
  llvm::Value* bound = nullptr;
};

// A module whose ModuleContext::target_state holds this key is device code (a plugin's
// device module): containers in device storage (GPU_Global) are addressable there, and not in
// host modules.
inline constexpr const char* kDeviceCodeKey = "device_code";

// Unsupported naming `where` when code of `f` would dereference `desc` on the host while it
// lives in device memory (copies and tasklets outside kernels: not lowered yet).
inline Status check_host_access(const Frame& f, const ir::DataDescriptor& desc, const std::string& data,
                                const std::string& where) {
  if (f.mc.target_state.count(kDeviceCodeKey) || desc.storage != ir::StorageType::GPU_Global) return Status::success();
  return make_error(Code::Unsupported, where + ": \"" + data +
                                           "\" is in GPU_Global memory and host code cannot access it yet "
                                           "(only GPU_Device maps use device data)");
}

}  // namespace dace::codegen
