// What the core lowering hands to a plugin's lowering of its own target (DESIGN.md §7):
// the contexts that plugin/interfaces.h forward-declares. A plugin that registers a schedule
// (CPU_Multicore, GPU_Device) gets each map scope of it to lower, and the host's parallel
// schedule also the core's parallel loops; one that registers a storage (GPU_Global) gets the
// program's arguments of that storage to bind.
//
// Per-module work of a target (a device module to finish, embedded code) hangs off the
// ModuleContext: `target_state` keeps it between calls and `finishers` run once the host
// functions are emitted, before the module is verified.
#pragma once
#include <functional>
#include <string>

#include "codegen/state_emit.h"

namespace dace::codegen {

// A map scope whose schedule a plugin lowers. The plugin emits into `se.f` at its insertion
// point and leaves the builder after the scope. The map's dynamic range connectors are bound
// already; the core's helpers for the rest are in map_emit.h (emit_map_loops for a
// sequential nest, emit_map_body for the scope's contents).
class ScopeContext {
 public:
  ScopeContext(StateEmitter& se, int entry, const ir::MapScope& map) : se(se), entry(entry), map(map) {}
  StateEmitter& se;
  int entry;
  const ir::MapScope& map;
};

// A flat loop over [0, total) with independent iterations that the core (a library node's
// pure expansion) asks the host's parallel schedule to run (ScheduleLowering::
// lower_parallel_loop). `total` is computed in `se.f`; `body` emits one iteration, given the
// index, into whatever function the schedule emits it in (se.f is that function's frame
// meanwhile, so it must look everything up again by name). `name` labels what is emitted.
class ParallelLoopContext {
 public:
  ParallelLoopContext(StateEmitter& se, llvm::Value* total, const std::string& name,
                      const std::function<Status(llvm::Value*)>& body)
      : se(se), total(total), name(name), body(body) {}
  StateEmitter& se;
  llvm::Value* total;
  const std::string& name;
  const std::function<Status(llvm::Value*)>& body;
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
  // Block renewal (StorageLowering::renews_blocks): the size asked for, the block released.
  llvm::Value* bytes = nullptr;
  llvm::Value* held = nullptr;
};

// A C++ tasklet (node `node` of `se`'s state) that a plugin's CppTaskletLowering claimed. The
// plugin emits the tasklet's effect into `se.f` at its insertion point; `where` names the
// tasklet for messages.
class CppTaskletContext {
 public:
  CppTaskletContext(StateEmitter& se, int node, const std::string& code) : se(se), node(node), code(code) {}
  StateEmitter& se;
  int node;
  const std::string& code;
  std::string where() const { return se.where(node); }
};

// A module whose ModuleContext::target_state holds this key is device code (a plugin's
// device module): containers in device storage are addressable there, and not in host modules.
inline constexpr const char* kDeviceCodeKey = "device_code";

inline bool is_device_code(const Frame& f) { return f.mc.target_state.count(kDeviceCodeKey) != 0; }

// Storages whose memory host code addresses directly (the core's own and pinned host memory).
// Every other storage (a plugin's device memory) is reached from host code only through the
// copies its plugin registers (plugin::CopyLowering, CopyContext below).
inline bool is_host_storage(ir::StorageType s) {
  return s == ir::StorageType::Default || s == ir::StorageType::CPU_Heap || s == ir::StorageType::CPU_Pinned ||
         s == ir::StorageType::CPU_ThreadLocal || s == ir::StorageType::Register;
}

// A copy edge in host code whose source or destination is in a storage outside the host's
// (is_host_storage), lowered by the plugin that registered a copy for the ordered storage pair
// (Registry::find_copy). `src_subset` / `dst_subset` are the memlet's subsets resolved on both
// sides; the plugin emits the transfer into `f` at its insertion point.
class CopyContext {
 public:
  CopyContext(Frame& f, const std::string& where, const std::string& src_name, const DataBinding& src,
              const sym::Subset& src_subset, const std::string& dst_name, const DataBinding& dst,
              const sym::Subset& dst_subset)
      : f(f), where(where), src_name(src_name), src(src), src_subset(src_subset), dst_name(dst_name), dst(dst),
        dst_subset(dst_subset) {}
  Frame& f;
  const std::string& where;  // the edge, for messages
  const std::string& src_name;
  const DataBinding& src;
  const sym::Subset& src_subset;
  const std::string& dst_name;
  const DataBinding& dst;
  const sym::Subset& dst_subset;
  bool wcr = false;  // the memlet resolves write conflicts (a plugin may refuse it)
  StateEmitter* se = nullptr;  // the state being emitted ...
  int edge = -1;               // ... and the copy's edge in it
};

// Unsupported naming `where` when code of `f` would dereference `desc` on the host while it
// lives in a plugin's device storage (tasklets outside kernels; copies go through the plugin).
inline Status check_host_access(const Frame& f, const ir::DataDescriptor& desc, const std::string& data,
                                const std::string& where) {
  if (is_device_code(f) || is_host_storage(desc.storage)) return Status::success();
  return make_error(Code::Unsupported, where + ": \"" + data + "\" is in " + ir::to_string(desc.storage) +
                                           " memory, which host code cannot access (only copies, which its "
                                           "plugin lowers, and the plugin's own scopes use it)");
}

}  // namespace dace::codegen
