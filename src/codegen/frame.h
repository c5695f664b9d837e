// Lowering state shared by the codegen files: the module being built (ModuleContext), the
// SDFG being lowered (SdfgContext) and the function being emitted (Frame).
//
// A Frame holds scoped bindings of names to values: symbols (SSA values or storage) and data
// containers (base pointers). Frames of outlined parallel bodies have a parent: a name they
// do not bind is looked up in the parent, at the parent's insertion point (just before the
// runtime call), and passed in through the closure. Frames of nested-SDFG functions have no
// parent; they see only their parameters.
#pragma once
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "codegen/alloc_plan.h"
#include "codegen/checked_size.h"
#include "codegen/options.h"
#include "codegen/sym_emit.h"
#include "codegen/types.h"
#include "ir/result.h"
#include "ir/sdfg.h"

namespace dace::codegen {

struct InstrumentTable;  // instrument_emit.cpp
class StateEmitter;      // state_emit.h

struct ModuleContext {
  ModuleContext(llvm::Module& module, llvm::LLVMContext& ctx, const LowerOptions& options)
      : module(module), ctx(ctx), options(options) {}
  llvm::Module& module;
  llvm::LLVMContext& ctx;
  const LowerOptions& options;
  int next_id = 0;

  // "base.N" with a module-wide counter: deterministic, unique.
  std::string unique_name(const std::string& base) { return base + "." + std::to_string(next_id++); }
  llvm::FunctionCallee malloc_fn();  // void* aligned_alloc(size_t alignment, size_t size)
  llvm::FunctionCallee free_fn();
  // The module's run-time status record (run_status.h), created on first use.
  llvm::GlobalVariable* status_record();
  // The CPU runtime's parallel_for under `symbol` (registry_query.h: parallel_for_entry).
  llvm::FunctionCallee parallel_for_fn(const std::string& symbol);

  // Per-module state of plugin-lowered targets (a device module being built), by key.
  std::map<std::string, std::shared_ptr<void>> target_state;
  // Run in order once the host functions exist, before verification (a target compiles its
  // device code and embeds it here).
  std::vector<std::function<Status()>> finishers;
  // Called before each top-level node of a state is emitted (`node`) and once after the
  // last (`node` -1), in every host function: a target that queues work asynchronously (the
  // CUDA plugin's streams) orders it around the state's host code there.
  std::vector<std::function<Status(StateEmitter& se, int node)>> state_hooks;
  // The elements timed by this module (instrument_emit.h); null when none is instrumented.
  std::shared_ptr<InstrumentTable> instrument;
};

// What the lowering knows about one SDFG (top level or nested).
struct SdfgContext {
  const ir::SDFG& sdfg;
  std::string path;  // for messages (ir::path_of)
  // Types of all symbols: declared ones, then those assigned on interstate edges (inferred).
  std::map<std::string, ScalarType> symbol_types;
  std::set<std::string> assigned_symbols;  // written by interstate edges or loop regions
  AllocationPlan plan;
  SdfgContext* parent = nullptr;
  std::string function_prefix;  // names of functions emitted for this SDFG
};

struct SymbolBinding {
  llvm::Value* value = nullptr;  // SSA value, or pointer to storage when `addressable`
  ScalarType type = ScalarType::Int64;
  bool addressable = false;
};

struct DataBinding {
  llvm::Value* base = nullptr;  // element (0, ..., 0) of the container, before `offset`
  const ir::DataDescriptor* desc = nullptr;
  // Storage private to the current thread (allocated inside the parallel body that uses
  // it): WCR needs no atomics there.
  bool thread_local_storage = false;
};

class Frame {
 public:
  Frame(ModuleContext& mc, SdfgContext& sc, llvm::Function* fn, Frame* parent, bool parallel_context);
  Frame(const Frame&) = delete;
  Frame& operator=(const Frame&) = delete;

  ModuleContext& mc;
  SdfgContext& sc;
  llvm::Function* fn;
  llvm::IRBuilder<> b;
  Frame* parent;
  // Inside a parallel region (this frame or a caller runs on several threads at once).
  bool parallel_context;

  // ---- scopes and bindings ----
  void push_scope();
  void pop_scope();
  void bind_symbol(const std::string& name, SymbolBinding binding);
  void bind_data(const std::string& name, DataBinding binding);
  // Innermost binding in this frame only (no capture).
  const SymbolBinding* find_symbol(const std::string& name) const;
  const DataBinding* find_data(const std::string& name) const;

