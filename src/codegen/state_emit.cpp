#include "codegen/state_emit.h"

#include <algorithm>
#include <queue>
#include <set>

#include "codegen/allocation.h"
#include "codegen/bounds_check.h"
#include "codegen/instrument_emit.h"
#include "codegen/node_emit.h"
#include "ir/path.h"

namespace dace::codegen {

namespace {

int entry_of_exit(const ir::Node& n) {
  if (n.kind == ir::NodeKind::MapExit) return static_cast<const ir::MapExit&>(n).entry;
  if (n.kind == ir::NodeKind::ConsumeExit) return static_cast<const ir::ConsumeExit&>(n).entry;
  return -1;
}

std::string strip_prefix(const std::string& conn, const char* prefix) {
  size_t n = std::char_traits<char>::length(prefix);
  return conn.compare(0, n, prefix) == 0 ? conn.substr(n) : std::string();
}

}  // namespace

StateEmitter::StateEmitter(Frame& frame, const ir::State& s)
    : f(&frame), state(s), sdfg(frame.sc.sdfg), parents(s.scope_parents()) {}

std::string StateEmitter::where(int node) const { return ir::path_of_node(sdfg, state, node); }
std::string StateEmitter::where_edge(int edge) const { return ir::path_of_edge(sdfg, state, edge); }

std::string StateEmitter::access_data(int node) const {
  const ir::Node* n = state.node(node);
  if (!n || n->kind != ir::NodeKind::Access) return {};
  return static_cast<const ir::AccessNode*>(n)->data;
}

int StateEmitter::in_edge_at(int node, const std::string& conn) const {
  for (int e : state.in_edges(node))
    if (state.edge(e)->dst_conn == conn) return e;
  return -1;
}

int StateEmitter::out_edge_at(int node, const std::string& conn) const {
  for (int e : state.out_edges(node))
    if (state.edge(e)->src_conn == conn) return e;
  return -1;
}

int StateEmitter::path_source(int edge) const {
  for (int steps = 0; steps < 10000 && edge >= 0; ++steps) {
    const ir::DataflowEdge* e = state.edge(edge);
    const ir::Node* src = state.node(e->src);
    if (!src || !src->is_scope_entry()) return e->src;
    std::string inner = strip_prefix(e->src_conn, "OUT_");
    if (inner.empty()) return e->src;
    int next = in_edge_at(e->src, "IN_" + inner);
    if (next < 0) return e->src;
    edge = next;
  }
  return -1;
}

int StateEmitter::path_sink(int edge) const {
  for (int steps = 0; steps < 10000 && edge >= 0; ++steps) {
    const ir::DataflowEdge* e = state.edge(edge);
    const ir::Node* dst = state.node(e->dst);
    if (!dst || !dst->is_scope_exit()) return e->dst;
    std::string inner = strip_prefix(e->dst_conn, "IN_");
    if (inner.empty()) return e->dst;
    int next = out_edge_at(e->dst, "OUT_" + inner);
    if (next < 0) return e->dst;
    edge = next;
  }
  return -1;
}

int StateEmitter::view_edge(int node) const {
  std::vector<int> in = state.in_edges(node), out = state.out_edges(node);
  if (in.empty() || out.empty()) {
    // A view with edges on one side only views through that edge when it leads to data.
    if (in.size() == 1 && !access_data(path_source(in[0])).empty()) return in[0];
    if (out.size() == 1 && !access_data(path_sink(out[0])).empty()) return out[0];
    return -1;
  }
  if (in.size() == 1 && out.size() != 1) return in[0];
  if (out.size() == 1 && in.size() != 1) return out[0];
  if (in.size() != 1) return -1;
  int ie = in[0], oe = out[0];
  bool src_is_data = !access_data(path_source(ie)).empty();
  bool dst_is_data = !access_data(path_sink(oe)).empty();
  if (src_is_data && !dst_is_data) return ie;
  if (!src_is_data && dst_is_data) return oe;
  if (!src_is_data && !dst_is_data) return -1;
  const std::string& self = access_data(node);
  bool in_is_self = state.edge(ie)->memlet.data == self, out_is_self = state.edge(oe)->memlet.data == self;
  if (in_is_self && !out_is_self) return oe;
  if (!in_is_self && out_is_self) return ie;
  if (in_is_self && out_is_self) return -1;
  if (state.node(state.edge(ie)->src)->is_scope_entry()) return ie;
  if (state.node(state.edge(oe)->dst)->is_scope_exit()) return oe;
  return ie;
}

std::vector<int> StateEmitter::scope_order(int scope) const {
  // Representative of a node at this scope level: the ancestor directly inside `scope`
  // (exits stand for their entries).
  auto rep = [&](int n) -> int {
    for (int steps = 0; steps < 100000 && n >= 0; ++steps) {
      const ir::Node* node = state.node(n);
      if (!node) return -1;
      if (node->is_scope_exit()) {
        n = entry_of_exit(*node);
        continue;
      }
      if (parents[n] == scope) return n;
      n = parents[n];
    }
    return -1;
  };
  std::set<int> members;
  for (int n : state.node_ids()) {
    const ir::Node* node = state.node(n);
    if (node->is_scope_exit()) continue;
    if (parents[n] == scope) members.insert(n);
  }
  std::map<int, std::set<int>> succ;
  std::map<int, int> indeg;
  for (int n : members) indeg[n] = 0;
  for (int e : state.edge_ids()) {
    const ir::DataflowEdge* edge = state.edge(e);
    int u = rep(edge->src), v = rep(edge->dst);
    if (u < 0 || v < 0 || u == v || !members.count(u) || !members.count(v)) continue;
    if (succ[u].insert(v).second) ++indeg[v];
  }
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (auto& [n, d] : indeg)
    if (d == 0) ready.push(n);
  std::vector<int> order;
  while (!ready.empty()) {
    int n = ready.top();
    ready.pop();
    order.push_back(n);
    for (int v : succ[n])
      if (--indeg[v] == 0) ready.push(v);
  }
  // A cycle (invalid SDFG) leaves nodes out; append them so nothing is silently dropped.
  if (order.size() != members.size())
    for (int n : members)
      if (std::find(order.begin(), order.end(), n) == order.end()) order.push_back(n);
  return order;
}

Result<std::vector<llvm::Value*>> StateEmitter::allocate_scope_locals(int scope) {
  std::vector<llvm::Value*> to_free;
  auto it = scope_locals.find(scope);
  if (it == scope_locals.end()) return to_free;
  bool thread_local_storage = f->parent != nullptr;
  for (const std::string& name : it->second) {
    Result<std::vector<llvm::Value*>> r = allocate_container(*f, name, AllocKind::ScopeLocal, thread_local_storage);
    if (!r) return r.take_error();
    to_free.insert(to_free.end(), r->begin(), r->end());
  }
  // One null check for the batch (with the state's own blocks when scope is -1); from here
  // on a failure further in frees them on its way out.
  leave_if_any_null(*f, f->pending_allocations);
  f->failure_frees.insert(f->failure_frees.end(), f->pending_allocations.begin(), f->pending_allocations.end());
  f->pending_allocations.clear();
  return to_free;
}

void StateEmitter::free_all(const std::vector<llvm::Value*>& ptrs) {
  size_t blocks = 0;
  for (llvm::Value* p : ptrs)
    if (!is_stack_mark(p)) heap_free(f->b, f->mc, p), ++blocks;
  // Dynamic stack arrays (device code): the earliest mark last, so the stack ends where it began.
  for (auto it = ptrs.rbegin(); it != ptrs.rend(); ++it)
    if (is_stack_mark(*it)) restore_stack(f->b, *it);
  f->failure_frees.resize(f->failure_frees.size() >= blocks ? f->failure_frees.size() - blocks : 0);
}

Status StateEmitter::emit_scope(int scope) { return emit_nodes(scope_order(scope)); }

Status StateEmitter::emit_nodes(const std::vector<int>& order) {
  for (int n : order)
    if (state.node(n)->kind == ir::NodeKind::Access && is_view_node(*this, n)) DACE_TRY(bind_view(*this, n));
  for (int n : order) {
    const ir::Node* node = state.node(n);
    if (parents[static_cast<size_t>(n)] == -1)
      for (const auto& hook : f->mc.state_hooks) DACE_TRY(hook(*this, n));
    DACE_TRY(emit_bounds_checks(*this, n));
    Result<std::optional<Timer>> timer = start_node_timer(*f, state, n);
    if (!timer) return timer.take_error();
    switch (node->kind) {
      case ir::NodeKind::Access: DACE_TRY(emit_access_node(*this, n)); break;
      case ir::NodeKind::Tasklet: DACE_TRY(emit_tasklet(*this, n)); break;
      case ir::NodeKind::MapEntry: DACE_TRY(emit_map(*this, n)); break;
      case ir::NodeKind::NestedSDFG: DACE_TRY(emit_nested_sdfg(*this, n)); break;
      case ir::NodeKind::Library: DACE_TRY(emit_library_node(*this, n)); break;
      case ir::NodeKind::ConsumeEntry: DACE_TRY(emit_consume(*this, n)); break;
      default: break;
    }
    if (*timer) stop_timer(*f, **timer);
  }
  return Status::success();
}

Status StateEmitter::emit() {
  const AllocationPlan& plan = f->sc.plan;
  // Lowest common scope of each ScopeLocal container's access nodes in this state.
  std::map<std::string, int> lca;
  auto depth_chain = [&](int n) {
    std::vector<int> chain;
    for (int p = parents[n]; p >= 0 && chain.size() < 100000; p = parents[p]) chain.push_back(p);
    std::reverse(chain.begin(), chain.end());
    return chain;  // outermost first
  };
  std::map<std::string, std::vector<int>> common;
  std::set<std::string> seen;
  for (int n : state.node_ids()) {
    std::string d = access_data(n);
    if (d.empty()) continue;
    auto k = plan.kind.find(d);
    if (k == plan.kind.end() || k->second != AllocKind::ScopeLocal) continue;
    std::vector<int> chain = depth_chain(n);
    if (!seen.count(d)) {
      seen.insert(d);
      common[d] = chain;
    } else {
      std::vector<int>& c = common[d];
      size_t i = 0;
      while (i < c.size() && i < chain.size() && c[i] == chain[i]) ++i;
      c.resize(i);
    }
  }
  for (const auto& [d, chain] : common) scope_locals[chain.empty() ? -1 : chain.back()].push_back(d);

  f->push_scope();
  std::vector<llvm::Value*> to_free;
  for (const auto& [name, kind] : plan.kind) {
    if (kind == AllocKind::StateHeap) {
      auto sb = plan.state_block.find(name);
      if (sb == plan.state_block.end() || sb->second != state.id) continue;
      Result<std::vector<llvm::Value*>> r = allocate_container(*f, name, kind, false);
      if (!r) return r.take_error();
      to_free.insert(to_free.end(), r->begin(), r->end());
    } else if (kind == AllocKind::Reference) {
      auto slot = f->reference_slots.find(name);
      bool used = false;
      for (int n : state.node_ids())
        if (access_data(n) == name) used = true;
      if (used && slot != f->reference_slots.end())
        f->bind_data(name, DataBinding{f->b.CreateLoad(f->b.getPtrTy(), slot->second, name), &sdfg.arrays.at(name), false});
    } else if (kind == AllocKind::LazyHeap) {
      bool used = false;
      for (int n : state.node_ids())
        if (access_data(n) == name) used = true;
      if (used) DACE_TRY(bind_lazy_container(*f, name));
    }
  }
  Result<std::vector<llvm::Value*>> locals = allocate_scope_locals(-1);  // checks the state's blocks too
  if (!locals) return locals.take_error();
  to_free.insert(to_free.end(), locals->begin(), locals->end());
  DACE_TRY(emit_scope(-1));
  for (const auto& hook : f->mc.state_hooks) DACE_TRY(hook(*this, -1));
  free_all(to_free);
  f->pop_scope();
  return Status::success();
}

Status emit_state(Frame& f, const ir::State& state) {
  StateEmitter se(f, state);
  return se.emit();
}

}  // namespace dace::codegen
