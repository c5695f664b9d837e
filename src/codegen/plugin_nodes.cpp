#include "codegen/plugin_nodes.h"

#include "plugin/registry.h"

namespace dace::codegen {

namespace {

llvm::GlobalVariable* state_global(llvm::Module& module, const std::string& key) {
  std::string name = "__dace_program_state." + key;
  if (llvm::GlobalVariable* g = module.getNamedGlobal(name)) return g;
  llvm::Type* ptr = llvm::PointerType::getUnqual(module.getContext());
  return new llvm::GlobalVariable(module, ptr, false, llvm::GlobalValue::InternalLinkage,
                                  llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(module.getContext())),
                                  name);
}

void collect_states(const LowerOptions& options, const ir::SDFG& sdfg,
                    std::map<std::string, ProgramStateLowering>& out) {
  auto add = [&](const ProgramStateLowering& state) {
    if (state && !state->program_state_key().empty()) out.emplace(std::string(state->program_state_key()), state);
  };
  for (const ir::State* st : sdfg.all_states()) {
    for (int id : st->node_ids()) {
      const ir::Node* n = st->node(id);
      if (n->kind == ir::NodeKind::Library) {
        add(plugin_lowering(options, static_cast<const ir::LibraryNode&>(*n)));
      } else if (n->kind == ir::NodeKind::MapEntry && options.registry) {
        const ir::MapScope& map = static_cast<const ir::MapEntry&>(*n).map;
        if (auto schedule = options.registry->find_schedule(ir::to_string(map.schedule))) add(schedule->program_state());
      } else if (n->kind == ir::NodeKind::NestedSDFG) {
        const auto& nested = static_cast<const ir::NestedSDFGNode&>(*n);
        if (nested.sdfg) collect_states(options, *nested.sdfg, out);
      }
    }
  }
}

}  // namespace

const ir::LibraryNode& LibraryNodeContext::node() const {
  return static_cast<const ir::LibraryNode&>(*se.state.node(node_id));
}

llvm::Value* LibraryNodeContext::program_state(const std::string& key) { return load_program_state(frame(), key); }

llvm::Value* load_program_state(Frame& f, const std::string& key) {
  llvm::GlobalVariable* g = state_global(f.mc.module, key);
  return f.b.CreateLoad(f.b.getPtrTy(), g, key + ".state");
}

llvm::FunctionCallee LibraryNodeContext::runtime_function(const std::string& name, llvm::FunctionType* type) {
  return frame().mc.module.getOrInsertFunction(name, type);
}

llvm::FunctionCallee ProgramStateContext::runtime_function(const std::string& name, llvm::FunctionType* type) {
  return frame.mc.module.getOrInsertFunction(name, type);
}

Status emit_plugin_library_node(StateEmitter& se, int node, const plugin::LibraryExpansion& impl) {
  LibraryNodeContext context(se, node);
  Status s = impl.lower_node(context);
  if (!s.ok() && s.error().message.rfind(se.where(node), 0) != 0)
    return make_error(s.error().code, se.where(node) + ": " + s.error().message);
  return s;
}

std::map<std::string, ProgramStateLowering> program_states(const LowerOptions& options, const ir::SDFG& sdfg) {
  std::map<std::string, ProgramStateLowering> out;
  collect_states(options, sdfg, out);
  for (auto it = out.begin(); it != out.end();)
    it = it->second->needed(options, sdfg) ? std::next(it) : out.erase(it);
  return out;
}

llvm::GlobalVariable* program_state_global(llvm::Module& module, const std::string& key) {
  return state_global(module, key);
}

}  // namespace dace::codegen