  Result<TypedValue> symbol(const std::string& name);
  Result<llvm::Value*> symbol_i64(const std::string& name);
  Result<DataBinding> data(const std::string& name);
  // Symbolic expression in this frame's bindings, as i64.
  Result<llvm::Value*> sym(sym::Expr e);
  // The same with overflow checks (sym_emit.h: emit_sym_checked).
  Result<llvm::Value*> sym_checked(sym::Expr e, llvm::Value*& overflow);
  SymbolLookup lookup();

  // ---- storage ----
  // An alloca in the entry block (hoisted so mem2reg promotes it).
  llvm::AllocaInst* entry_alloca(llvm::Type* type, const std::string& name);

  // ---- closures of outlined bodies ----
  // The closure pointer (parameter 0) of an outlined body; null otherwise.
  llvm::Value* closure = nullptr;
  struct Capture {
    llvm::Value* outer;               // value in the parent frame, stored into the closure
    llvm::Instruction* load = nullptr;  // its load from the closure in this frame
    std::string data;                 // the data container it is the base of; "" for symbols
    size_t slot = 0;                  // its first 8-byte closure slot
    size_t slots = 1;                 // how many it fills (2 for a complex128 symbol)
  };
  // 8-byte slots the closure needs for all captures.
  size_t closure_slots() const { return captures.empty() ? 0 : captures.back().slot + captures.back().slots; }
  std::vector<Capture> captures;

  // Code to run on every exit of the function (frees of SDFG-lifetime storage), in order.
  std::vector<std::function<void(llvm::IRBuilder<>&)>> exit_actions;

  // Storage of LazyHeap containers: pointer (null until a state allocates) and capacity.
  std::map<std::string, std::pair<llvm::AllocaInst*, llvm::AllocaInst*>> lazy_slots;  // pointer, bytes

  // Storage of Reference containers: the pointer their last `set` edge stored.
  std::map<std::string, llvm::AllocaInst*> reference_slots;

  // Scope-local heap blocks that every instance of a scope inside one map reuses (see
  // begin_block_reuse in map_emit.h): the block (null while none is held) and its size in
  // bytes, by container; `active` while that map is being emitted. The slots live in the
  // entry block, so they exist once per call of the function (per thread in a parallel body).
  struct ReusedBlock {
    llvm::AllocaInst* ptr = nullptr;
    llvm::AllocaInst* bytes = nullptr;
    bool active = false;
  };
  std::map<std::string, ReusedBlock> reused_blocks;

  // ---- run-time failures (run_status.h) ----
  // Where control goes once a failure is recorded: the function's exit path (set by
  // emit_sdfg_body) or, when unset (outlined parallel bodies), a `ret void`.
  llvm::BasicBlock* fail_block = nullptr;
  llvm::BasicBlock* fail_target();
  // Heap blocks live at the current point that the exit path does not free (state and
  // scope temporaries, innermost last): freed on the way out after a failure.
  std::vector<llvm::Value*> failure_frees;
  // Code of this function may record a failure (callers then check the status record).
  bool may_fail = false;
  // Heap blocks allocate_container requested and nobody has null-checked yet.
  std::vector<llvm::Value*> pending_allocations;
  // The checked sizes of those blocks, by what they are computed from: a block of the same
  // size further in the batch uses them instead of computing and checking them again (a
  // NumPy program's temporaries mostly share one shape: heat_3d has 30). The batch's code is
  // a chain of allocations, each ending where all its paths join, so the values dominate the
  // rest of the batch; leave_if_any_null ends the batch and clears them.
  std::vector<std::pair<SizeInputs, CheckedSize>> batch_sizes;
  // Records `code`/`what`/`value` in the status record unless a failure is already there.
  void record_failure(llvm::Value* code, llvm::Value* what, llvm::Value* value, llvm::Value* bound = nullptr);
  // if (failed) { free failure_frees; goto fail_target(); } — continues after it.
  void leave_if(llvm::Value* failed);
  // The body of such a branch: frees failure_frees and jumps to fail_target() (terminates
  // the current block).
  void leave();
  // Whether the status record holds a failure, read with `at` (the frame's builder or one
  // placed on the exit path, where the argument copies back depend on it).
  llvm::Value* status_failed(llvm::IRBuilder<>& at);
  // leave_if(status_failed(b)): after calls into code that may fail.
  void leave_if_status_failed();

  llvm::BasicBlock* entry_block() const { return entry_; }
  std::string error_prefix() const { return sc.path; }

 private:
  llvm::Value* capture(llvm::Value* outer, const std::string& name, bool is_data);

  llvm::BasicBlock* entry_;
  std::vector<std::map<std::string, SymbolBinding>> symbol_scopes_;
  std::vector<std::map<std::string, DataBinding>> data_scopes_;
  std::map<llvm::Value*, llvm::Value*> captured_;  // outer value -> value in this frame (lookup only)
};

}  // namespace dace::codegen
