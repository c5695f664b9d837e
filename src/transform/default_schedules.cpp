#include "transform/default_schedules.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "ir/schedule.h"
#include "transform/scope_tree.h"

namespace dace::transform {
namespace {

using ir::ScheduleType;
using ir::StorageType;

// DaCe's SCOPEDEFAULT_SCHEDULE: the schedule a Default scope gets inside one of `parent`.
ScheduleType child_schedule_of(ScheduleType parent) {
  switch (parent) {
    case ScheduleType::Default: return ScheduleType::Default;
    case ScheduleType::Sequential: return ScheduleType::Sequential;
    case ScheduleType::MPI: return ScheduleType::CPU_Multicore;
    case ScheduleType::CPU_Multicore: return ScheduleType::Sequential;
    case ScheduleType::CPU_Persistent: return ScheduleType::CPU_Multicore;
    case ScheduleType::Unrolled: return ScheduleType::CPU_Multicore;
    case ScheduleType::GPU_Default: return ScheduleType::GPU_Device;
    case ScheduleType::GPU_Persistent: return ScheduleType::GPU_Device;
    case ScheduleType::GPU_Device: return ScheduleType::GPU_ThreadBlock;
    case ScheduleType::GPU_ThreadBlock: return ScheduleType::Sequential;
    case ScheduleType::GPU_ThreadBlock_Dynamic: return ScheduleType::Sequential;
    case ScheduleType::FPGA_Device: return ScheduleType::FPGA_Device;
    case ScheduleType::FPGA_Multi_Pumped: return ScheduleType::FPGA_Device;
    case ScheduleType::SVE_Map: return ScheduleType::Sequential;
    case ScheduleType::Snitch: return ScheduleType::Snitch;
    case ScheduleType::Snitch_Multicore: return ScheduleType::Snitch_Multicore;
  }
  return ScheduleType::Default;
}

// DaCe's SCOPEDEFAULT_STORAGE, for the schedules it lists; nullopt for the others.
std::optional<StorageType> child_storage_of(ScheduleType parent) {
  switch (parent) {
    case ScheduleType::Default: return StorageType::Default;
    case ScheduleType::Sequential: return StorageType::Register;
    case ScheduleType::MPI: return StorageType::CPU_Heap;
    case ScheduleType::CPU_Multicore: return StorageType::Register;
    case ScheduleType::CPU_Persistent: return StorageType::CPU_Heap;
    case ScheduleType::GPU_Default: return StorageType::GPU_Global;
    case ScheduleType::GPU_Persistent: return StorageType::GPU_Global;
    case ScheduleType::GPU_Device: return StorageType::GPU_Shared;
    case ScheduleType::GPU_ThreadBlock: return StorageType::Register;
    case ScheduleType::GPU_ThreadBlock_Dynamic: return StorageType::Register;
    case ScheduleType::FPGA_Device: return StorageType::FPGA_Global;
    case ScheduleType::SVE_Map: return StorageType::CPU_Heap;
    case ScheduleType::Snitch: return StorageType::Snitch_TCDM;
    default: return std::nullopt;
  }
}

// The innermost enclosing schedule decides; Sequential scopes pass the decision outwards
// (DaCe's _determine_child_storage); with none, the top level's CPU_Heap.
StorageType child_storage(const std::vector<ScheduleType>& parents) {
  for (auto it = parents.rbegin(); it != parents.rend(); ++it) {
    if (*it == ScheduleType::Sequential) continue;
    if (std::optional<StorageType> s = child_storage_of(*it)) return *s;
  }
  return StorageType::CPU_Heap;
}

bool is_fpga(ScheduleType s) { return s == ScheduleType::FPGA_Device || s == ScheduleType::FPGA_Multi_Pumped; }

bool contains(const std::vector<ScheduleType>& v, ScheduleType s) { return std::find(v.begin(), v.end(), s) != v.end(); }

// DaCe's get_internal_scopes (helpers.py, over scope_tree_recursive): the scope entries below
// `entry` (-1: the state) in the same state, and those in the states of the nested SDFGs
// directly in that scope, recursively through nested SDFGs at their states' top level.
// DaCe's recursive scope tree looks into nested SDFGs only there, not into those inside
// inner scopes; and at top-level states only (DaCe's `sdfg.nodes()`). With `immediate`, only
// the entries directly in each scope visited.
void internal_scopes(const ir::State& st, int entry, bool immediate, std::vector<ScheduleType>& out) {
  const ScopeTree tree = ScopeTree::compute(st);
  std::vector<int> todo{entry};
  bool first = true;
  while (!todo.empty()) {
    const int scope = todo.back();
    todo.pop_back();
    for (int n : tree.children_of(scope)) {
      const ir::Node& node = *st.node(n);
      if (node.is_scope_entry()) {
        out.push_back(ir::schedule_of(node));
        if (!immediate) todo.push_back(n);
      } else if (first && node.kind == ir::NodeKind::NestedSDFG) {
        const auto& nested = static_cast<const ir::NestedSDFGNode&>(node);
        if (!nested.sdfg) continue;
        for (int b : nested.sdfg->block_slots())
          if (const ir::ControlFlowBlock* blk = nested.sdfg->block(b); blk->kind == ir::BlockKind::State)
            internal_scopes(static_cast<const ir::State&>(*blk), -1, immediate, out);
      }
    }
    first = false;
  }
}

// DaCe's gpu_map_has_explicit_threadblocks: a thread-block scope somewhere inside, or a
// Default one directly inside (which will become one).
bool has_explicit_threadblocks(const ir::State& st, int entry) {
  std::vector<ScheduleType> all, immediate;
  internal_scopes(st, entry, false, all);
  internal_scopes(st, entry, true, immediate);
  return contains(all, ScheduleType::GPU_ThreadBlock) || contains(all, ScheduleType::GPU_ThreadBlock_Dynamic) ||
         contains(immediate, ScheduleType::Default);
}

// DaCe's gpu_map_has_explicit_dyn_threadblocks.
bool has_explicit_dynamic_threadblocks(const ir::State& st, int entry) {
  std::vector<ScheduleType> all;
  internal_scopes(st, entry, false, all);
  return contains(all, ScheduleType::GPU_ThreadBlock_Dynamic);
}

// Where the containers of one nested SDFG take their storages from.
struct Caller {
  const ir::SDFG* sdfg;
  const ir::State* state;
  const ir::NestedSDFGNode* node;
  int node_id;
};

class Redefault {
 public:
  Status sdfg(ir::SDFG& g, const std::vector<ScheduleType>& parents, const Caller& caller) {
    for (ir::State* st : g.all_states()) {
      const ScopeTree tree = ScopeTree::compute(*st);
      DACE_TRY(scope(g, *st, tree, -1, parents, caller));
    }
    // Containers without access nodes (DaCe's "remaining scalars").
    for (auto& [name, desc] : g.arrays) {
      if (!desc.transient) {
        DACE_TRY(storage_from_caller(name, caller, desc.storage));
      } else if (desc.storage == StorageType::Default) {
        desc.storage = StorageType::Register;
      }
    }
    return Status::success();
  }

