#include "pipeline/plugin_needs.h"

#include "ir/enums.h"
#include "pipeline/compile.h"
#include "plugin/deferred.h"

namespace dace::pipeline {

namespace {

void collect(const ir::SDFG& sdfg, plugin::PluginNeeds& needs) {
  for (const auto& [name, desc] : sdfg.arrays) needs.storages.insert(ir::to_string(desc.storage));
  for (const ir::State* st : sdfg.all_states()) {
    for (int id : st->node_ids()) {
      const ir::Node* n = st->node(id);
      switch (n->kind) {
        case ir::NodeKind::MapEntry:
          needs.schedules.insert(ir::to_string(static_cast<const ir::MapEntry&>(*n).map.schedule));
          break;
        case ir::NodeKind::ConsumeEntry:
          needs.schedules.insert(ir::to_string(static_cast<const ir::ConsumeEntry&>(*n).consume.schedule));
          break;
        case ir::NodeKind::Library: {
          const auto& lib = static_cast<const ir::LibraryNode&>(*n);
          needs.schedules.insert(ir::to_string(lib.schedule));
          needs.library_nodes.emplace(lib.classpath, lib.implementation);
          break;
        }
        case ir::NodeKind::Tasklet: {
          const auto& t = static_cast<const ir::Tasklet&>(*n);
          if (t.code.language == ir::Language::CPP) needs.cpp_tasklet_code.push_back(t.code.code);
          break;
        }
        case ir::NodeKind::NestedSDFG: {
          const auto& nested = static_cast<const ir::NestedSDFGNode&>(*n);
          needs.schedules.insert(ir::to_string(nested.schedule));
          if (nested.sdfg) collect(*nested.sdfg, needs);
          break;
        }
        default: break;
      }
    }
  }
}

}  // namespace

plugin::PluginNeeds plugin_needs(const ir::SDFG& sdfg) {
  plugin::PluginNeeds needs;
  collect(sdfg, needs);
  return needs;
}

bool has_pending_plugins(const Backend& backend) { return backend.deferred && backend.deferred->has_pending(); }

Status load_needed_plugins(const ir::SDFG& sdfg, const Backend& backend) {
  // The common case, nothing deferred left, costs no walk of the SDFG.
  if (!has_pending_plugins(backend)) return Status::success();
  return load_needed_plugins(plugin_needs(sdfg), backend);
}

Status load_needed_plugins(const plugin::PluginNeeds& needs, const Backend& backend) {
  if (!has_pending_plugins(backend)) return Status::success();
  const plugin::Registry& registry = *backend.registry;
  return backend.deferred->load_needed(*backend.registry, needs, [&](const plugin::PluginInfo& info) -> Status {
    for (const auto& s : registry.runtime_symbols())
      if (s.owner == info.name) DACE_TRY(backend.session->define_runtime_symbol(s.name, s.address));
    return Status::success();
  });
}

}  // namespace dace::pipeline
