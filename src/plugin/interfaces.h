// What a plugin contributes, as abstract interfaces held by the Registry.
//
// The contexts are forward declarations on purpose: src/codegen and src/transform define
// them, and the plugin layer must not depend on those layers (DESIGN.md §2). Implementations
// are immutable after registration and shared between threads, hence the const methods.
//
// This is libdace's internal C++ API: exported for bundled plugins, unstable, build-id
// checked (include/libdace_plugin.h).
#pragma once
#include <memory>
#include <string_view>

#include "ir/result.h"

namespace dace::codegen {
class ScopeContext;       // a map/consume scope being lowered to LLVM IR
class ParallelLoopContext;  // a flat loop the core asks to run in parallel (library nodes)
class AllocationContext;  // a data container being allocated or freed
class CopyContext;        // a memlet copy between two containers
class LibraryNodeContext;   // a library node a plugin lowers to LLVM IR itself
class ProgramStateContext;  // program-wide state a plugin creates in __dace_init
class CppTaskletContext;    // a C++ tasklet a plugin recognizes and lowers itself
struct LowerOptions;        // codegen/options.h
}  // namespace dace::codegen

namespace dace::ir {
class SDFG;
}  // namespace dace::ir

namespace dace::transform {
class ExpansionContext;  // a library node being replaced by its implementation
class Transformation;    // a pattern transformation instance (can_be_applied / apply)
}  // namespace dace::transform

namespace dace::plugin {

// Program-wide state that a plugin's generated code shares (the MPI plugin's communicators,
// process grids, BLACS contexts), named by a key ("" = none). For each distinct key among
// what an SDFG uses (plugin-lowered library nodes, maps of a plugin's schedule; nested SDFGs
// included), in key order, lower_program_init emits code at the end of __dace_init that
// creates the state (a pointer; null at run time makes init fail), kept in the program's
// state object, and lower_program_exit emits its release at the start of __dace_exit.
// lower_program_entry emits code at the start of the program function, with the state
// loaded: it may bind symbols the whole SDFG reads (the MPI plugin's __dace_comm_rank and
// __dace_comm_size, which DaCe's MPI target defines for the whole program); by default
// nothing.
class ProgramStateLowering {
 public:
  virtual ~ProgramStateLowering();
  virtual std::string_view program_state_key() const { return {}; }
  virtual Status lower_program_init(codegen::ProgramStateContext& context) const;
  virtual Status lower_program_exit(codegen::ProgramStateContext& context) const;
  virtual Status lower_program_entry(codegen::ProgramStateContext& context) const;
  // Whether the program `sdfg` (the top level) compiled with `options` needs the state at all
  // (a plugin whose state depends on an option or on the SDFG's shape may need none). Defined
  // here: a plugin that keeps the default links no libdace symbol for it.
  virtual bool needed(const codegen::LowerOptions&, const ir::SDFG&) const { return true; }
};

// How a scope with a given schedule type ("CPU_Multicore", "GPU_Device") becomes code. The
// core lowers sequential loop nests itself; every other schedule is looked up by its DaCe
// name and handed to the plugin that registered it (src/codegen/target_lowering.h).
class ScheduleLowering {
 public:
  virtual ~ScheduleLowering();
  virtual Status lower_scope(codegen::ScopeContext& context) const = 0;
  // The host's parallel schedule (the CPU plugin's CPU_Multicore): maps with DaCe's Default
  // schedule outside parallel code go to it when LowerOptions::parallelize_default_maps
  // holds, and so do the core's parallel loops (lower_parallel_loop). The first such
  // schedule by name is taken; without one they stay sequential.
  virtual bool hosts_default_maps() const { return false; }
  // One flat loop over [0, total) whose iterations are independent (a library node's rows),
  // run in parallel; only asked of a schedule whose hosts_default_maps() is true.
  virtual Status lower_parallel_loop(codegen::ParallelLoopContext& context) const;
  // The runtime function the schedule's code calls, registered as a runtime symbol by the
  // same plugin; part of the program key (a program compiled against another runtime entry
  // is another program). "" when the lowering calls none.
  virtual std::string_view runtime_entry() const { return {}; }
  // The program state the schedule's code reads (the MPI schedule: the program's
  // communicator); null when none. Its key joins those of the SDFG's library nodes.
  virtual std::shared_ptr<const ProgramStateLowering> program_state() const { return nullptr; }
};

// How containers of a storage type ("CPU_Heap", "GPU_Global") are allocated and freed.
class StorageLowering {
 public:
  virtual ~StorageLowering();
  // Where the core plans a transient of the storage. Call: one allocation for the whole call,
  // made by lower_allocation on entry whatever scope uses it (device memory any kernel may
  // use). Scope: planned like a host transient and bound by lower_allocation where its scope
  // allocates it (memory of one kernel).
  enum class TransientPlacement { Call, Scope };
  virtual TransientPlacement transient_placement() const { return TransientPlacement::Call; }
  // The threads of one parallel scope share one instance (a block's shared memory), so
  // write-conflict resolution into it stays atomic even inside a thread's own scope.
  virtual bool shared_by_threads() const { return false; }
  virtual Status lower_allocation(codegen::AllocationContext& context) const = 0;
  virtual Status lower_deallocation(codegen::AllocationContext& context) const = 0;
  // Transients of a Call storage whose size depends on symbols set inside the SDFG (known
  // only once the states that set them ran): when the storage renews blocks, the core holds
  // such a container's block for the call and each state that uses it asks for a block of
  // the size it needs — allocated when none is held yet or the held one is too small, the
  // held one released first (contents do not survive a renewal, as for host memory). Else
  // such containers are refused.
  virtual bool renews_blocks() const { return false; }
  // A block of `context.bytes` bytes (checked, positive or zero), zeroed when `context.zero`:
  // sets `context.bound`, null after recording the failure in the call's status.
  virtual Status lower_block_allocate(codegen::AllocationContext& context) const;
  // Releases `context.held` (null: nothing to release); a failure is recorded in the status.
  virtual void lower_block_release(codegen::AllocationContext& context) const;
};

// How data moves from one storage type to another (registered per ordered pair).
class CopyLowering {
 public:
  virtual ~CopyLowering();
  virtual Status lower_copy(codegen::CopyContext& context) const = 0;
};

// One implementation of a library node class ("dace.libraries.blas.nodes.gemm.Gemm" +
// "OpenBLAS"). available() lets an expansion withdraw itself when its vendor library could
// not be loaded, so that callers fall back to another implementation.
class LibraryExpansion : public ProgramStateLowering {
 public:
  virtual ~LibraryExpansion();
  virtual bool available() const { return true; }
  virtual Status expand(transform::ExpansionContext& context) const = 0;
  // The vendor library (declared with Registry::add_vendor_library) the implementation
  // calls into; "" for none. Code generation uses the implementation only when the registry
  // reports that library loaded.
  virtual std::string_view vendor_library() const { return {}; }