 private:
  static Status storage_from_caller(const std::string& name, const Caller& c, StorageType& out) {
    const std::string base = name.substr(0, name.find('.'));  // members share their structure's
    for (bool in : {true, false})
      for (int e : in ? c.state->in_edges(c.node_id) : c.state->out_edges(c.node_id)) {
        const ir::DataflowEdge& edge = *c.state->edge(e);
        if ((in ? edge.dst_conn : edge.src_conn) != base || edge.memlet.data.empty()) continue;
        auto it = c.sdfg->arrays.find(edge.memlet.data);
        if (it == c.sdfg->arrays.end()) continue;
        out = it->second.storage;
        return Status::success();
      }
    return make_error(Code::InvalidArgument, "nested SDFG " + std::to_string(c.node_id) + " (\"" + c.node->label +
                                                 "\"): container '" + name +
                                                 "' is not transient and has no connector edge to take its storage from");
  }

  Status scope(ir::SDFG& g, ir::State& st, const ScopeTree& tree, int entry, const std::vector<ScheduleType>& parents,
               const Caller& caller) {
    const std::vector<int>& members = tree.children_of(entry);  // exits of child scopes included
    // Storages first (DaCe's _set_default_storage_in_scope): access nodes, then the memlets
    // between members (code-to-code edges without access nodes).
    // A GPU kernel scope without explicit thread-block scopes inside runs its body as one
    // implicit thread block: its transients are per-thread (DaCe's special case).
    std::vector<ScheduleType> storage_parents = parents;
    if (contains(parents, ScheduleType::GPU_Device) && !contains(parents, ScheduleType::GPU_ThreadBlock) &&
        !contains(parents, ScheduleType::GPU_ThreadBlock_Dynamic) && !has_explicit_threadblocks(st, entry))
      storage_parents.push_back(ScheduleType::GPU_ThreadBlock);
    const StorageType inner_storage = child_storage(storage_parents);
    auto settle = [&](const std::string& data) -> Status {
      auto it = g.arrays.find(data);
      if (it == g.arrays.end()) return Status::success();
      if (!it->second.transient) return storage_from_caller(data, caller, it->second.storage);
      if (it->second.storage == StorageType::Default) it->second.storage = inner_storage;
      return Status::success();
    };
    std::vector<char> member(static_cast<size_t>(st.node_slots()), 0);
    for (int n : members) member[static_cast<size_t>(n)] = 1;
    for (int n : members)
      if (st.node(n)->kind == ir::NodeKind::Access) DACE_TRY(settle(static_cast<const ir::AccessNode*>(st.node(n))->data));
    for (int e : st.edge_ids()) {
      const ir::DataflowEdge& edge = *st.edge(e);
      if (edge.memlet.data.empty() || edge.src < 0 || edge.dst < 0) continue;
      if (member[static_cast<size_t>(edge.src)] && member[static_cast<size_t>(edge.dst)]) DACE_TRY(settle(edge.memlet.data));
    }
    // Then schedules: Default ones become the child schedule of the innermost parent.
    ScheduleType inner_schedule = child_schedule_of(parents.back());
    if (inner_schedule == ScheduleType::GPU_ThreadBlock && has_explicit_dynamic_threadblocks(st, entry))
      inner_schedule = ScheduleType::GPU_ThreadBlock_Dynamic;
    for (int n : members) {
      ir::Node& node = *st.node(n);
      if (node.is_scope_exit()) continue;
      if (ScheduleType* s = ir::schedule_field(node); s && *s == ScheduleType::Default) *s = inner_schedule;
    }
    // Then inwards: scopes under their own schedule, nested SDFGs under the same parents.
    for (int n : members) {
      ir::Node& node = *st.node(n);
      if (node.kind == ir::NodeKind::NestedSDFG) {
        auto& nested = static_cast<ir::NestedSDFGNode&>(node);
        // A GPU_Default nested SDFG is a parent schedule of its contents; others are not.
        std::vector<ScheduleType> inner = parents;
        if (nested.schedule == ScheduleType::GPU_Default) inner.push_back(nested.schedule);
        if (nested.sdfg) DACE_TRY(sdfg(*nested.sdfg, inner, Caller{&g, &st, &nested, n}));
      } else if (node.is_scope_entry()) {
        std::vector<ScheduleType> inner = parents;
        inner.push_back(ir::schedule_of(node));
        DACE_TRY(scope(g, st, tree, n, inner, caller));
      }
    }
    return Status::success();
  }
};

bool check_schedules(const ir::SDFG& g, std::string& why) {
  for (const ir::State* st : g.all_states())
    for (int n : st->node_ids()) {
      const ir::Node& node = *st->node(n);
      if (is_fpga(ir::schedule_of(node))) {
        why = "node " + std::to_string(n) + " (\"" + node.label + "\") in state \"" + st->label + "\" has schedule " +
              ir::to_string(ir::schedule_of(node)) + " (DaCe's FPGA re-defaulting is not implemented)";
        return false;
      }
      if (node.kind == ir::NodeKind::NestedSDFG && static_cast<const ir::NestedSDFGNode&>(node).sdfg &&
          !check_schedules(*static_cast<const ir::NestedSDFGNode&>(node).sdfg, why))
        return false;
    }
  return true;
}

}  // namespace

bool can_redefault_schedules(const ir::NestedSDFGNode& node, std::string& why) {
  if (is_fpga(node.schedule)) {
    why = "DaCe never inlines FPGA_Device nested SDFGs (FPGA re-defaulting is not implemented)";
    return false;
  }
  return !node.sdfg || check_schedules(*node.sdfg, why);
}

Status redefault_schedules(const ir::SDFG& outer, const ir::State& state, int node_id, ir::SDFG& body) {
  const ir::Node* n = state.node(node_id);
  if (!n || n->kind != ir::NodeKind::NestedSDFG)
    return make_error(Code::InvalidArgument, "node " + std::to_string(node_id) + " is not a nested SDFG");
  const auto& node = static_cast<const ir::NestedSDFGNode&>(*n);
  if (node.schedule == ScheduleType::Default) return Status::success();
  Redefault r;
  return r.sdfg(body, {node.schedule}, Caller{&outer, &state, &node, node_id});
}

}  // namespace dace::transform
