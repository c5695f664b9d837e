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

// A program argument (array) of a storage a plugin owns: `host` is the pointer the caller
// passed; lower_allocation sets `bound` to what the program's code uses instead (a device
// mirror, say) and may push exit actions onto `f`; lower_deallocation is not called for
// arguments (the exit actions do that work).
class AllocationContext {
 public:
  AllocationContext(Frame& f, const std::string& name, const ir::DataDescriptor& desc, llvm::Value* host)
      : f(f), name(name), desc(desc), host(host) {}
  Frame& f;
  const std::string& name;
  const ir::DataDescriptor& desc;
  llvm::Value* host;
  llvm::Value* bound = nullptr;
};

}  // namespace dace::codegen
