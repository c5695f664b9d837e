// Where each transient data container of an SDFG lives and when it is allocated.
//
// Decided once per SDFG from where its access nodes are and what its shape depends on:
// scalars and small constant-size arrays are stack slots; arrays whose size the arguments
// fix are allocated once when the function starts (a transient inside a time loop is not
// re-allocated every iteration: page faults dominate otherwise); arrays whose size depends
// on symbols assigned inside the SDFG are allocated in their state; containers used only
// inside map scopes are allocated per scope instance (so per thread in parallel maps);
// Persistent ones live in the program's state object.
#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>

#include "codegen/checked_size.h"
#include "codegen/frame.h"

namespace dace::codegen {

// Transients of a storage outside the host's are planned as the plugin that registered the
// storage in `registry` says (StorageLowering::transient_placement); without one they are
// Unsupported.
Result<AllocationPlan> plan_allocations(const ir::SDFG& sdfg, const std::set<std::string>& assigned_symbols,
                                        bool top_level, const plugin::Registry* registry);

// The CheckedSize (checked_size.h) of `desc`'s allocation, computed at the current point.
Result<CheckedSize> checked_allocation_size(Frame& f, const std::string& name, const ir::DataDescriptor& desc);
// A heap block of `size` (zeroed when `zero`), or null after recording the failure (a bad
// size, or the allocator's null) in the status record. The caller leaves on null
// (leave_if_any_null), once all blocks of its batch are requested.
llvm::Value* checked_heap_allocate(Frame& f, const CheckedSize& size, bool zero);
// The same with `allocate` emitting the request for a byte count (a plugin's host allocator,
// whose blocks must hold that count rounded up to 64 bytes and may be null): called only for
// a usable size.
llvm::Value* checked_allocate_with(Frame& f, const CheckedSize& size, bool zero,
                                   const std::function<llvm::Value*(llvm::Value* bytes)>& allocate);
// The byte count of `size` for allocators outside the host heap (device memory): 0 after
// recording the problem in the status record when the size is unusable.
llvm::Value* checked_bytes_or_zero(Frame& f, const CheckedSize& size);
// Leaves when a block of the batch is null; ends the batch (Frame::batch_sizes).
void leave_if_any_null(Frame& f, const std::vector<llvm::Value*>& ptrs);
// Heap block of `bytes`, 64-byte aligned (zeroed when `zero`).
llvm::Value* heap_allocate(Frame& f, llvm::Value* bytes, bool zero);
void heap_free(llvm::IRBuilder<>& b, ModuleContext& mc, llvm::Value* ptr);

// Allocates `name` in the current frame at the current point according to `kind` (stack
// slots go to the entry block) and binds it in the current scope. Heap blocks are appended
// to f.pending_allocations: the caller checks them (leave_if_any_null) after its batch. Heap storage is freed by
// `free_at` actions the caller runs (returned), except FunctionHeap/LazyHeap, whose frees
// are registered as the frame's exit actions. In device code (is_device_code) host-storage
// transients are stack arrays; one of symbolic size returns a stack mark instead of a block.
Result<std::vector<llvm::Value*>> allocate_container(Frame& f, const std::string& name, AllocKind kind,
                                                     bool thread_local_storage);

// Whether a value allocate_container returned to free is a saved stack pointer (a dynamic
// stack array's), which the caller restores instead of freeing.
bool is_stack_mark(const llvm::Value* v);
void restore_stack(llvm::IRBuilder<>& b, llvm::Value* mark);

// Binds a LazyHeap container in the current scope, allocating it if no state did before.
Status bind_lazy_container(Frame& f, const std::string& name);

// Whether allocate_container puts the ScopeLocal container `d` in a heap block in `f` (host
// code and storage, not a stream, not a small constant-size stack array): only such a block
// can be reused across scope instances (Frame::reused_blocks).
bool scope_local_on_heap(const Frame& f, const ir::DataDescriptor& d);

}  // namespace dace::codegen
