// Library nodes that a plugin lowers to LLVM IR itself (LibraryExpansion::lowers_to_ir), and
// the program-wide state such nodes and plugin schedules share (plugin::ProgramStateLowering):
// the MPI plugin's communicators, process grids and BLACS contexts.
//
// The state of a key is created by the plugin's lower_program_init at the end of
// __dace_init, kept in a slot of the program's state object after the persistent
// transients, and released by lower_program_exit at the start of __dace_exit. Nodes reach it
// through a module global (`__dace_program_state.<key>`) that init sets, so nodes inside
// nested SDFGs and outlined parallel bodies see it too; a loaded program has one live state
// at a time (jit::Program re-initializes only after exit), which the global relies on.
#pragma once
#include <map>
#include <memory>
#include <string>

#include "codegen/library_nodes.h"
#include "codegen/registry_query.h"
#include "plugin/interfaces.h"

namespace dace::codegen {

class LibraryNodeContext {
 public:
  LibraryNodeContext(StateEmitter& emitter, int node) : se(emitter), node_id(node) {}
  StateEmitter& se;
  const int node_id;

  Frame& frame() const { return *se.f; }
  llvm::IRBuilder<>& builder() const { return se.f->b; }
  const ir::LibraryNode& node() const;
  std::string where() const { return se.where(node_id); }
  // The pointer lower_program_init produced for `key` (loaded where the node runs).
  llvm::Value* program_state(const std::string& key);
  // An external function of the plugin's runtime (resolved by the JIT from the registry).
  llvm::FunctionCallee runtime_function(const std::string& name, llvm::FunctionType* type);
};

class ProgramStateContext {
 public:
  ProgramStateContext(Frame& f, const ir::SDFG& s, std::string k) : frame(f), sdfg(s), key(std::move(k)) {}
  Frame& frame;  // __dace_init (symbols bound), __dace_exit or the program function's entry
  const ir::SDFG& sdfg;
  const std::string key;
  // init: the plugin sets it to the state pointer it created (null at run time = failure);
  // exit and entry: the pointer init stored.
  llvm::Value* state = nullptr;
  // exit: an i32 the plugin may set; nonzero makes __dace_exit return it.
  llvm::Value* exit_status = nullptr;
  llvm::FunctionCallee runtime_function(const std::string& name, llvm::FunctionType* type);
};

using ProgramStateLowering = std::shared_ptr<const plugin::ProgramStateLowering>;

Status emit_plugin_library_node(StateEmitter& se, int node, const plugin::LibraryExpansion& impl);

// The program states the SDFG's plugin-lowered nodes and maps of plugin schedules need
// (nested SDFGs included), by key.
std::map<std::string, ProgramStateLowering> program_states(const LowerOptions& options, const ir::SDFG& sdfg);
// Loads the pointer of program state `key` where `f` is emitting (null until init set it).
llvm::Value* load_program_state(Frame& f, const std::string& key);
// The module global through which nodes read the state of `key` (created on first use).
llvm::GlobalVariable* program_state_global(llvm::Module& module, const std::string& key);

}  // namespace dace::codegen