  // Implementations whose plugin emits the node as LLVM IR itself (the MPI nodes: calls into
  // the plugin's runtime; the CPU plugin's CBLAS and LAPACKE calls) return true; codegen then
  // calls lower_node where the node runs instead of a lowering of its own
  // (src/codegen/plugin_nodes.h), also for a class the core lowers (its pure lowering), unless
  // the node's implementation is "pure". Such an implementation honours
  // LowerOptions::use_vendor_libraries itself (falling back to the core's lowering or
  // refusing the node).
  virtual bool lowers_to_ir() const { return false; }
  virtual Status lower_node(codegen::LibraryNodeContext& context) const;
  // An implementation that lowers_to_ir nodes whose operands live in its plugin's device
  // storages (a reduction kernel for data in GPU memory) returns true: codegen takes it for
  // a node in host code with such operands, and only for those (the host lowerings
  // dereference their operands).
  virtual bool lowers_device_operands() const { return false; }
  // Such nodes may share program-wide state (ProgramStateLowering: communicators, process
  // grids, BLACS contexts).
};

// C++ tasklets that call a plugin's vendor library the way DaCe's expansions write them
// (the CPU plugin: CBLAS and LAPACKE calls; the CUDA plugin: cuBLAS calls of DaCe's GPU BLAS
// expansions). Codegen asks the registered lowerings in name order whether they claim a C++
// tasklet's code; the first that does lowers it, and must refuse (naming the tasklet)
// whatever it does not recognize exactly. Tasklets nobody claims are Unsupported: the core
// compiles no C++ (src/codegen/cpp_call.h parses the call syntax for the plugins).
class CppTaskletLowering {
 public:
  virtual ~CppTaskletLowering();
  virtual bool claims(std::string_view code) const = 0;
  virtual Status lower_tasklet(codegen::CppTaskletContext& context) const = 0;
};

// Creates fresh instances of a transformation (instances carry their own properties).
class TransformationFactory {
 public:
  virtual ~TransformationFactory();
  virtual std::shared_ptr<transform::Transformation> create() const = 0;
};

}  // namespace dace::plugin
